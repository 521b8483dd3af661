module @jit_cumulative attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x7xf32>, %arg1: tensor<5x7xi32>) -> (tensor<5x7xf32> {jax.result_info = "result[0]"}, tensor<5x7xf32> {jax.result_info = "result[1]"}, tensor<5x7xf32> {jax.result_info = "result[2]"}, tensor<5x7xf32> {jax.result_info = "result[3]"}, tensor<5x7xf32> {jax.result_info = "result[4]"}, tensor<5x7xi32> {jax.result_info = "result[5]"}) {
    %0 = call @cumsum(%arg0) : (tensor<5x7xf32>) -> tensor<5x7xf32>
    %1 = call @cumsum_1(%arg0) : (tensor<5x7xf32>) -> tensor<5x7xf32>
    %2 = call @cumprod(%arg0) : (tensor<5x7xf32>) -> tensor<5x7xf32>
    %3 = call @cummax(%arg0) : (tensor<5x7xf32>) -> tensor<5x7xf32>
    %4 = call @cummax_4(%arg0) : (tensor<5x7xf32>) -> tensor<5x7xf32>
    %5 = call @cumsum_5(%arg1) : (tensor<5x7xi32>) -> tensor<5x7xi32>
    return %0, %1, %2, %3, %4, %5 : tensor<5x7xf32>, tensor<5x7xf32>, tensor<5x7xf32>, tensor<5x7xf32>, tensor<5x7xf32>, tensor<5x7xi32>
  }
  func.func private @cumsum(%arg0: tensor<5x7xf32>) -> tensor<5x7xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<5x7xf32>) -> tensor<5x7xf32>
    return %0 : tensor<5x7xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<5x7xf32>) -> tensor<5x7xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{padding = dense<[[4, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 5, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
    return %1 : tensor<5x7xf32>
  }
  func.func private @cumsum_1(%arg0: tensor<5x7xf32>) -> tensor<5x7xf32> {
    %0 = call @cumsum_2(%arg0) : (tensor<5x7xf32>) -> tensor<5x7xf32>
    return %0 : tensor<5x7xf32>
  }
  func.func private @cumsum_2(%arg0: tensor<5x7xf32>) -> tensor<5x7xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{padding = dense<[[0, 0], [6, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 7>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
    return %1 : tensor<5x7xf32>
  }
  func.func private @cumprod(%arg0: tensor<5x7xf32>) -> tensor<5x7xf32> {
    %0 = call @cumprod_3(%arg0) : (tensor<5x7xf32>) -> tensor<5x7xf32>
    return %0 : tensor<5x7xf32>
  }
  func.func private @cumprod_3(%arg0: tensor<5x7xf32>) -> tensor<5x7xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{padding = dense<[[0, 0], [6, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 7>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.multiply %arg1, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
    return %0 : tensor<5x7xf32>
  }
  func.func private @cummax(%arg0: tensor<5x7xf32>) -> tensor<5x7xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{padding = dense<[[4, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 5, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
    return %1 : tensor<5x7xf32>
  }
  func.func private @cummax_4(%arg0: tensor<5x7xf32>) -> tensor<5x7xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{padding = dense<[[0, 0], [0, 6]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 7>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
    return %1 : tensor<5x7xf32>
  }
  func.func private @cumsum_5(%arg0: tensor<5x7xi32>) -> tensor<5x7xi32> {
    %0 = call @cumsum_6(%arg0) : (tensor<5x7xi32>) -> tensor<5x7xi32>
    return %0 : tensor<5x7xi32>
  }
  func.func private @cumsum_6(%arg0: tensor<5x7xi32>) -> tensor<5x7xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{padding = dense<[[0, 0], [6, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 7>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<5x7xi32>, tensor<i32>) -> tensor<5x7xi32>
    return %1 : tensor<5x7xi32>
  }
}
