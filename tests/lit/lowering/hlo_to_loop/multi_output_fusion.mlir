// RUN: xlir-opt %s --split-input-file -p fuse,assign-buffers,hlo-to-loop | filecheck %s

// Every fusion `fuse` forms lowers to one loop nest, multi-output ones
// included: `fuse` yields an extra output only where it has a shape the
// fusion's nest walks (its multi-output-shape rule). A concatenation and its
// padding (4x16, 7x19) are two fusions, each one nest.

// CHECK-LABEL: loop.kernel @fusion_1(
// CHECK-SAME:    memref<4x16xf32>)
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 16) step (1, 1) {
// CHECK-NOT:     loop.parallel
// CHECK:         loop.return
// CHECK-LABEL: loop.kernel @fusion_2(
// CHECK-SAME:    memref<7x19xf32>)
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (7, 19) step (1, 1) {
// CHECK-NOT:     loop.parallel
// CHECK:         loop.return
func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<7x19xf32>) {
  %c = stablehlo.concatenate %x, %y, dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.pad %c, %z, low = [1, 1], high = [2, 2], interior = [0, 0] : (tensor<4x16xf32>, tensor<f32>) -> tensor<7x19xf32>
  func.return %c, %p : tensor<4x16xf32>, tensor<7x19xf32>
}

// -----

// An expensive value and its transpose: exp is computed once, in its own
// fusion, and the transposing fusion reads it (as one fusion with two nests
// it was computed in both).

// CHECK-LABEL: loop.kernel @fusion_1(
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 8) step (1, 1) {
// CHECK:           math.exp
// CHECK-NOT:     loop.parallel
// CHECK:         loop.return
// CHECK-LABEL: loop.kernel @fusion_2(
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (8, 4) step (1, 1) {
// CHECK-NEXT:      %[[E:.*]] = loop.load %{{.*}}[%[[J]], %[[I]]] : memref<4x8xf32>
// CHECK-NEXT:      arith.negf %[[E]] : f32
// CHECK-NOT:     loop.parallel
// CHECK-NOT:     math.exp
// CHECK:         loop.return
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %t = stablehlo.transpose %e, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %n = stablehlo.negate %t : tensor<8x4xf32>
  func.return %e, %n : tensor<4x8xf32>, tensor<8x4xf32>
}

// -----

// Outputs shaped like a reduce's input ride in the reduction's nest. Along
// the last dim, when they are all the reduce reads, they are computed first
// by a loop.parallel over the row and the loop.for sums what it loads back.

// CHECK-LABEL: loop.kernel @fusion_1(
// CHECK-SAME:    %{{.*}}: memref<4x8xf32>, %[[EXP:.*]]: memref<4x8xf32>, %[[SUM:.*]]: memref<4xf32>)
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:      loop.parallel (%[[J:.*]]) = (0) to (8) step (1) {
// CHECK:             %[[E:.*]] = math.exp
// CHECK-NEXT:        loop.store %[[E]], %[[EXP]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[S:.*]] = loop.for %[[K:.*]] = 0 to 8 step 1
// CHECK-NEXT:        %[[L:.*]] = loop.load %[[EXP]][%[[I]], %[[K]]] : memref<4x8xf32>
// CHECK-NEXT:        arith.addf %{{.*}}, %[[L]] : f32
// CHECK:           loop.store %[[S]], %[[SUM]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %e, %s : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// A column reduction keeps them inside its loop.for: a nest over the
// column would walk the output with the row's stride.

// CHECK-LABEL: loop.kernel @fusion_1(
// CHECK-SAME:    %{{.*}}: memref<4x8xf32>, %[[EXP:.*]]: memref<4x8xf32>, %[[SUM:.*]]: memref<8xf32>)
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:      %[[S:.*]] = loop.for %[[I:.*]] = 0 to 4 step 1
// CHECK:             %[[E:.*]] = math.exp
// CHECK-NEXT:        loop.store %[[E]], %[[EXP]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        arith.addf %{{.*}}, %[[E]] : f32
// CHECK:           loop.store %[[S]], %[[SUM]][%[[J]]] : memref<8xf32>
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>) {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %e, %s : tensor<4x8xf32>, tensor<8xf32>
}

// -----

// A reduce that reads something besides the riding outputs (here the
// exponentials and their argument, a variadic reduce) keeps them inside its
// loop.for, computed once with what it reduces.

// CHECK-LABEL: loop.kernel @fusion_1(
// CHECK-SAME:    %[[X:.*]]: memref<4x8xf32>, %[[EXP:.*]]: memref<4x8xf32>, %{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>)
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:      %{{.*}}, %{{.*}} = loop.for %[[J:.*]] = 0 to 8 step 1
// CHECK-NEXT:        %[[V:.*]] = loop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[E:.*]] = math.exp %[[V]] : f32
// CHECK-NEXT:        loop.store %[[E]], %[[EXP]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NOT:       loop.parallel
// CHECK:         loop.return
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s:2 = stablehlo.reduce(%e init: %z), (%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
   reducer(%a1: tensor<f32>, %b1: tensor<f32>) (%a2: tensor<f32>, %b2: tensor<f32>)  {
    %p = stablehlo.add %a1, %b1 : tensor<f32>
    %q = stablehlo.add %a2, %b2 : tensor<f32>
    stablehlo.return %p, %q : tensor<f32>, tensor<f32>
  }
  func.return %e, %s#0, %s#1 : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
}
