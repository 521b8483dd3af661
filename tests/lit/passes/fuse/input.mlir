// RUN: xlir-opt %s --split-input-file -p fuse | filecheck %s

// Producers fuse into a reduction: an input fusion whose root is the reduce.
// CHECK-LABEL: func.func @exp_sum
// CHECK-NEXT:    %[[F:.*]] = hlo.fusion kind = input (%x) {name = "fusion.1"} : (tensor<4x8xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<4x8xf32>):
// CHECK-NEXT:      %[[E:.*]] = stablehlo.exponential %[[X]]
// CHECK-NEXT:      %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %[[R:.*]] = stablehlo.reduce(%[[E]] init: %[[Z]]) applies stablehlo.add across dimensions = [1]
// CHECK-NEXT:      hlo.yield %[[R]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[F]]
func.func @exp_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// reduce_window (non-overlapping windows) with a producer.
// CHECK-LABEL: func.func @pool
// CHECK-NEXT:    hlo.fusion kind = input (%x) {name = "fusion.1"} : (tensor<4x8xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.abs
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      "stablehlo.reduce_window"
// CHECK:           hlo.yield
func.func @pool(%x: tensor<4x8xf32>) -> tensor<2x4xf32> {
  %a = stablehlo.abs %x : tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %m = stablehlo.maximum %p, %q : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// -----

// A lone reduction is an input fusion of one op; its consumer is not fused
// into it but gets a loop fusion of its own.
// CHECK-LABEL: func.func @lone
// CHECK-NEXT:    %[[R:.*]] = hlo.fusion kind = input (%x) {name = "fusion.1"} : (tensor<4x8xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      stablehlo.reduce
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[N:.*]] = hlo.fusion kind = loop (%[[R]]) {name = "fusion.2"} : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[N]]
func.func @lone(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %n = stablehlo.negate %r : tensor<4xf32>
  func.return %n : tensor<4xf32>
}

// -----

// A variadic reduction (argmax) with an iota producer.
// CHECK-LABEL: func.func @argmax
// CHECK-NEXT:    hlo.fusion kind = input (%x) {name = "fusion.1"} : (tensor<4x8xf32>) -> tensor<4xi32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.iota
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      %{{.*}}, %[[IDX:.*]] = stablehlo.reduce
// CHECK:           hlo.yield %[[IDX]] : tensor<4xi32>
func.func @argmax(%x: tensor<4x8xf32>) -> tensor<4xi32> {
  %i = stablehlo.iota dim = 1 : tensor<4x8xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %ninf), (%i init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ia: tensor<i32>, %ib: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    %j = stablehlo.select %gt, %ia, %ib : tensor<i1>, tensor<i32>
    stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }
  func.return %r#1 : tensor<4xi32>
}
