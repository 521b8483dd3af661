// RUN: xlir-opt %s --split-input-file -p hlo-to-loop | filecheck %s

// Output fusions: the dot's contraction is a loop.for inside the parallel
// nest over the dot's output; the epilogue applies to the accumulated value
// before the store, and values that do not depend on the contraction are
// computed outside it.

// CHECK-LABEL: loop.kernel @fusion_1
// CHECK-SAME:    (%[[A:.*]]: memref<4x6xf32>, %[[B:.*]]: memref<6x5xf32>, %[[BIAS:.*]]: memref<5xf32>, %[[OUT:.*]]: memref<4x5xf32>) {
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 5) step (1, 1) {
// CHECK-NEXT:      %[[DOT:.*]] = loop.for %[[K:.*]] = 0 to 6 step 1 iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:        %[[L:.*]] = loop.load %[[A]][%[[I]], %[[K]]] : memref<4x6xf32>
// CHECK-NEXT:        %[[R:.*]] = loop.load %[[B]][%[[K]], %[[J]]] : memref<6x5xf32>
// CHECK-NEXT:        %[[P:.*]] = arith.mulf %[[L]], %[[R]] : f32
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:        loop.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[BV:.*]] = loop.load %[[BIAS]][%[[J]]] : memref<5xf32>
// CHECK-NEXT:      %[[Y:.*]] = arith.addf %[[DOT]], %[[BV]] : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.maximumf %[[Y]], %[[ZERO]] : f32
// CHECK-NEXT:      loop.store %[[Z]], %[[OUT]][%[[I]], %[[J]]] : memref<4x5xf32>
func.func @main(%a: tensor<4x6xf32>, %b: tensor<6x5xf32>, %bias: tensor<5xf32>) -> tensor<4x5xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 236, outputs = 80, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = output (%a, %b, %bias) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<4x6xf32>, tensor<6x5xf32>, tensor<5xf32>) -> tensor<4x5xf32> {
  ^bb0(%x: tensor<4x6xf32>, %y: tensor<6x5xf32>, %z: tensor<5xf32>):
    %d = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x5xf32>) -> tensor<4x5xf32>
    %zb = stablehlo.broadcast_in_dim %z, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
    %s = stablehlo.add %d, %zb : tensor<4x5xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %zz = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %r = stablehlo.maximum %s, %zz : tensor<4x5xf32>
    hlo.yield %r : tensor<4x5xf32>
  }
  func.return %0 : tensor<4x5xf32>
}

// -----

// Batch dims lead the output; the contraction may be on any dim (here the
// lhs's first and the rhs's last).

// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%[[B:.*]], %[[M:.*]], %[[N:.*]]) = (0, 0, 0) to (2, 3, 4) step (1, 1, 1) {
// CHECK-NEXT:      loop.for %[[K:.*]] = 0 to 5 step 1
// CHECK-NEXT:        loop.load %0[%[[B]], %[[K]], %[[M]]] : memref<2x5x3xf32>
// CHECK-NEXT:        loop.load %1[%[[B]], %[[N]], %[[K]]] : memref<2x4x5xf32>
func.func @main(%a: tensor<2x5x3xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x4xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 280, outputs = 96, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = output (%a, %b) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<2x5x3xf32>, tensor<2x4x5xf32>) -> tensor<2x3x4xf32> {
  ^bb0(%x: tensor<2x5x3xf32>, %y: tensor<2x4x5xf32>):
    %d = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<2x5x3xf32>, tensor<2x4x5xf32>) -> tensor<2x3x4xf32>
    hlo.yield %d : tensor<2x3x4xf32>
  }
  func.return %0 : tensor<2x3x4xf32>
}

// -----

// A convolution roots an output fusion as a dot does (a CNN's backward pass:
// lhs dilation, padding, a reversed window): a loop.for nest over its input
// features and taps inside the parallel nest; a tap in the padding or a hole
// of the dilation multiplies zero (select), the reversed dimension reads the
// kernel at 2 - tap, and the epilogue applies before the store.

// CHECK-LABEL: loop.kernel @fusion_1
// CHECK-SAME:    (%[[X:.*]]: memref<1x3x3x1xf32>, %[[W:.*]]: memref<3x3x1x1xf32>, %[[OUT:.*]]: memref<1x5x5x1xf32>) {
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK:         loop.parallel (%[[N:.*]], %[[H:.*]], %[[V:.*]], %[[F:.*]]) = (0, 0, 0, 0) to (1, 5, 5, 1) step (1, 1, 1, 1) {
// CHECK-NEXT:      %[[SUM:.*]] = loop.for %[[K:.*]] = 0 to 1 step 1 iter_args(%{{.*}} = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:        loop.for %[[TH:.*]] = 0 to 3 step 1
// CHECK-NEXT:          %[[RH:.*]] = arith.subi %[[TWO]], %[[TH]] : index
// CHECK:               arith.remui
// CHECK:               loop.for %[[TW:.*]] = 0 to 3 step 1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:                 arith.cmpi eq
// CHECK-NEXT:            %[[INSIDE:.*]] = arith.andi
// CHECK:                 %[[XV:.*]] = loop.load %[[X]][%[[N]], %{{.*}}, %{{.*}}, %[[K]]] : memref<1x3x3x1xf32>
// CHECK-NEXT:            %[[XS:.*]] = arith.select %[[INSIDE]], %[[XV]], %[[ZERO]] : f32
// CHECK-NEXT:            %[[WV:.*]] = loop.load %[[W]][%[[RH]], %[[TW]], %[[K]], %[[F]]] : memref<3x3x1x1xf32>
// CHECK-NEXT:            %[[P:.*]] = arith.mulf %[[XS]], %[[WV]] : f32
// CHECK-NEXT:            %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:            loop.yield %[[S]] : f32
// CHECK:           %[[NEG:.*]] = arith.negf %[[SUM]] : f32
// CHECK-NEXT:      loop.store %[[NEG]], %[[OUT]][%[[N]], %[[H]], %[[V]], %[[F]]] : memref<1x5x5x1xf32>
func.func @main(%x: tensor<1x3x3x1xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<1x5x5x1xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 100, outputs = 100, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = output (%x, %w) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<1x3x3x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x5x5x1xf32> {
  ^bb0(%a: tensor<1x3x3x1xf32>, %b: tensor<3x3x1x1xf32>):
    %c = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x3x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x5x5x1xf32>
    %r = stablehlo.negate %c : tensor<1x5x5x1xf32>
    hlo.yield %r : tensor<1x5x5x1xf32>
  }
  func.return %0 : tensor<1x5x5x1xf32>
}
