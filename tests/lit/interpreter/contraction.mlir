// RUN: xlir-run --check --split-input-file %s | filecheck %s

// dot_general, dot and convolution (padding, dilations, strides, reversal,
// feature and batch groups). The convolution results were computed with a
// direct loop implementation of the spec's formulas.

// CHECK: PASS @dot_general_matmul_and_batching
func.func @dot_general_matmul_and_batching() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %0, dense<[[19.0, 22.0], [43.0, 50.0]]> : tensor<2x2xf32>
  %1 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %1, dense<[[23.0, 31.0], [34.0, 46.0]]> : tensor<2x2xf32>
  // outer product: no contracting dims
  %v = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %2 = stablehlo.dot_general %v, %v, contracting_dims = [] x [] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %2, dense<[[1.0, 2.0], [2.0, 4.0]]> : tensor<2x2xf32>
  // batch dim in the middle of lhs and last in rhs
  %l = stablehlo.constant dense<[[[1, 2]], [[3, 4]]]> : tensor<2x1x2xi32>
  %r = stablehlo.constant dense<[[1, 10], [2, 20]]> : tensor<2x2xi32>
  %3 = stablehlo.dot_general %l, %r, batching_dims = [2] x [1], contracting_dims = [0] x [0] : (tensor<2x1x2xi32>, tensor<2x2xi32>) -> tensor<2x1xi32>
  check.expect_eq_const %3, dense<[[7], [100]]> : tensor<2x1xi32>
  // empty contraction gives zeros
  %e = stablehlo.constant dense<> : tensor<2x0xf32>
  %f = stablehlo.constant dense<> : tensor<0x3xf32>
  %4 = stablehlo.dot_general %e, %f, contracting_dims = [1] x [0] : (tensor<2x0xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %4, dense<0.0> : tensor<2x3xf32>
  // integer products wrap around
  %big = stablehlo.constant dense<[65536, 65536]> : tensor<2xi32>
  %5 = stablehlo.dot_general %big, %big, contracting_dims = [0] x [0] : (tensor<2xi32>, tensor<2xi32>) -> tensor<i32>
  check.expect_eq_const %5, dense<0> : tensor<i32>
  func.return
}

// -----

// CHECK: PASS @dot
func.func @dot() {
  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %v = stablehlo.constant dense<[1.0, 0.0, -1.0]> : tensor<3xf32>
  %0 = stablehlo.dot %m, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  check.expect_eq_const %0, dense<[-2.0, -2.0]> : tensor<2xf32>
  %1 = "stablehlo.dot"(%v, %v) : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  check.expect_eq_const %1, dense<2.0> : tensor<f32>
  func.return
}

// -----

// CHECK: PASS @convolution_padding_dilation_stride
func.func @convolution_padding_dilation_stride() {
  %x = stablehlo.constant dense<[[[2.0, 1.0, 0.0, -2.0], [-1.0, -3.0, -3.0, -3.0], [-2.0, 2.0, 1.0, 3.0], [0.0, 1.0, 3.0, 2.0], [1.0, 0.0, 0.0, 3.0]], [[-2.0, 2.0, 1.0, -3.0], [-1.0, 3.0, 0.0, -3.0], [2.0, 2.0, 2.0, -2.0], [-3.0, 3.0, -3.0, 0.0], [-3.0, -1.0, 0.0, -1.0]]]> : tensor<2x5x4xf32>
  %w = stablehlo.constant dense<[[[0.0, -2.0], [-2.0, -2.0], [-2.0, 1.0], [0.0, 1.0]], [[-1.0, 1.0], [1.0, -1.0], [0.0, 2.0], [2.0, 2.0]], [[-1.0, 1.0], [2.0, 1.0], [2.0, 1.0], [1.0, -1.0]]]> : tensor<3x4x2xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 2]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x4xf32>, tensor<3x4x2xf32>) -> tensor<2x5x2xf32>
  check.expect_eq_const %0, dense<[[[-5.0, -3.0], [-8.0, -10.0], [10.0, 4.0], [5.0, 9.0], [5.0, 7.0]], [[-2.0, -8.0], [-2.0, -10.0], [-4.0, 0.0], [6.0, -12.0], [0.0, -4.0]]]> : tensor<2x5x2xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {rhs_dilate = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x4xf32>, tensor<3x4x2xf32>) -> tensor<2x1x2xf32>
  check.expect_eq_const %1, dense<[[[8.0, 10.0]], [[3.0, 11.0]]]> : tensor<2x1x2xf32>
  // the same with the output laid out as [f, b, 0]
  %2 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[f, b, 0], window = {rhs_dilate = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x4xf32>, tensor<3x4x2xf32>) -> tensor<2x2x1xf32>
  check.expect_eq_const %2, dense<[[[8.0], [3.0]], [[10.0], [11.0]]]> : tensor<2x2x1xf32>
  func.return
}

// -----

// CHECK: PASS @convolution_groups
func.func @convolution_groups() {
  %x = stablehlo.constant dense<[[[2.0, 1.0, 0.0, -2.0], [-1.0, -3.0, -3.0, -3.0], [-2.0, 2.0, 1.0, 3.0], [0.0, 1.0, 3.0, 2.0], [1.0, 0.0, 0.0, 3.0]], [[-2.0, 2.0, 1.0, -3.0], [-1.0, 3.0, 0.0, -3.0], [2.0, 2.0, 2.0, -2.0], [-3.0, 3.0, -3.0, 0.0], [-3.0, -1.0, 0.0, -1.0]]]> : tensor<2x5x4xf32>
  %w2 = stablehlo.constant dense<[[[2.0, -2.0, 0.0, 1.0], [2.0, 0.0, -1.0, -1.0]], [[0.0, 0.0, 1.0, 2.0], [-2.0, 2.0, 0.0, -1.0]], [[1.0, 0.0, -1.0, -1.0], [1.0, 0.0, 0.0, -1.0]]]> : tensor<3x2x4xf32>
  %0 = stablehlo.convolution(%x, %w2) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x5x4xf32>, tensor<3x2x4xf32>) -> tensor<2x5x4xf32>
  check.expect_eq_const %0, dense<[[[-6.0, 2.0, 3.0, 8.0], [12.0, -10.0, -2.0, -5.0], [-11.0, 6.0, 1.0, -6.0], [-1.0, 6.0, 0.0, -1.0], [2.0, 0.0, -2.0, -2.0]], [[-2.0, 4.0, 1.0, 8.0], [-2.0, 10.0, 1.0, 7.0], [0.0, 6.0, 8.0, 12.0], [-2.0, 2.0, -1.0, -1.0], [2.0, 4.0, 0.0, -2.0]]]> : tensor<2x5x4xf32>
  %w3 = stablehlo.constant dense<[[[1.0, -1.0, -1.0, 2.0], [-1.0, -1.0, 1.0, 1.0], [-2.0, -2.0, -1.0, 2.0], [0.0, 1.0, -1.0, -1.0]], [[1.0, 2.0, -2.0, -2.0], [1.0, -1.0, 0.0, -2.0], [2.0, 0.0, 2.0, 1.0], [1.0, -1.0, 1.0, -2.0]]]> : tensor<2x4x4xf32>
  %1 = stablehlo.convolution(%x, %w3) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x5x4xf32>, tensor<2x4x4xf32>) -> tensor<1x4x4xf32>
  check.expect_eq_const %1, dense<[[[-12.0, -1.0, 5.0, 5.0], [13.0, -2.0, 5.0, 2.0], [3.0, -2.0, 0.0, 9.0], [-3.0, -6.0, 14.0, 1.0]]]> : tensor<1x4x4xf32>
  func.return
}

// -----

// CHECK: PASS @convolution_2d_nhwc
func.func @convolution_2d_nhwc() {
  %x = stablehlo.iota dim = 1 : tensor<1x3x3x1xf32>
  %w = stablehlo.constant dense<1.0> : tensor<2x2x1x1xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  check.expect_eq_const %0, dense<[[[[2.0], [2.0], [1.0]], [[6.0], [6.0], [3.0]], [[4.0], [4.0], [2.0]]]]> : tensor<1x3x3x1xf32>
  func.return
}

// CHECK: {{^}}5 passed, 0 failed
