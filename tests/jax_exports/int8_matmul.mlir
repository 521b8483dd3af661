module @jit_int8_matmul attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x16xi8>, %arg1: tensor<16x7xi8>, %arg2: tensor<7xf32>) -> (tensor<5x7xi32> {jax.result_info = "result[0]"}, tensor<5x7xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<5x16xi8>, tensor<16x7xi8>) -> tensor<5x7xi32>
    %1 = stablehlo.convert %0 : (tensor<5x7xi32>) -> tensor<5x7xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<7xf32>) -> tensor<1x7xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x7xf32>) -> tensor<5x7xf32>
    %4 = stablehlo.multiply %1, %3 : tensor<5x7xf32>
    return %0, %4 : tensor<5x7xi32>, tensor<5x7xf32>
  }
}
