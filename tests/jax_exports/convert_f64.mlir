module @jit_convert_f64 attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xf64>) -> (tensor<12xi32> {jax.result_info = "result[0]"}, tensor<12xf32> {jax.result_info = "result[1]"}, tensor<12xui8> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<12xf64>) -> tensor<12xi32>
    %1 = stablehlo.convert %arg0 : (tensor<12xf64>) -> tensor<12xf32>
    %2 = stablehlo.convert %arg0 : (tensor<12xf64>) -> tensor<12xui8>
    return %0, %1, %2 : tensor<12xi32>, tensor<12xf32>, tensor<12xui8>
  }
}
