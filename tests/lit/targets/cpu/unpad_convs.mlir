// RUN: xlir-opt %s -p unpad-convs --split-input-file | filecheck %s

// Two lone f32 convolutions that share `conv-padding`'s pad (by 1 and 2
// before, 1 and 2 after) read its input again, each with its own padding
// back (the pad's plus what it kept), and the pad's fusion is gone.
// CHECK-LABEL: func.func @shared(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x8x8x4xf32>
// CHECK-NOT:     hlo.fusion
// CHECK:         stablehlo.convolution(%[[X]], %{{.*}}) {{.*}}pad = {{\[}}[1, 1], [1, 1]]
// CHECK-SAME:      (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
// CHECK-NOT:     hlo.fusion
// CHECK:         stablehlo.convolution(%[[X]], %{{.*}}) {{.*}}pad = {{\[}}[2, 0], [0, 2]]
// CHECK-NOT:     hlo.fusion
// CHECK:         func.return
// A pad of f16 stays: the routine takes f32.
// CHECK-LABEL: func.func @half(
// CHECK:         stablehlo.pad
// CHECK:         stablehlo.convolution(%{{.*}}, %{{.*}}) {{.*}}window = {stride = [1, 1], lhs_dilate
func.func @shared(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<1x8x8x4xf32>) -> tensor<1x11x11x4xf32> {
  ^bb0(%1: tensor<1x8x8x4xf32>):
    %2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.pad %1, %2, low = [0, 2, 1, 0], high = [0, 1, 2, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x11x11x4xf32>
    hlo.yield %3 : tensor<1x11x11x4xf32>
  }
  %a = stablehlo.convolution(%0, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[-1, 0], [0, -1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x11x11x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  %b = stablehlo.convolution(%0, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, -1], [-1, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x11x11x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  func.return %a, %b : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>
}
func.func @half(%x: tensor<1x8x8x4xf16>, %w: tensor<3x3x4x8xf16>) -> tensor<1x8x8x8xf16> {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.2"} : (tensor<1x8x8x4xf16>) -> tensor<1x10x10x4xf16> {
  ^bb0(%1: tensor<1x8x8x4xf16>):
    %2 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %3 = stablehlo.pad %1, %2, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf16>, tensor<f16>) -> tensor<1x10x10x4xf16>
    hlo.yield %3 : tensor<1x10x10x4xf16>
  }
  %a = stablehlo.convolution(%0, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x10x10x4xf16>, tensor<3x3x4x8xf16>) -> tensor<1x8x8x8xf16>
  func.return %a : tensor<1x8x8x8xf16>
}

// -----

// Pads that stay: one that a convolution fused with its epilogue reads
// (its kernel stays inline, where the test would cost it), and one read by
// a lone convolution and by a depthwise one (which the routine leaves).
// CHECK-LABEL: func.func @main(
// CHECK:         %[[P:.*]] = hlo.fusion kind = loop
// CHECK:           stablehlo.pad
// CHECK:         stablehlo.convolution(%[[P]], %{{.*}}) {{.*}}window = {stride = [1, 1], lhs_dilate
// CHECK:         %[[Q:.*]] = hlo.fusion kind = loop
// CHECK:           stablehlo.pad
// CHECK:         hlo.fusion kind = output (%[[Q]],
// CHECK:         stablehlo.convolution(%[[P]], %{{.*}}) {{.*}}window = {stride = [1, 1], lhs_dilate
func.func @main(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>, %d: tensor<3x3x1x4xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1x8x8x4xf32>) {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<1x8x8x4xf32>) -> tensor<1x10x10x4xf32> {
  ^bb0(%1: tensor<1x8x8x4xf32>):
    %2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.pad %1, %2, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x10x10x4xf32>
    hlo.yield %3 : tensor<1x10x10x4xf32>
  }
  %a = stablehlo.convolution(%0, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  %1 = hlo.fusion kind = loop (%x) {name = "fusion.2"} : (tensor<1x8x8x4xf32>) -> tensor<1x10x10x4xf32> {
  ^bb0(%2: tensor<1x8x8x4xf32>):
    %e = stablehlo.exponential %2 : tensor<1x8x8x4xf32>
    %3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.pad %e, %3, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x10x10x4xf32>
    hlo.yield %4 : tensor<1x10x10x4xf32>
  }
  %2 = hlo.fusion kind = output (%1, %w) {name = "fusion.3"} : (tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
  ^bb0(%3: tensor<1x10x10x4xf32>, %4: tensor<3x3x4x8xf32>):
    %b = stablehlo.convolution(%3, %4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
    %r = stablehlo.tanh %b : tensor<1x8x8x8xf32>
    hlo.yield %r : tensor<1x8x8x8xf32>
  }
  %c = stablehlo.convolution(%0, %d) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<1x10x10x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x8x8x4xf32>
  func.return %a, %2, %c : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1x8x8x4xf32>
}

// -----

// A pad by -0.0 stays: the routine reads +0.0 outside the input, and a
// product with -0.0 has the other sign of zero than one with +0.0.
// CHECK-LABEL: func.func @negative_zero(
// CHECK:         %[[P:.*]] = hlo.fusion kind = loop
// CHECK:           stablehlo.pad
// CHECK:         stablehlo.convolution(%[[P]], %{{.*}}) {{.*}}window = {stride = [1, 1], lhs_dilate
func.func @negative_zero(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<1x8x8x4xf32>) -> tensor<1x10x10x4xf32> {
  ^bb0(%1: tensor<1x8x8x4xf32>):
    %2 = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
    %3 = stablehlo.pad %1, %2, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x10x10x4xf32>
    hlo.yield %3 : tensor<1x10x10x4xf32>
  }
  %a = stablehlo.convolution(%0, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  func.return %a : tensor<1x8x8x8xf32>
}
