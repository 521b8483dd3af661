module @jit_sorting attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x9xf32>) -> (tensor<6x3xf32> {jax.result_info = "result[0]"}, tensor<6x3xi32> {jax.result_info = "result[1]"}, tensor<9x2xf32> {jax.result_info = "result[2]"}, tensor<9x2xi32> {jax.result_info = "result[3]"}, tensor<6x9xi32> {jax.result_info = "result[4]"}, tensor<6x9xi32> {jax.result_info = "result[5]"}, tensor<6x9xf32> {jax.result_info = "result[6]"}, tensor<6x9xf32> {jax.result_info = "result[7]"}, tensor<6x9xf32> {jax.result_info = "result[8]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0:2 = stablehlo.composite "chlo.top_k" %arg0 {composite_attributes = {k = 3 : i64}, decomposition = @chlo.top_k.impl, version = 1 : i32} : (tensor<6x9xf32>) -> (tensor<6x3xf32>, tensor<6x3xi32>)
    %1 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<6x9xf32>) -> tensor<9x6xf32>
    %2:2 = stablehlo.composite "chlo.top_k" %1 {composite_attributes = {k = 2 : i64}, decomposition = @chlo.top_k.impl_0, version = 1 : i32} : (tensor<9x6xf32>) -> (tensor<9x2xf32>, tensor<9x2xi32>)
    %3 = call @argsort(%arg0) : (tensor<6x9xf32>) -> tensor<6x9xi32>
    %4 = call @argsort_0(%arg0) : (tensor<6x9xf32>) -> tensor<6x9xi32>
    %5 = call @sort(%arg0) : (tensor<6x9xf32>) -> tensor<6x9xf32>
    %6 = call @sort_1(%arg0) : (tensor<6x9xf32>) -> tensor<6x9xf32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x9xf32>
    %8 = stablehlo.maximum %arg0, %7 : tensor<6x9xf32>
    return %0#0, %0#1, %2#0, %2#1, %3, %4, %5, %6, %8 : tensor<6x3xf32>, tensor<6x3xi32>, tensor<9x2xf32>, tensor<9x2xi32>, tensor<6x9xi32>, tensor<6x9xi32>, tensor<6x9xf32>, tensor<6x9xf32>, tensor<6x9xf32>
  }
  func.func private @chlo.top_k.impl_0(%arg0: tensor<9x6xf32>) -> (tensor<9x2xf32>, tensor<9x2xi32>) {
    %0 = stablehlo.iota dim = 1 : tensor<9x6xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %4 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    }) : (tensor<9x6xf32>, tensor<9x6xi32>) -> (tensor<9x6xf32>, tensor<9x6xi32>)
    %2 = stablehlo.slice %1#0 [0:9, 0:2] : (tensor<9x6xf32>) -> tensor<9x2xf32>
    %3 = stablehlo.slice %1#1 [0:9, 0:2] : (tensor<9x6xi32>) -> tensor<9x2xi32>
    return %2, %3 : tensor<9x2xf32>, tensor<9x2xi32>
  }
  func.func private @chlo.top_k.impl(%arg0: tensor<6x9xf32>) -> (tensor<6x3xf32>, tensor<6x3xi32>) {
    %0 = stablehlo.iota dim = 1 : tensor<6x9xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %4 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    }) : (tensor<6x9xf32>, tensor<6x9xi32>) -> (tensor<6x9xf32>, tensor<6x9xi32>)
    %2 = stablehlo.slice %1#0 [0:6, 0:3] : (tensor<6x9xf32>) -> tensor<6x3xf32>
    %3 = stablehlo.slice %1#1 [0:6, 0:3] : (tensor<6x9xi32>) -> tensor<6x3xi32>
    return %2, %3 : tensor<6x3xf32>, tensor<6x3xi32>
  }
  func.func private @argsort(%arg0: tensor<6x9xf32>) -> tensor<6x9xi32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.iota dim = 0 : tensor<6x9xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %2 = stablehlo.compare EQ, %arg1, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.select %2, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %4 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = stablehlo.select %4, %cst, %3 : tensor<i1>, tensor<f32>
      %6 = stablehlo.compare EQ, %arg2, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %7 = stablehlo.select %6, %cst_0, %arg2 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %9 = stablehlo.select %8, %cst, %7 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare LT, %5, %9, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    }) : (tensor<6x9xf32>, tensor<6x9xi32>) -> (tensor<6x9xf32>, tensor<6x9xi32>)
    return %1#1 : tensor<6x9xi32>
  }
  func.func private @argsort_0(%arg0: tensor<6x9xf32>) -> tensor<6x9xi32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.iota dim = 1 : tensor<6x9xi32>
    %1 = stablehlo.reverse %arg0, dims = [1] : tensor<6x9xf32>
    %2 = stablehlo.reverse %0, dims = [1] : tensor<6x9xi32>
    %3:2 = "stablehlo.sort"(%1, %2) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %5 = stablehlo.compare EQ, %arg1, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.select %5, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.select %7, %cst, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare EQ, %arg2, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %10 = stablehlo.select %9, %cst_0, %arg2 : tensor<i1>, tensor<f32>
      %11 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %12 = stablehlo.select %11, %cst, %10 : tensor<i1>, tensor<f32>
      %13 = stablehlo.compare LT, %8, %12, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %13 : tensor<i1>
    }) : (tensor<6x9xf32>, tensor<6x9xi32>) -> (tensor<6x9xf32>, tensor<6x9xi32>)
    %4 = stablehlo.reverse %3#1, dims = [1] : tensor<6x9xi32>
    return %4 : tensor<6x9xi32>
  }
  func.func private @sort(%arg0: tensor<6x9xf32>) -> tensor<6x9xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.compare EQ, %arg1, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.select %3, %cst, %2 : tensor<i1>, tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.select %5, %cst_0, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.select %7, %cst, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<6x9xf32>) -> tensor<6x9xf32>
    return %0 : tensor<6x9xf32>
  }
  func.func private @sort_1(%arg0: tensor<6x9xf32>) -> tensor<6x9xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.compare EQ, %arg1, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.select %3, %cst, %2 : tensor<i1>, tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.select %5, %cst_0, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.select %7, %cst, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<6x9xf32>) -> tensor<6x9xf32>
    return %0 : tensor<6x9xf32>
  }
}
