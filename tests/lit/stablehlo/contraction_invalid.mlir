// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @dg_kinds(%a: tensor<4x8xf32>, %b: tensor<8x2xi32>) -> tensor<4x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xi32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}
// CHECK: contraction_invalid.mlir:4:3: error: 'stablehlo.dot_general' op lhs and rhs must have the same kind of element type, but lhs has f32 and rhs has i32

// -----

func.func @dg_precision(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGH, HIGHEST] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}
// CHECK: contraction_invalid.mlir:12:3: error: 'stablehlo.dot_general' op precision_config must have at most 2 entries (one per operand), but has 3

// -----

func.func @dg_batch_len(%a: tensor<3x4x8xf32>, %b: tensor<3x8x2xf32>) -> tensor<3x4x2xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<3x4x8xf32>, tensor<3x8x2xf32>) -> tensor<3x4x2xf32>
  func.return %0 : tensor<3x4x2xf32>
}
// CHECK: contraction_invalid.mlir:20:3: error: 'stablehlo.dot_general' op lhs_batching_dimensions [0] and rhs_batching_dimensions [] must have the same length

// -----

func.func @dg_contract_len(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0, 1] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: contraction_invalid.mlir:28:3: error: 'stablehlo.dot_general' op lhs_contracting_dimensions [1] and rhs_contracting_dimensions [0, 1] must have the same length

// -----

func.func @dg_range(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}
// CHECK: contraction_invalid.mlir:36:3: error: 'stablehlo.dot_general' op lhs batching and contracting dimensions [2] has dimension 2 out of range [0, 2)

// -----

func.func @dg_repeat(%a: tensor<3x4x8xf32>, %b: tensor<3x8x2xf32>) -> tensor<3x4x2xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [0] x [1] : (tensor<3x4x8xf32>, tensor<3x8x2xf32>) -> tensor<3x4x2xf32>
  func.return %0 : tensor<3x4x2xf32>
}
// CHECK: contraction_invalid.mlir:44:3: error: 'stablehlo.dot_general' op lhs batching and contracting dimensions [0, 0] must not repeat a dimension

// -----

func.func @dg_batch_size(%a: tensor<3x4x8xf32>, %b: tensor<5x8x2xf32>) -> tensor<3x4x2xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x4x8xf32>, tensor<5x8x2xf32>) -> tensor<3x4x2xf32>
  func.return %0 : tensor<3x4x2xf32>
}
// CHECK: contraction_invalid.mlir:52:3: error: 'stablehlo.dot_general' op batching dimension sizes differ: lhs dimension 0 has 3, rhs dimension 0 has 5

// -----

func.func @dg_contract_size(%a: tensor<4x8xf32>, %b: tensor<7x2xf32>) -> tensor<4x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<7x2xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}
// CHECK: contraction_invalid.mlir:60:3: error: 'stablehlo.dot_general' op contracting dimension sizes differ: lhs dimension 1 has 8, rhs dimension 0 has 7

// -----

func.func @dg_result(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
// CHECK: contraction_invalid.mlir:68:3: error: 'stablehlo.dot_general' op result shape [2, 4] does not match the inferred shape [4, 2]

// -----

func.func @dot_rank(%a: tensor<2x4x8xf32>, %b: tensor<8x2xf32>) -> tensor<2x4x2xf32> {
  %0 = stablehlo.dot %a, %b : (tensor<2x4x8xf32>, tensor<8x2xf32>) -> tensor<2x4x2xf32>
  func.return %0 : tensor<2x4x2xf32>
}
// CHECK: contraction_invalid.mlir:76:3: error: 'stablehlo.dot' op lhs must have rank 1 or 2, but has rank 3

// -----

func.func @dot_contract(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.dot %a, %b : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: contraction_invalid.mlir:84:3: error: 'stablehlo.dot' op contracting dimension sizes differ: lhs dimension 1 has 8, rhs dimension 0 has 4

// -----

func.func @dot_result(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<1xf32> {
  %0 = stablehlo.dot %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}
// CHECK: contraction_invalid.mlir:92:3: error: 'stablehlo.dot' op result shape [1] does not match the inferred shape []

// -----

func.func @dot_kinds(%a: tensor<8xi1>, %b: tensor<8xf32>) -> tensor<f32> {
  %0 = stablehlo.dot %a, %b : (tensor<8xi1>, tensor<8xf32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK: contraction_invalid.mlir:100:3: error: 'stablehlo.dot' op lhs and rhs must have the same kind of element type, but lhs has i1 and rhs has f32

// -----

func.func @conv_kinds(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xi8>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xi8>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:108:3: error: 'stablehlo.convolution' op lhs and rhs must have the same kind of element type, but lhs has f32 and rhs has i8

// -----

func.func @conv_rank(%x: tensor<1x8x8x4xf32>, %w: tensor<3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:116:3: error: 'stablehlo.convolution' op lhs has rank 4 but rhs has rank 3; they must agree

// -----

func.func @conv_layout_rank(%x: tensor<1x8x4xf32>, %w: tensor<3x4x6xf32>) -> tensor<1x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x4xf32>, tensor<3x4x6xf32>) -> tensor<1x6x6xf32>
  func.return %0 : tensor<1x6x6xf32>
}
// CHECK: contraction_invalid.mlir:124:3: error: 'stablehlo.convolution' op input_spatial_dimensions has 2 entries but rank 3 operands have 1 spatial dimensions

// -----

func.func @conv_stride_len(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:132:3: error: 'stablehlo.convolution' op window_strides has 1 entries but there are 2 spatial dimensions

// -----

func.func @conv_stride_zero(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:140:3: error: 'stablehlo.convolution' op window_strides [1, 0] must be positive, but entry 1 is 0

// -----

func.func @conv_rhs_dilation(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {rhs_dilate = [-1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:148:3: error: 'stablehlo.convolution' op rhs_dilation [-1, 1] must be positive, but entry 0 is -1

// -----

func.func @conv_reverse_len(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:156:3: error: 'stablehlo.convolution' op window_reversal has 1 entries but there are 2 spatial dimensions

// -----

func.func @conv_pad_len(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:164:3: error: 'stablehlo.convolution' op padding has 1 entries but there are 2 spatial dimensions

// -----

func.func @conv_fgc_zero(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 0 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:172:3: error: 'stablehlo.convolution' op feature_group_count 0 must be positive

// -----

func.func @conv_both_groups(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x2x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:180:3: error: 'stablehlo.convolution' op feature_group_count (2) and batch_group_count (2) cannot both be greater than 1

// -----

func.func @conv_batch_groups(%x: tensor<3x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<3x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:188:3: error: 'stablehlo.convolution' op lhs batch dimension 0 has size 3, which is not divisible by batch_group_count 2

// -----

func.func @conv_feature_groups(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x1x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x1x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:196:3: error: 'stablehlo.convolution' op lhs feature dimension 3 has size 4, which is not divisible by feature_group_count 3

// -----

func.func @conv_kernel_in(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:204:3: error: 'stablehlo.convolution' op rhs input feature dimension 2 has size 2 but must equal the lhs feature size 4 / feature_group_count 1 = 4

// -----

func.func @conv_kernel_out(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x5xf32>) -> tensor<1x6x6x5xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x5xf32>) -> tensor<1x6x6x5xf32>
  func.return %0 : tensor<1x6x6x5xf32>
}
// CHECK: contraction_invalid.mlir:212:3: error: 'stablehlo.convolution' op rhs output feature dimension 3 has size 5, which is not divisible by feature_group_count 2

// -----

func.func @conv_result(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x8x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x8x6x6xf32>
  func.return %0 : tensor<1x8x6x6xf32>
}
// CHECK: contraction_invalid.mlir:220:3: error: 'stablehlo.convolution' op result shape [1, 8, 6, 6] does not match the inferred shape [1, 4, 6, 6]

// -----

func.func @conv_padding_type(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, padding = dense<0> : tensor<2x3xi64>}> : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:228:3: error: 'stablehlo.convolution' op padding must be a tensor<Nx2xi64> of (low, high) pairs, but has type tensor<2x3xi64>

// -----

func.func @conv_layout_repeat(%x: tensor<1x8x4xf32>, %w: tensor<3x4x6xf32>) -> tensor<1x6x6xf32> {
  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0, input_spatial_dimensions = [1], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0], output_batch_dimension = 0, output_feature_dimension = 2, output_spatial_dimensions = [1]>, feature_group_count = 1 : i64}> : (tensor<1x8x4xf32>, tensor<3x4x6xf32>) -> tensor<1x6x6xf32>
  func.return %0 : tensor<1x6x6xf32>
}
// CHECK: contraction_invalid.mlir:236:3: error: 'stablehlo.convolution' op input dimensions [0, 1, 0] must not repeat a dimension

// -----

func.func @window_field(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {strides = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:244:{{[0-9]+}}: error: unknown window field 'strides', expected one of stride, pad, lhs_dilate, rhs_dilate, reverse

// -----

func.func @window_twice(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:252:{{[0-9]+}}: error: window field 'stride' given twice

// -----

func.func @pad_pair(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:260:{{[0-9]+}}: error: expected a [low, high] padding pair, got [1, 1, 1]

// -----

func.func @layout_letter(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, f, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:268:{{[0-9]+}}: error: unexpected 'f' in convolution layout, expected 'i', 'o' and spatial dimension numbers

// -----

func.func @layout_spatial(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}
// CHECK: contraction_invalid.mlir:276:{{[0-9]+}}: error: input, kernel and output layouts of a convolution must have the same number of spatial dimensions, got 2, 1 and 2
