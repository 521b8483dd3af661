module @jit_step attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3x2x4xf32>, %arg1: tensor<3x3x1x4xf32>, %arg2: tensor<16x3xf32>, %arg3: tensor<2x12x12x2xf32>, %arg4: tensor<2xi32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<3x3x2x4xf32> {jax.result_info = "result[1]"}, tensor<3x3x1x4xf32> {jax.result_info = "result[2]"}, tensor<16x3xf32> {jax.result_info = "result[3]"}) {
    %cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.convolution(%arg3, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x12x12x2xf32>, tensor<3x3x2x4xf32>) -> tensor<2x12x12x4xf32>
    %1 = call @relu(%0) : (tensor<2x12x12x4xf32>) -> tensor<2x12x12x4xf32>
    %2 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x12x12x4xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<2x12x12x4xf32>, tensor<2x12x12x4xf32>) -> tensor<2x12x12x4xi1>
    %4 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<f32>
    %5 = "stablehlo.reduce_window"(%1, %4) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %60 = stablehlo.maximum %arg5, %arg6 : tensor<f32>
      stablehlo.return %60 : tensor<f32>
    }) : (tensor<2x12x12x4xf32>, tensor<f32>) -> tensor<2x6x6x4xf32>
    %6 = stablehlo.convolution(%5, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x6x6x4xf32>, tensor<3x3x1x4xf32>) -> tensor<2x3x3x4xf32>
    %7 = stablehlo.tanh %6 : tensor<2x3x3x4xf32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x3x3x4xf32>
    %9 = stablehlo.subtract %8, %7 : tensor<2x3x3x4xf32>
    %10 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<f32>
    %11 = "stablehlo.reduce_window"(%7, %10) <{window_dimensions = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %60 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %60 : tensor<f32>
    }) : (tensor<2x3x3x4xf32>, tensor<f32>) -> tensor<2x2x2x4xf32>
    %12 = stablehlo.reshape %11 : (tensor<2x2x2x4xf32>) -> tensor<2x16xf32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %14 = stablehlo.divide %12, %13 : tensor<2x16xf32>
    %15 = stablehlo.dot_general %14, %arg2, contracting_dims = [1] x [0] : (tensor<2x16xf32>, tensor<16x3xf32>) -> tensor<2x3xf32>
    %16:3 = call @log_softmax(%15) : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>)
    %17 = stablehlo.broadcast_in_dim %arg4, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %18:2 = call @take_along_axis(%16#0, %17) : (tensor<2x3xf32>, tensor<2x1xi32>) -> (tensor<2x1xf32>, tensor<2x1x1xi32>)
    %19 = stablehlo.reduce(%18#0 init: %cst_4) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x1xf32>, tensor<f32>) -> tensor<f32>
    %20 = stablehlo.divide %19, %cst_0 : tensor<f32>
    %21 = stablehlo.negate %20 : tensor<f32>
    %22 = stablehlo.negate %cst_2 : tensor<f32>
    %23 = stablehlo.divide %22, %cst_0 : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %25 = call @take_along_axis_0(%18#1, %24) : (tensor<2x1x1xi32>, tensor<2x1xf32>) -> tensor<2x3xf32>
    %26 = call @log_softmax_1(%16#1, %16#2, %25) : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %27 = stablehlo.dot_general %26, %14, contracting_dims = [0] x [0] : (tensor<2x3xf32>, tensor<2x16xf32>) -> tensor<3x16xf32>
    %28 = stablehlo.transpose %27, dims = [1, 0] : (tensor<3x16xf32>) -> tensor<16x3xf32>
    %29 = stablehlo.dot_general %26, %arg2, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<16x3xf32>) -> tensor<2x16xf32>
    %30 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %31 = stablehlo.divide %29, %30 : tensor<2x16xf32>
    %32 = stablehlo.reshape %31 : (tensor<2x16xf32>) -> tensor<2x2x2x4xf32>
    %33 = stablehlo.pad %32, %cst_4, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x2x2x4xf32>, tensor<f32>) -> tensor<2x4x4x4xf32>
    %34 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<f32>
    %35 = "stablehlo.reduce_window"(%33, %34) <{window_dimensions = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %60 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %60 : tensor<f32>
    }) : (tensor<2x4x4x4xf32>, tensor<f32>) -> tensor<2x3x3x4xf32>
    %36 = stablehlo.multiply %35, %9 : tensor<2x3x3x4xf32>
    %37 = stablehlo.multiply %36, %7 : tensor<2x3x3x4xf32>
    %38 = stablehlo.add %36, %37 : tensor<2x3x3x4xf32>
    %39 = stablehlo.convolution(%5, %38) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {pad = [[0, 1], [0, 1]], rhs_dilate = [2, 2]} {batch_group_count = 4 : i64, feature_group_count = 1 : i64} : (tensor<2x6x6x4xf32>, tensor<2x3x3x4xf32>) -> tensor<3x3x1x4xf32>
    %40 = stablehlo.reshape %arg1 : (tensor<3x3x1x4xf32>) -> tensor<3x3x1x4x1xf32>
    %41 = stablehlo.transpose %40, dims = [0, 1, 3, 2, 4] : (tensor<3x3x1x4x1xf32>) -> tensor<3x3x4x1x1xf32>
    %42 = stablehlo.reshape %41 : (tensor<3x3x4x1x1xf32>) -> tensor<3x3x4x1xf32>
    %43 = stablehlo.reverse %42, dims = [0, 1] : tensor<3x3x4x1xf32>
    %44 = stablehlo.convolution(%38, %43) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x3x3x4xf32>, tensor<3x3x4x1xf32>) -> tensor<2x6x6x4xf32>
    %45 = stablehlo.pad %1, %cst_3, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x12x12x4xf32>, tensor<f32>) -> tensor<2x12x12x4xf32>
    %46 = "stablehlo.select_and_scatter"(%45, %44, %cst_4) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %60 = stablehlo.compare GE, %arg5, %arg6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %60 : tensor<i1>
    }, {
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %60 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %60 : tensor<f32>
    }) : (tensor<2x12x12x4xf32>, tensor<2x6x6x4xf32>, tensor<f32>) -> tensor<2x12x12x4xf32>
    %47 = stablehlo.slice %46 [0:2, 0:12, 0:12, 0:4] : (tensor<2x12x12x4xf32>) -> tensor<2x12x12x4xf32>
    %48 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x12x12x4xf32>
    %49 = stablehlo.select %3, %47, %48 : tensor<2x12x12x4xi1>, tensor<2x12x12x4xf32>
    %50 = stablehlo.convolution(%arg3, %49) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x12x12x2xf32>, tensor<2x12x12x4xf32>) -> tensor<3x3x2x4xf32>
    %51 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x3x2x4xf32>
    %52 = stablehlo.multiply %51, %50 : tensor<3x3x2x4xf32>
    %53 = stablehlo.subtract %arg0, %52 : tensor<3x3x2x4xf32>
    %54 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x3x1x4xf32>
    %55 = stablehlo.multiply %54, %39 : tensor<3x3x1x4xf32>
    %56 = stablehlo.subtract %arg1, %55 : tensor<3x3x1x4xf32>
    %57 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x3xf32>
    %58 = stablehlo.multiply %57, %28 : tensor<16x3xf32>
    %59 = stablehlo.subtract %arg2, %58 : tensor<16x3xf32>
    return %21, %53, %56, %59 : tensor<f32>, tensor<3x3x2x4xf32>, tensor<3x3x1x4xf32>, tensor<16x3xf32>
  }
  func.func private @relu(%arg0: tensor<2x12x12x4xf32>) -> tensor<2x12x12x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x12x12x4xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x12x12x4xf32>
    return %1 : tensor<2x12x12x4xf32>
  }
  func.func private @log_softmax(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<2xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x3xf32>
    %6 = stablehlo.exponential %5 : tensor<2x3xf32>
    %7 = stablehlo.reduce(%6 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %9 = stablehlo.log %8 : tensor<2x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<2x3xf32>
    return %11, %6, %8 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<2x3xf32>, %arg1: tensor<2x1xi32>) -> (tensor<2x1xf32>, tensor<2x1x1xi32>) {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<3> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x1xi1>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<2x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<2x1xi1>, tensor<2x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<2x1xi32>) -> tensor<2x1x1xi32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<2x1x1xi32>, tensor<2x1x1xi32>) -> tensor<2x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<2x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<2x1x1xi32>, tensor<2x1x1xi32>) -> tensor<2x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<2x1x1xi1>
    %12 = stablehlo.reduce(%11 init: %c) applies stablehlo.and across dimensions = [2] : (tensor<2x1x1xi1>, tensor<i1>) -> tensor<2x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x3xf32>, tensor<2x1x1xi32>) -> tensor<2x1xf32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<2x1xi1>, tensor<2x1xf32>
    return %15, %5 : tensor<2x1xf32>, tensor<2x1x1xi32>
  }
  func.func private @take_along_axis_0(%arg0: tensor<2x1x1xi32>, %arg1: tensor<2x1xf32>) -> tensor<2x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<2x3xf32>, tensor<2x1x1xi32>, tensor<2x1xf32>) -> tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
  func.func private @log_softmax_1(%arg0: tensor<2x3xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.negate %arg2 : tensor<2x3xf32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.reshape %1 : (tensor<2xf32>) -> tensor<2x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<2x1xf32>
    %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x1xf32>, tensor<f32>) -> tensor<2xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<2x3xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<2x3xf32>
    return %7 : tensor<2x3xf32>
  }
}
