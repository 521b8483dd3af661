// RUN: xlir-opt %s --split-input-file -p hlo-to-loop | filecheck %s

// Data movement inside a fusion maps the output index to the operand's:
// nothing is materialized, every access is one load.

// transpose permutes, reverse is n-1-i, a strided slice is start + i*stride.
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK-DAG:     %[[C9:.*]] = arith.constant 9 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (3, 4) step (1, 1) {
// CHECK-NEXT:      %[[S:.*]] = arith.muli %[[J]], %[[C2]] : index
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[S]], %[[C1]] : index
// CHECK-NEXT:      %[[R:.*]] = arith.subi %[[C9]], %[[T]] : index
// CHECK-NEXT:      loop.load %0[%[[R]], %[[I]]] : memref<10x3xf32>
func.func @main(%x: tensor<10x3xf32>) -> tensor<3x4xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 120, outputs = 48, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<10x3xf32>) -> tensor<3x4xf32> {
  ^bb0(%a: tensor<10x3xf32>):
    %r = stablehlo.reverse %a, dims = [0] : tensor<10x3xf32>
    %t = stablehlo.transpose %r, dims = [1, 0] : (tensor<10x3xf32>) -> tensor<3x10xf32>
    %s = stablehlo.slice %t [0:3, 1:9:2] : (tensor<3x10xf32>) -> tensor<3x4xf32>
    hlo.yield %s : tensor<3x4xf32>
  }
  func.return %0 : tensor<3x4xf32>
}

// -----

// A reshape that only adds or drops unit dims renames indices; a general one
// splits each run of output dims that holds a run of operand dims on its
// own: 2x3x4 -> 6x4 splits the first index only (the last is renamed, with
// no linear index over all dims divided by 12 and 4).
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (6, 4) step (1, 1) {
// CHECK-NEXT:      %[[A:.*]] = arith.divui %[[I]], %[[THREE:.*]] : index
// CHECK-NEXT:      %[[B:.*]] = arith.remui %[[I]], %[[THREE]] : index
// CHECK-NEXT:      loop.load %0[%[[A]], %[[B]], %[[J]]] : memref<2x3x4xf32>
// CHECK-LABEL: loop.kernel @fusion_2
// CHECK:         loop.parallel (%[[K:.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:      loop.load %{{.*}}[%{{.*}}, %[[K]]] : memref<1x8xf32>
func.func @main(%x: tensor<2x3x4xf32>, %y: tensor<1x8xf32>) -> (tensor<6x4xf32>, tensor<8xf32>) attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 128, outputs = 128, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  ^bb0(%a: tensor<2x3x4xf32>):
    %r = stablehlo.reshape %a : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    hlo.yield %r : tensor<6x4xf32>
  }
  %1 = hlo.fusion kind = loop (%y) {name = "fusion.2", hlo.buffers = [#hlo.buffer<out 1>]} : (tensor<1x8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<1x8xf32>):
    %r = stablehlo.reshape %a : (tensor<1x8xf32>) -> tensor<8xf32>
    hlo.yield %r : tensor<8xf32>
  }
  func.return %0, %1 : tensor<6x4xf32>, tensor<8xf32>
}

// -----

// A reshape whose runs share no boundary (2x3 -> 3x2) is one group: the
// output index is linearized and split in the operand's shape.
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (3, 2) step (1, 1) {
// CHECK-NEXT:      %[[F0:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[F:.*]] = arith.addi %[[F0]], %[[J]] : index
// CHECK-NEXT:      %[[A:.*]] = arith.divui %[[F]], %{{.*}} : index
// CHECK-NEXT:      %[[B:.*]] = arith.remui %[[F]], %{{.*}} : index
// CHECK-NEXT:      loop.load %0[%[[A]], %[[B]]] : memref<2x3xf32>
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 64, outputs = 64, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<2x3xf32>) -> tensor<3x2xf32> {
  ^bb0(%a: tensor<2x3xf32>):
    %r = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
    hlo.yield %r : tensor<3x2xf32>
  }
  func.return %0 : tensor<3x2xf32>
}

// -----

// iota is the index itself, converted to the element type.
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 5) step (1, 1) {
// CHECK-NEXT:      %[[W:.*]] = arith.index_cast %[[J]] : index to i64
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[W]] : i64 to f32
// CHECK-NEXT:      %[[N:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK-NEXT:      %[[G:.*]] = arith.sitofp %[[N]] : i32 to f32
// CHECK-NEXT:      arith.addf %[[F]], %[[G]] : f32
func.func @main() -> tensor<2x5xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 0, outputs = 40, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop () {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : () -> tensor<2x5xf32> {
    %a = stablehlo.iota dim = 1 : tensor<2x5xf32>
    %b = stablehlo.iota dim = 0 : tensor<2x5xi32>
    %c = stablehlo.convert %b : (tensor<2x5xi32>) -> tensor<2x5xf32>
    %r = stablehlo.add %a, %c : tensor<2x5xf32>
    hlo.yield %r : tensor<2x5xf32>
  }
  func.return %0 : tensor<2x5xf32>
}
