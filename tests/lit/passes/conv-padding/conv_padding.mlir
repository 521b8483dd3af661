// RUN: xlir-opt %s -p conv-padding --split-input-file | filecheck %s
// RUN: xlir-opt %s -p conv-padding,fuse --split-input-file | filecheck %s --check-prefix=FUSE

// The padding of the spatial dims, wherever the layout puts them, becomes a
// pad of the input by zeros; the convolution keeps everything else.
// CHECK-LABEL: func.func @nchw
// CHECK:         %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %[[PAD:.*]] = stablehlo.pad %x, %[[ZERO]], low = [0, 0, 1, 0], high = [0, 0, 2, 1], interior = [0, 0, 0, 0] : (tensor<1x3x8x8xf32>, tensor<f32>) -> tensor<1x3x11x9xf32>
// CHECK:         stablehlo.convolution(%[[PAD]], %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 1], rhs_dilate = [1, 2]}
// CHECK-NOT:     pad =
// CHECK-SAME:    : (tensor<1x3x11x9xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32>
// The pad is a loop fusion of its own: `fuse` materializes a convolution's
// operands.
// FUSE-LABEL:  func.func @nchw
// FUSE:          %[[PADDED:.*]] = hlo.fusion kind = loop (%x)
// FUSE:            stablehlo.pad
// FUSE:          stablehlo.convolution(%[[PADDED]], %w)
func.func @nchw(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 1], pad = [[1, 2], [0, 1]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32>
  func.return %0 : tensor<1x4x5x5xf32>
}

// -----

// Negative padding stays on the convolution (its window starts later,
// which needs no test); only the positive side is padded.
// CHECK-LABEL: func.func @cropped
// CHECK:         %[[PAD:.*]] = stablehlo.pad %x, %{{.*}}, low = [0, 0, 0], high = [0, 2, 0], interior = [0, 0, 0] : (tensor<2x6x3xi32>, tensor<i32>) -> tensor<2x8x3xi32>
// CHECK:         stablehlo.convolution(%[[PAD]], %w) {{.*}} window = {pad = {{\[}}[-1, 0]]}
func.func @cropped(%x: tensor<2x6x3xi32>, %w: tensor<3x3x4xi32>) -> tensor<2x5x4xi32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[-1, 2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x3xi32>, tensor<3x3x4xi32>) -> tensor<2x5x4xi32>
  func.return %0 : tensor<2x5x4xi32>
}

// -----

// Convolutions of one input with the same spatial dims share one pad, by
// the largest padding of each side; each keeps the rest of its padding
// (zero or negative): the phases `subpixel-conv` makes of a transposed
// convolution. One whose spatial dim is their feature dim pads on its own.
// CHECK-LABEL: func.func @shared
// CHECK:         %[[PAD:.*]] = stablehlo.pad %x, %{{.*}}, low = [0, 1, 0], high = [0, 1, 0], interior = [0, 0, 0] : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x7x5xf32>
// CHECK:         stablehlo.convolution(%[[PAD]], %w) {{.*}} window = {pad = {{\[}}[0, -1]]}
// CHECK-NOT:     stablehlo.pad
// CHECK:         stablehlo.convolution(%[[PAD]], %w) {{.*}} window = {pad = {{\[}}[-1, 0]]}
// CHECK:         %[[OWN:.*]] = stablehlo.pad %x, %{{.*}}, low = [0, 0, 2], high = [0, 0, 1], interior = [0, 0, 0] : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5x8xf32>
// CHECK:         stablehlo.convolution(%[[OWN]], %v) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0]
// CHECK-NOT:     pad =
// CHECK-SAME:    -> tensor<2x2x6xf32>
func.func @shared(%x: tensor<2x5x5xf32>, %w: tensor<2x5x3xf32>, %v: tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x2x6xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x5xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x5xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %2 = stablehlo.convolution(%x, %v) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {pad = [[2, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x5xf32>, tensor<2x5x3xf32>) -> tensor<2x2x6xf32>
  func.return %0, %1, %2 : tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x2x6xf32>
}

// -----

// Left alone: no padding, and lhs (base) dilation.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     stablehlo.pad
// CHECK:         stablehlo.convolution(%x, %w) {{.*}} window = {pad = [[0, 0]]}
// CHECK:         stablehlo.convolution(%x, %w) {{.*}} window = {pad = [[2, 2]], lhs_dilate = [2]}
func.func @left_alone(%x: tensor<2x5x2xf32>, %w: tensor<3x2x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x11x3xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x2xf32>, tensor<3x2x3xf32>) -> tensor<2x3x3xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, 2]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x2xf32>, tensor<3x2x3xf32>) -> tensor<2x11x3xf32>
  func.return %0, %1 : tensor<2x3x3xf32>, tensor<2x11x3xf32>
}
