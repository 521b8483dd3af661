// RUN: xlir-opt %s -p subpixel-conv --split-input-file | filecheck %s

// jax.lax.conv_transpose along one dim (4 taps, stride 2, padding 2): even
// outputs read taps 0 and 2 from input m - 1, odd ones taps 1 and 3 from
// input m; the two phases' results are stacked after the spatial dim and
// reshaped into place. Every phase drops the two taps the other keeps, whose
// 0 * w it would add (NaN for a non-finite weight): instead each weight
// adds -0.0 * |w| of the other phase's tap at its place (the weights split
// into (tap, phase), reversed along the phases), which is -0.0 or NaN, so
// no reduction and no add in the result.
// CHECK-LABEL: func.func @transposed_1d
// CHECK:         %[[SPLIT:.*]] = stablehlo.reshape %w : (tensor<4x2x3xf32>) -> tensor<2x2x2x3xf32>
// CHECK:         %[[ABS:.*]] = stablehlo.abs %[[SPLIT]]
// CHECK:         %[[NEG_ZERO:.*]] = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
// CHECK:         %[[NEG_ZEROS:.*]] = stablehlo.broadcast_in_dim %[[NEG_ZERO]]
// CHECK:         %[[LOST:.*]] = stablehlo.multiply %[[ABS]], %[[NEG_ZEROS]]
// CHECK:         %[[OTHER:.*]] = stablehlo.reverse %[[LOST]], dims = [1] : tensor<2x2x2x3xf32>
// CHECK:         %[[MARKED:.*]] = stablehlo.add %[[SPLIT]], %[[OTHER]]
// CHECK:         %[[W:.*]] = stablehlo.reshape %[[MARKED]] : (tensor<2x2x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK:         %[[EVEN_W:.*]] = stablehlo.slice %[[W]] [0:3:2, 0:2, 0:3]
// CHECK:         %[[EVEN:.*]] = stablehlo.convolution(%x, %[[EVEN_W]]) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = {{\[}}[1, 0]], rhs_dilate = [1]}
// CHECK-NOT:     lhs_dilate
// CHECK-SAME:    -> tensor<2x5x3xf32>
// CHECK:         %[[EVEN_S:.*]] = stablehlo.reshape %[[EVEN]] : (tensor<2x5x3xf32>) -> tensor<2x5x1x3xf32>
// CHECK:         %[[ODD_W:.*]] = stablehlo.slice %[[W]] [1:4:2, 0:2, 0:3]
// CHECK:         %[[ODD:.*]] = stablehlo.convolution(%x, %[[ODD_W]]) {{.*}} window = {stride = [1], pad = {{\[}}[0, 1]], rhs_dilate = [1]}
// CHECK:         %[[ODD_S:.*]] = stablehlo.reshape %[[ODD]]
// CHECK:         %[[BOTH:.*]] = stablehlo.concatenate %[[EVEN_S]], %[[ODD_S]], dim = 2 : {{.*}} -> tensor<2x5x2x3xf32>
// CHECK-NOT:     stablehlo.reduce
// CHECK-NOT:     stablehlo.add
// CHECK:         %[[OUT:.*]] = stablehlo.reshape %[[BOTH]] : (tensor<2x5x2x3xf32>) -> tensor<2x10x3xf32>
// CHECK-NOT:     stablehlo.slice
// CHECK:         func.return %[[OUT]]
func.func @transposed_1d(%x: tensor<2x5x2xf32>, %w: tensor<4x2x3xf32>) -> tensor<2x10x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[2, 2]], lhs_dilate = [2], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x2xf32>, tensor<4x2x3xf32>) -> tensor<2x10x3xf32>
  func.return %0 : tensor<2x10x3xf32>
}

// -----

// NCHW with dilation 3 along one dim and 1 along the other, and an output
// (8) that is not a multiple of the 3 phases: each phase computes 3 outputs,
// the result is sliced. Window reversal stays on the phases' convolutions,
// which read their slices backwards. Integers: no correction.
// CHECK-LABEL: func.func @nchw_reversed
// CHECK:         stablehlo.slice %w [0:4, 0:2, 1:2, 0:2]
// CHECK:         stablehlo.convolution(%x, %{{.*}}) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = {{\[}}[0, 0], [1, 0]], rhs_dilate = [1, 1], reverse = [true, false]}
// CHECK-SAME:    -> tensor<1x4x3x2xi32>
// CHECK:         stablehlo.slice %w [0:4, 0:2, 2:3, 0:2]
// CHECK:         stablehlo.convolution
// CHECK:         stablehlo.slice %w [0:4, 0:2, 0:1, 0:2]
// CHECK:         stablehlo.convolution({{.*}} pad = {{\[}}[-1, 1], [1, 0]]
// CHECK:         %[[ALL:.*]] = stablehlo.concatenate {{.*}}, dim = 3 : {{.*}} -> tensor<1x4x3x3x2x1xi32>
// CHECK-NOT:     stablehlo.reduce
// CHECK:         %[[FLAT:.*]] = stablehlo.reshape %[[ALL]] : (tensor<1x4x3x3x2x1xi32>) -> tensor<1x4x9x2xi32>
// CHECK:         stablehlo.slice %[[FLAT]] [0:1, 0:4, 0:8, 0:2]
func.func @nchw_reversed(%x: tensor<1x2x3x2xi32>, %w: tensor<4x2x3x2xi32>) -> tensor<1x4x8x2xi32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 2], [1, 0]], lhs_dilate = [3, 1], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x3x2xi32>, tensor<4x2x3x2xi32>) -> tensor<1x4x8x2xi32>
  func.return %0 : tensor<1x4x8x2xi32>
}

// -----

// With 8 outputs per phase, starting one input apart, both phases start at
// input -1 and compute 9 outputs, the odd phase skipping the first; with
// the same taps and padding they are one convolution whose output features
// are the phases' (kernels stacked), each phase a slice of its result.
// Phase i keeps taps i and i + 2: the stacked kernel is the weights with
// the taps split into (tap, phase) and the phases moved before the output
// features, one copy (of the weights with the dropped taps' NaN marked,
// split the same way). With feature groups they stay two convolutions, each
// of a slice of the marked weights, and need no correction either.
// CHECK-LABEL: func.func @one_convolution
// CHECK:         %[[SPLIT:.*]] = stablehlo.reshape %w : (tensor<4x2x3xf32>) -> tensor<2x2x2x3xf32>
// CHECK:         %[[MARKED:.*]] = stablehlo.add %[[SPLIT]], %{{.*}} : tensor<2x2x2x3xf32>
// CHECK:         %[[MOVED:.*]] = stablehlo.transpose %[[MARKED]], dims = [0, 2, 1, 3]
// CHECK:         %[[BOTH_W:.*]] = stablehlo.reshape %[[MOVED]] : {{.*}} -> tensor<2x2x6xf32>
// CHECK:         %[[BOTH:.*]] = stablehlo.convolution(%x, %[[BOTH_W]]) {{.*}} window = {stride = [1], pad = {{\[}}[1, 1]], rhs_dilate = [1]} {{.*}} -> tensor<2x9x6xf32>
// CHECK:         stablehlo.slice %[[BOTH]] [0:2, 0:8, 0:3]
// CHECK:         stablehlo.slice %[[BOTH]] [0:2, 1:9, 3:6]
// CHECK-NOT:     stablehlo.reduce
// CHECK:         %[[G_EVEN:.*]] = stablehlo.convolution(%x, %{{.*}}) {{.*}} pad = {{\[}}[1, 1]]{{.*}}feature_group_count = 2 : i64} {{.*}} -> tensor<2x9x4xf32>
// CHECK:         stablehlo.slice %[[G_EVEN]] [0:2, 0:8, 0:4]
// CHECK:         %[[G_ODD:.*]] = stablehlo.convolution(%x, %{{.*}}) {{.*}} pad = {{\[}}[1, 1]]{{.*}}feature_group_count = 2 : i64} {{.*}} -> tensor<2x9x4xf32>
// CHECK:         stablehlo.slice %[[G_ODD]] [0:2, 1:9, 0:4]
// CHECK-NOT:     stablehlo.reduce
func.func @one_convolution(%x: tensor<2x8x2xf32>, %w: tensor<4x2x3xf32>, %g: tensor<4x1x4xf32>) -> (tensor<2x16x3xf32>, tensor<2x16x4xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, 2]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x2xf32>, tensor<4x2x3xf32>) -> tensor<2x16x3xf32>
  %1 = stablehlo.convolution(%x, %g) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, 2]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x8x2xf32>, tensor<4x1x4xf32>) -> tensor<2x16x4xf32>
  func.return %0, %1 : tensor<2x16x3xf32>, tensor<2x16x4xf32>
}

// -----

// Odd padding along dim 0: phase i keeps taps 1 - i and 3 - i, so the
// phases are reversed after the split; along dim 1, 3 phases of 6 taps
// with padding 2 keep 2 - i and 5 - i. Output features first: the phases
// go before them. Padding 1 along a dim of 3 phases: phase i keeps taps
// 1 - i mod 3 (1, 0, 2), no progression: the slices are concatenated.
// CHECK-LABEL: func.func @reversed_phases
// CHECK:         %[[SPLIT:.*]] = stablehlo.reshape %w : (tensor<3x2x4x6xf32>) -> tensor<3x2x2x2x2x3xf32>
// CHECK:         %[[BACK:.*]] = stablehlo.reverse %[[SPLIT]], dims = [3, 5]
// CHECK:         %[[MOVED:.*]] = stablehlo.transpose %[[BACK]], dims = [3, 5, 0, 1, 2, 4] : {{.*}} -> tensor<2x3x3x2x2x2xf32>
// CHECK:         %[[STACKED:.*]] = stablehlo.reshape %[[MOVED]] : {{.*}} -> tensor<18x2x2x2xf32>
// CHECK:         stablehlo.convolution(%x, %[[STACKED]])
// CHECK-LABEL: func.func @rotated_phases
// CHECK-NOT:     stablehlo.transpose
// CHECK:         %[[P0:.*]] = stablehlo.slice %w [1:5:3, 0:2, 0:3]
// CHECK:         %[[P1:.*]] = stablehlo.slice %w [0:4:3, 0:2, 0:3]
// CHECK:         %[[P2:.*]] = stablehlo.slice %w [2:6:3, 0:2, 0:3]
// CHECK:         %[[ALL:.*]] = stablehlo.concatenate %[[P0]], %[[P1]], %[[P2]], dim = 2
// CHECK:         stablehlo.convolution(%x, %[[ALL]])
func.func @reversed_phases(%x: tensor<1x2x8x24xf32>, %w: tensor<3x2x4x6xf32>) -> tensor<1x3x18x69xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[3, 3], [2, 2]], lhs_dilate = [2, 3]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x8x24xf32>, tensor<3x2x4x6xf32>) -> tensor<1x3x18x69xf32>
  func.return %0 : tensor<1x3x18x69xf32>
}
func.func @rotated_phases(%x: tensor<1x24x2xf32>, %w: tensor<6x2x3xf32>) -> tensor<1x67x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]], lhs_dilate = [3]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x24x2xf32>, tensor<6x2x3xf32>) -> tensor<1x67x3xf32>
  func.return %0 : tensor<1x67x3xf32>
}

// -----

// Two dims of two phases (odd padding along the first: its phases split
// reversed): a phase drops the taps the three others keep, so each weight
// adds -0.0 * |w| of the three others at its place, the split weights
// reversed along each nonempty set of the two phase dims; the marked
// weights are then stacked (reversed along the first phase dim) as before.
// CHECK-LABEL: func.func @other_phases_2d
// CHECK:         %[[SPLIT:.*]] = stablehlo.reshape %w : (tensor<4x4x2x3xf32>) -> tensor<2x2x2x2x2x3xf32>
// CHECK:         %[[ABS:.*]] = stablehlo.abs %[[SPLIT]]
// CHECK:         %[[LOST:.*]] = stablehlo.multiply %[[ABS]], %{{.*}} : tensor<2x2x2x2x2x3xf32>
// CHECK:         %[[R0:.*]] = stablehlo.reverse %[[LOST]], dims = [1]
// CHECK:         %[[R1:.*]] = stablehlo.reverse %[[LOST]], dims = [3]
// CHECK:         %[[A:.*]] = stablehlo.add %[[R0]], %[[R1]]
// CHECK:         %[[R01:.*]] = stablehlo.reverse %[[LOST]], dims = [1, 3]
// CHECK:         %[[OTHERS:.*]] = stablehlo.add %[[A]], %[[R01]]
// CHECK:         %[[MARKED:.*]] = stablehlo.add %[[SPLIT]], %[[OTHERS]]
// CHECK:         %[[BACK:.*]] = stablehlo.reverse %[[MARKED]], dims = [1]
// CHECK:         %[[MOVED:.*]] = stablehlo.transpose %[[BACK]], dims = [0, 2, 4, 1, 3, 5]
// CHECK:         %[[STACKED:.*]] = stablehlo.reshape %[[MOVED]] : {{.*}} -> tensor<2x2x2x12xf32>
// CHECK:         stablehlo.convolution(%x, %[[STACKED]])
// CHECK-NOT:     stablehlo.reduce
// CHECK-NOT:     stablehlo.broadcast_in_dim
func.func @other_phases_2d(%x: tensor<1x8x8x2xf32>, %w: tensor<4x4x2x3xf32>) -> tensor<1x18x16x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[3, 3], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x2xf32>, tensor<4x4x2x3xf32>) -> tensor<1x18x16x3xf32>
  func.return %0 : tensor<1x18x16x3xf32>
}

// -----

// 3 taps: the phases keep 2 and 1, not the same number: the masked
// reduction over a copy of 0 * w per phase.
// CHECK-LABEL: func.func @masked_correction
// CHECK-NOT:     stablehlo.reverse
// CHECK:         %[[ZEROS:.*]] = stablehlo.multiply %w, %{{.*}} : tensor<3x2x3xf32>
// CHECK:         %[[WIDE:.*]] = stablehlo.broadcast_in_dim %[[ZEROS]], dims = [1, 2, 3] : (tensor<3x2x3xf32>) -> tensor<2x3x2x3xf32>
// CHECK:         %[[MASK:.*]] = stablehlo.constant dense<{{\[}}[false, true, false], [true, false, true]]> : tensor<2x3xi1>
// CHECK:         %[[WIDE_MASK:.*]] = stablehlo.broadcast_in_dim %[[MASK]], dims = [0, 1]
// CHECK:         %[[PICKED:.*]] = stablehlo.select %[[WIDE_MASK]], %[[WIDE]], %{{.*}}
// CHECK:         stablehlo.reduce(%[[PICKED]] init: %{{.*}}) applies stablehlo.add across dimensions = [1, 2] : (tensor<2x3x2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NOT:     stablehlo.reverse
func.func @masked_correction(%x: tensor<2x5x2xf32>, %w: tensor<3x2x3xf32>) -> tensor<2x10x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, 1]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x2xf32>, tensor<3x2x3xf32>) -> tensor<2x10x3xf32>
  func.return %0 : tensor<2x10x3xf32>
}

// -----

// Left alone: no lhs dilation, a dilation of ones, complex elements, a
// dynamic batch.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     stablehlo.slice
// CHECK:         stablehlo.convolution(%x, %w) {{.*}} window = {pad = {{\[}}[1, 1]]}
// CHECK:         stablehlo.convolution(%x, %w) {{.*}} window = {pad = {{\[}}[1, 1]], lhs_dilate = [1]}
// CHECK:         stablehlo.convolution(%c, %d) {{.*}} lhs_dilate = [2]
// CHECK:         stablehlo.convolution(%y, %w) {{.*}} lhs_dilate = [2]
// CHECK-NOT:     stablehlo.concatenate
func.func @left_alone(%x: tensor<2x5x2xf32>, %w: tensor<3x2x3xf32>, %c: tensor<1x3x1xcomplex<f32>>, %d: tensor<2x1x1xcomplex<f32>>, %y: tensor<?x5x2xf32>) -> (tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<1x6x1xcomplex<f32>>, tensor<?x9x3xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x2xf32>, tensor<3x2x3xf32>) -> tensor<2x5x3xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]], lhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x2xf32>, tensor<3x2x3xf32>) -> tensor<2x5x3xf32>
  %2 = stablehlo.convolution(%c, %d) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1xcomplex<f32>>, tensor<2x1x1xcomplex<f32>>) -> tensor<1x6x1xcomplex<f32>>
  %3 = stablehlo.convolution(%y, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x5x2xf32>, tensor<3x2x3xf32>) -> tensor<?x9x3xf32>
  func.return %0, %1, %2, %3 : tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<1x6x1xcomplex<f32>>, tensor<?x9x3xf32>
}
