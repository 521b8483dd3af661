module @jit_elementwise_extras attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xf32>, %arg1: tensor<3x5xf32>) -> (tensor<3x5xf32> {jax.result_info = "result[0]"}, tensor<3x5xf32> {jax.result_info = "result[1]"}, tensor<3x5xf32> {jax.result_info = "result[2]"}, tensor<4xf32> {jax.result_info = "result[3]"}, tensor<3xf32> {jax.result_info = "result[4]"}, tensor<i32> {jax.result_info = "result[5]"}) {
    %cst = stablehlo.constant dense<[1.500000e+00, -2.000000e+00, 3.250000e+00]> : tensor<3xf32>
    %0 = chlo.square %arg0 : tensor<3x5xf32> -> tensor<3x5xf32>
    %1 = chlo.next_after %arg0, %arg1 : tensor<3x5xf32>, tensor<3x5xf32> -> tensor<3x5xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+03> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %3 = stablehlo.multiply %arg0, %2 : tensor<3x5xf32>
    %4 = stablehlo.reduce_precision %3, format = e5m2 : tensor<3x5xf32>
    %5 = stablehlo.iota dim = 0 : tensor<4xf32>
    %c = stablehlo.constant dense<7> : tensor<i32>
    return %0, %1, %4, %5, %cst, %c : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<4xf32>, tensor<3xf32>, tensor<i32>
  }
}
