// RUN: xlir-opt %s --split-input-file -p fuse | filecheck %s

// dot_general + bias add (through a broadcast) + relu: one output fusion.
// CHECK-LABEL: func.func @dense
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kind = output (%x, %w, %b) {name = "fusion.1"} : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<16xf32>):
// CHECK-NEXT:      %[[D:.*]] = stablehlo.dot_general %[[X]], %[[W]]
// CHECK-NEXT:      %[[BB:.*]] = stablehlo.broadcast_in_dim %[[B]], dims = [1]
// CHECK-NEXT:      %[[A:.*]] = stablehlo.add %[[D]], %[[BB]]
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      %[[ZB:.*]] = stablehlo.broadcast_in_dim
// CHECK-NEXT:      %[[R:.*]] = stablehlo.maximum %[[A]], %[[ZB]]
// CHECK-NEXT:      hlo.yield %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[F]]
func.func @dense(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %a = stablehlo.add %d, %bb : tensor<4x16xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
  %r = stablehlo.maximum %a, %zb : tensor<4x16xf32>
  func.return %r : tensor<4x16xf32>
}

// -----

// A convolution with an elementwise consumer.
// CHECK-LABEL: func.func @conv
// CHECK-NEXT:    hlo.fusion kind = output (%x, %k)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.convolution
// CHECK-NEXT:      stablehlo.tanh
// CHECK-NEXT:      hlo.yield
func.func @conv(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  %t = stablehlo.tanh %c : tensor<1x6x6x4xf32>
  func.return %t : tensor<1x6x6x4xf32>
}

// -----

// The dot's result is also returned: it stays a kernel of its own, and its
// consumer is a loop fusion.
// CHECK-LABEL: func.func @dot_shared
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %x, %x
// CHECK-NEXT:    %[[E:.*]] = hlo.fusion kind = loop (%[[D]]) {name = "fusion.1"}
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.exponential
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[D]], %[[E]]
func.func @dot_shared(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %d = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = stablehlo.exponential %d : tensor<4x4xf32>
  func.return %d, %e : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A transpose of the dot's result is no elementwise epilogue.
// CHECK-LABEL: func.func @dot_transposed
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %x, %x
// CHECK-NEXT:    hlo.fusion kind = loop (%[[D]]) {name = "fusion.1"}
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.transpose
// CHECK-NEXT:      hlo.yield
func.func @dot_transposed(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %d = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %t : tensor<4x4xf32>
}
