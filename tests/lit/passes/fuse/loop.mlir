// RUN: xlir-opt %s --split-input-file -p fuse | filecheck %s

// An elementwise chain becomes one loop fusion; the scalar constant and its
// broadcast are computed inside; operands are deduplicated; only the last
// value is yielded.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kind = loop (%x, %y) {name = "fusion.1"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<8xf32>):
// CHECK-NEXT:      %[[C:.*]] = stablehlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:      %[[B:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = []
// CHECK-NEXT:      %[[M:.*]] = stablehlo.multiply %[[X]], %[[B]]
// CHECK-NEXT:      %[[A:.*]] = stablehlo.add %[[M]], %[[Y]]
// CHECK-NEXT:      %[[M2:.*]] = stablehlo.multiply %[[A]], %[[X]]
// CHECK-NEXT:      %[[T:.*]] = stablehlo.tanh %[[M2]]
// CHECK-NEXT:      hlo.yield %[[T]] : tensor<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[F]] : tensor<8xf32>
func.func @chain(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %0 = stablehlo.multiply %x, %b : tensor<8xf32>
  %1 = stablehlo.add %0, %y : tensor<8xf32>
  %2 = stablehlo.multiply %1, %x : tensor<8xf32>
  %3 = stablehlo.tanh %2 : tensor<8xf32>
  func.return %3 : tensor<8xf32>
}

// -----

// Data movement fuses like elementwise ops.
// CHECK-LABEL: func.func @data_movement
// CHECK-NEXT:    hlo.fusion kind = loop (%x, %i) {name = "fusion.1"} : (tensor<4x6xf32>, tensor<i32>) -> tensor<8x3xf32> {
// CHECK:           stablehlo.transpose
// CHECK-NEXT:      stablehlo.reverse
// CHECK-NEXT:      stablehlo.slice
// CHECK-NEXT:      stablehlo.dynamic_slice
// CHECK-NEXT:      stablehlo.concatenate
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      stablehlo.pad
// CHECK-NEXT:      stablehlo.slice
// CHECK-NEXT:      stablehlo.iota
// CHECK-NEXT:      stablehlo.convert
// CHECK-NEXT:      stablehlo.compare
// CHECK-NEXT:      stablehlo.select
// CHECK-NEXT:      stablehlo.reshape
// CHECK-NEXT:      %[[U:.*]] = stablehlo.reshape
// CHECK-NEXT:      hlo.yield %[[U]] : tensor<8x3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @data_movement(%x: tensor<4x6xf32>, %i: tensor<i32>) -> tensor<8x3xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %r = stablehlo.reverse %t, dims = [0] : tensor<6x4xf32>
  %s = stablehlo.slice %r [0:6:2, 0:4] : (tensor<6x4xf32>) -> tensor<3x4xf32>
  %d = stablehlo.dynamic_slice %r, %i, %i, sizes = [3, 4] : (tensor<6x4xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
  %c = stablehlo.concatenate %s, %d, dim = 0 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.pad %c, %z, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<6x4xf32>, tensor<f32>) -> tensor<8x4xf32>
  %q = stablehlo.slice %p [0:8, 1:4] : (tensor<8x4xf32>) -> tensor<8x3xf32>
  %n = stablehlo.iota dim = 0 : tensor<8x3xi32>
  %f = stablehlo.convert %n : (tensor<8x3xi32>) -> tensor<8x3xf32>
  %k = stablehlo.compare GT, %q, %f, FLOAT : (tensor<8x3xf32>, tensor<8x3xf32>) -> tensor<8x3xi1>
  %v = stablehlo.select %k, %q, %f : tensor<8x3xi1>, tensor<8x3xf32>
  %w = stablehlo.reshape %v : (tensor<8x3xf32>) -> tensor<24xf32>
  %u = stablehlo.reshape %w : (tensor<24xf32>) -> tensor<8x3xf32>
  func.return %u : tensor<8x3xf32>
}

// -----

// A single elementwise op is wrapped in a loop fusion too; a dot alone is not.
// CHECK-LABEL: func.func @single
// CHECK-NEXT:    %[[N:.*]] = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<4x4xf32>) -> tensor<4x4xf32> {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<4x4xf32>):
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %x, %x
// CHECK-NEXT:    func.return %[[N]], %[[D]]
func.func @single(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = stablehlo.negate %x : tensor<4x4xf32>
  %1 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A non-splat constant is passed in as an operand; a splat one is copied in.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %[[BIG:.*]] = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-NEXT:    hlo.fusion kind = loop (%x, %[[BIG]]) {name = "fusion.1"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[S:.*]] = stablehlo.constant dense<3.000000e+00> : tensor<4xf32>
// CHECK-NEXT:      %[[A:.*]] = stablehlo.add %[[X]], %[[B]]
// CHECK-NEXT:      stablehlo.multiply %[[A]], %[[S]]
func.func @constants(%x: tensor<4xf32>) -> tensor<4xf32> {
  %big = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %splat = stablehlo.constant dense<3.0> : tensor<4xf32>
  %0 = stablehlo.add %x, %big : tensor<4xf32>
  %1 = stablehlo.multiply %0, %splat : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

// A constant also read outside any fusion stays where it is as well.
// CHECK-LABEL: func.func @constant_returned
// CHECK-NEXT:    %[[S:.*]] = stablehlo.constant dense<3.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kind = loop (%x)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.constant dense<3.000000e+00> : tensor<4xf32>
// CHECK-NEXT:      stablehlo.multiply
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[F]], %[[S]]
func.func @constant_returned(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %splat = stablehlo.constant dense<3.0> : tensor<4xf32>
  %0 = stablehlo.multiply %x, %splat : tensor<4xf32>
  func.return %0, %splat : tensor<4xf32>, tensor<4xf32>
}

// -----

// A cheap producer read by two fusions is duplicated into both.
// CHECK-LABEL: func.func @duplicated
// CHECK-NEXT:    %[[E:.*]] = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      stablehlo.exponential
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = hlo.fusion kind = input (%x) {name = "fusion.2"} : (tensor<4x8xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      stablehlo.reduce
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[E]], %[[R]]
func.func @duplicated(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %p = stablehlo.add %x, %x : tensor<4x8xf32>
  %e = stablehlo.exponential %p : tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %e, %r : tensor<4x8xf32>, tensor<4xf32>
}
