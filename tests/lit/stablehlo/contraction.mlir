// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @dot_general
// GENERIC-LABEL: sym_name = "dot_general"
func.func @dot_general(%a: tensor<512x256xf32>, %b: tensor<256x128xf32>, %q: tensor<4x128x8x64xf32>, %k: tensor<4x128x8x64xf32>) -> tensor<512x128xf32> {
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512x256xf32>, tensor<256x128xf32>) -> tensor<512x128xf32>
  // GENERIC: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<512x256xf32>, tensor<256x128xf32>) -> tensor<512x128xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512x256xf32>, tensor<256x128xf32>) -> tensor<512x128xf32>
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<512x256xf32>, tensor<256x128xf32>) -> tensor<512x128xf32>
  %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<512x256xf32>, tensor<256x128xf32>) -> tensor<512x128xf32>
  // Einsum: non-leading batch dims; result is batch, lhs free, rhs free.
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [HIGHEST, HIGH] : (tensor<4x128x8x64xf32>, tensor<4x128x8x64xf32>) -> tensor<4x8x128x128xf32>
  // GENERIC: #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>
  %2 = stablehlo.dot_general %q, %k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [HIGHEST, HIGH] : (tensor<4x128x8x64xf32>, tensor<4x128x8x64xf32>) -> tensor<4x8x128x128xf32>
  // Outer product: no contracting dims.
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [] x [] : (tensor<512x256xf32>, tensor<256x128xf32>) -> tensor<512x256x256x128xf32>
  %3 = stablehlo.dot_general %a, %b, contracting_dims = [] x [] : (tensor<512x256xf32>, tensor<256x128xf32>) -> tensor<512x256x256x128xf32>
  // The generic form parses too, and prints back in the pretty form.
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [0] x [0] {some.tag = 1 : i32} : (tensor<512x256xf32>, tensor<512x256xf32>) -> tensor<256x256xf32>
  %4 = "stablehlo.dot_general"(%a, %a) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> {some.tag = 1 : i32} : (tensor<512x256xf32>, tensor<512x256xf32>) -> tensor<256x256xf32>
  func.return %0 : tensor<512x128xf32>
}

// CHECK-LABEL: func.func @dynamic_dot_general
func.func @dynamic_dot_general(%a: tensor<?x16xf32>, %b: tensor<16x8xf32>) -> tensor<?x8xf32> {
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<?x16xf32>, tensor<16x8xf32>) -> tensor<?x8xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x16xf32>, tensor<16x8xf32>) -> tensor<?x8xf32>
  func.return %0 : tensor<?x8xf32>
}

// CHECK-LABEL: func.func @dot
// GENERIC-LABEL: sym_name = "dot"
func.func @dot(%m: tensor<4x8xf32>, %n: tensor<8x2xf32>, %v: tensor<8xf32>, %w: tensor<4xf32>) -> tensor<4x2xf32> {
  // CHECK: stablehlo.dot %{{.*}}, %{{.*}}, precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  // GENERIC: "stablehlo.dot"(%{{.*}}, %{{.*}}) <{precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %0 = stablehlo.dot %m, %n, precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  // CHECK: stablehlo.dot %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  %1 = stablehlo.dot %m, %v : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  // CHECK: stablehlo.dot %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4x8xf32>) -> tensor<8xf32>
  %2 = stablehlo.dot %w, %m : (tensor<4xf32>, tensor<4x8xf32>) -> tensor<8xf32>
  // CHECK: stablehlo.dot %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  %3 = "stablehlo.dot"(%v, %v) : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  func.return %0 : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @convolution
// GENERIC-LABEL: sym_name = "convolution"
func.func @convolution(%x: tensor<1x32x32x16xf32>, %w: tensor<3x3x16x32xf32>, %dy: tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32> {
  // The lowered flavour: every window field and the precision config.
  // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[}}[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32>
  // GENERIC: "stablehlo.convolution"(%{{.*}}, %{{.*}}) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32>
  // The export flavour: only the padding.
  // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = {{\[}}[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32>
  // No window at all: a valid (unpadded) convolution; fields in any order.
  // Printed with an empty window, which StableHLO's own parser requires.
  // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x30x30x32xf32>
  %2 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x30x30x32xf32>
  // Strides, dilations, asymmetric padding, window fields out of order.
  // CHECK: window = {stride = [2, 3], pad = {{\[}}[0, 1], [2, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 2], reverse = [true, false]}
  // CHECK-SAME: -> tensor<1x31x10x32xf32>
  %3 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [true, false], rhs_dilate = [1, 2], lhs_dilate = [2, 1], pad = [[0, 1], [2, 0]], stride = [2, 3]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x31x10x32xf32>
  // A weight gradient, as JAX emits it: permuted layouts.
  // CHECK: dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {pad = {{\[}}[1, 1], [1, 1]]}
  // CHECK-SAME: -> tensor<3x3x16x32xf32>
  %4 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x32x32x16xf32>, tensor<1x32x32x32xf32>) -> tensor<3x3x16x32xf32>
  // Depthwise: 16 feature groups of one channel each.
  // CHECK: {batch_group_count = 1 : i64, feature_group_count = 16 : i64} : (tensor<1x32x32x16xf32>, tensor<3x3x1x16xf32>) -> tensor<1x30x30x16xf32>
  %k = stablehlo.constant dense<1.0> : tensor<3x3x1x16xf32>
  %5 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 16 : i64} : (tensor<1x32x32x16xf32>, tensor<3x3x1x16xf32>) -> tensor<1x30x30x16xf32>
  // The generic form, with the raw dimension numbers upstream MLIR also accepts.
  // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[}}[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, some.tag} : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32>
  %6 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 1, 1>}> {some.tag} : (tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32>
  func.return %0 : tensor<1x32x32x32xf32>
}

// CHECK-LABEL: func.func @batch_groups
func.func @batch_groups(%x: tensor<8x10x4xf32>, %w: tensor<3x4x6xf32>) -> tensor<4x8x6xf32> {
  // 1-d, batch_group_count = 2: result batch is 8 / 2, kernel output features divide by 2.
  // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<8x10x4xf32>, tensor<3x4x6xf32>) -> tensor<4x8x6xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<8x10x4xf32>, tensor<3x4x6xf32>) -> tensor<4x8x6xf32>
  func.return %0 : tensor<4x8x6xf32>
}

// CHECK-LABEL: func.func @dot_general_algorithm
func.func @dot_general_algorithm(%lhs: tensor<2x2x2xf32>, %rhs: tensor<2x2x2xf32>) -> tensor<2x2x2xf32> {
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  // GENERIC: algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>
  %0 = stablehlo.dot_general %lhs, %rhs,
    batching_dims = [0] x [0],
    contracting_dims = [2] x [1],
    precision = [DEFAULT, DEFAULT],
    algorithm = <
      lhs_precision_type = tf32,
      rhs_precision_type = tf32,
      accumulation_type = f32,
      lhs_component_count = 1,
      rhs_component_count = 1,
      num_primitive_operations = 1,
      allow_imprecise_accumulation = false
    > : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  func.return %0 : tensor<2x2x2xf32>
}
