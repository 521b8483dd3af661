// Per-example gradients of a softmax cross-entropy of a linear model, as JAX
// 0.10.2 exports them (jax.jit(f).lower(*args).as_text()):
//   loss = lambda (w, b), x, y: -jax.nn.log_softmax(x @ w + b)[y]
//   f = lambda w, b, x, y: jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))((w, b), x, y)
// with w: 16x10, b: 10, x: 8x16, y: 8 (int32). The label's gradient is a
// scatter into a broadcast of zeros; the batched dot_general makes dw.
module @jit_per_example_grads attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x10xf32>, %arg1: tensor<10xf32>, %arg2: tensor<8x16xf32>, %arg3: tensor<8xi32>) -> (tensor<8x16x10xf32> {jax.result_info = "result[0]"}, tensor<8x10xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x10xf32>) -> tensor<8x10xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<8x10xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x10xf32>
    %4:2 = call @log_softmax(%3) : (tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x1xf32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %6 = stablehlo.compare LT, %arg3, %5, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %8 = stablehlo.add %arg3, %7 : tensor<8xi32>
    %9 = stablehlo.select %6, %8, %arg3 : tensor<8xi1>, tensor<8xi32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.negate %cst : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %13 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [1] : (tensor<10xf32>) -> tensor<8x10xf32>
    %15 = stablehlo.broadcast_in_dim %11, dims = [1] : (tensor<1xf32>) -> tensor<8x1xf32>
    %c_2 = stablehlo.constant dense<9> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<2147483647> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.minimum %c_2, %16 : tensor<1xi32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [1] : (tensor<1xi32>) -> tensor<8x1xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %20 = stablehlo.clamp %19, %13, %18 : tensor<8x1xi32>
    %21 = "stablehlo.scatter"(%14, %20, %15) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      stablehlo.return %arg5 : tensor<f32>
    }) : (tensor<8x10xf32>, tensor<8x1xi32>, tensor<8x1xf32>) -> tensor<8x10xf32>
    %22 = call @log_softmax_0(%4#0, %4#1, %21) : (tensor<8x10xf32>, tensor<8x1xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %23 = stablehlo.dot_general %22, %arg2, batching_dims = [0] x [0], contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<8x16xf32>) -> tensor<8x10x16xf32>
    %24 = stablehlo.transpose %23, dims = [0, 2, 1] : (tensor<8x10x16xf32>) -> tensor<8x16x10xf32>
    return %24, %22 : tensor<8x16x10xf32>, tensor<8x10xf32>
  }
  func.func private @log_softmax(%arg0: tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x10xf32>
    %6 = stablehlo.exponential %5 : tensor<8x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    return %6, %8 : tensor<8x10xf32>, tensor<8x1xf32>
  }
  func.func private @log_softmax_0(%arg0: tensor<8x10xf32>, %arg1: tensor<8x1xf32>, %arg2: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<8x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.reshape %1 : (tensor<8xf32>) -> tensor<8x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<8x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<8x10xf32>
    return %7 : tensor<8x10xf32>
  }
}
