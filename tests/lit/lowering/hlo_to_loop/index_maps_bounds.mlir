// RUN: xlir-opt %s --split-input-file -p hlo-to-loop | filecheck %s

// Maps that may point outside their operand clamp the index, so every load
// stays in bounds, and select the element with arith.select.

// pad: low 1, interior 1 (and a negative high pad): in-bounds and on-grid
// tests pick the operand's element or the padding value.
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         %[[PADV:.*]] = loop.load %1[] : memref<f32>
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (6) step (1) {
// CHECK-NEXT:      %[[S:.*]] = arith.subi %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[GE:.*]] = arith.cmpi sge, %[[S]], %{{.*}} : index
// CHECK-NEXT:      %[[LE:.*]] = arith.cmpi sle, %[[S]], %{{.*}} : index
// CHECK-NEXT:      %[[IN:.*]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK-NEXT:      arith.maxsi
// CHECK-NEXT:      %[[CL:.*]] = arith.minsi
// CHECK-NEXT:      %[[M:.*]] = arith.remui %[[CL]], %{{.*}} : index
// CHECK-NEXT:      %[[GRID:.*]] = arith.cmpi eq, %[[M]], %{{.*}} : index
// CHECK-NEXT:      %[[OK:.*]] = arith.andi %[[IN]], %[[GRID]] : i1
// CHECK-NEXT:      %[[K:.*]] = arith.divui %[[CL]], %{{.*}} : index
// CHECK-NEXT:      %[[V:.*]] = loop.load %0[%[[K]]] : memref<4xf32>
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[OK]], %[[V]], %[[PADV]] : f32
// CHECK-NEXT:      loop.store %[[R]], %2[%[[I]]] : memref<6xf32>
func.func @main(%x: tensor<4xf32>, %p: tensor<f32>) -> tensor<6xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 20, outputs = 24, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop (%x, %p) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<f32>):
    %r = stablehlo.pad %a, %b, low = [1], high = [-2], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32>
    hlo.yield %r : tensor<6xf32>
  }
  func.return %0 : tensor<6xf32>
}

// -----

// concatenate: each operand read at a clamped index, chosen by i < end.
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 5) step (1, 1) {
// CHECK:           %[[LT:.*]] = arith.cmpi slt, %[[J]], %{{.*}} : index
// CHECK:           %[[A:.*]] = loop.load %0[%[[I]], %{{.*}}] : memref<2x2xf32>
// CHECK-NEXT:      %[[B:.*]] = loop.load %1[%[[I]], %{{.*}}] : memref<2x3xf32>
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[LT]], %[[A]], %[[B]] : f32
// CHECK-NEXT:      loop.store %[[R]], %2[%[[I]], %[[J]]]
func.func @main(%x: tensor<2x2xf32>, %y: tensor<2x3xf32>) -> tensor<2x5xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 40, outputs = 40, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop (%x, %y) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x5xf32> {
  ^bb0(%a: tensor<2x2xf32>, %b: tensor<2x3xf32>):
    %r = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
    hlo.yield %r : tensor<2x5xf32>
  }
  func.return %0 : tensor<2x5xf32>
}

// -----

// dynamic_slice: the start is loaded once, outside the nest, and clamped to
// [0, 8 - 3]; dynamic_update_slice copies its operand, then stores the
// update over its window at the clamped start (tests update_window.mlir).
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         %[[S:.*]] = loop.load %1[] : memref<i32>
// CHECK-NEXT:    %[[SI:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK:         %[[LO:.*]] = arith.maxsi %[[SI]], %{{.*}} : index
// CHECK-NEXT:    %[[ST:.*]] = arith.minsi %[[LO]], %{{.*}} : index
// CHECK-NEXT:    loop.parallel (%[[I:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:      %[[K:.*]] = arith.addi %[[ST]], %[[I]] : index
// CHECK-NEXT:      loop.load %0[%[[K]]] : memref<8xf32>
// CHECK-LABEL: loop.kernel @fusion_2
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %0[%[[I]]] : memref<8xf32>
// CHECK-NEXT:      loop.store %[[X]], %3[%[[I]]] : memref<8xf32>
// CHECK:         %[[S:.*]] = loop.load %2[] : memref<i32>
// CHECK-NEXT:    %[[SI:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK:         %[[LO:.*]] = arith.maxsi %[[SI]], %{{.*}} : index
// CHECK-NEXT:    %[[ST:.*]] = arith.minsi %[[LO]], %{{.*}} : index
// CHECK-NEXT:    loop.parallel (%[[J:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:      %[[K:.*]] = arith.addi %[[ST]], %[[J]] : index
// CHECK-NEXT:      %[[U:.*]] = loop.load %1[%[[J]]] : memref<3xf32>
// CHECK-NEXT:      loop.store %[[U]], %3[%[[K]]] : memref<8xf32>
func.func @main(%x: tensor<8xf32>, %u: tensor<3xf32>, %s: tensor<i32>) -> (tensor<3xf32>, tensor<8xf32>) attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 48, outputs = 44, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop (%x, %s) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<8xf32>, tensor<i32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<8xf32>, %b: tensor<i32>):
    %r = stablehlo.dynamic_slice %a, %b, sizes = [3] : (tensor<8xf32>, tensor<i32>) -> tensor<3xf32>
    hlo.yield %r : tensor<3xf32>
  }
  %1 = hlo.fusion kind = loop (%x, %u, %s) {name = "fusion.2", hlo.buffers = [#hlo.buffer<out 1>]} : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>, %b: tensor<3xf32>, %c: tensor<i32>):
    %r = stablehlo.dynamic_update_slice %a, %b, %c : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32>
    hlo.yield %r : tensor<8xf32>
  }
  func.return %0, %1 : tensor<3xf32>, tensor<8xf32>
}

// -----

// dynamic_slice as wide as its operand along a dimension: that start can
// only be 0 (clamped to [0, 4 - 4]), so the column index is the nest's own,
// with no clamp; the row start is clamped to [0, 6 - 1].
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK-NEXT:    loop.load %1[] : memref<i32>
// CHECK-NOT:     loop.load %2
// CHECK:         %[[LO:.*]] = arith.maxsi
// CHECK-NEXT:    %[[R:.*]] = arith.minsi %[[LO]], %{{.*}} : index
// CHECK-NOT:     arith.maxsi
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (1, 4) step (1, 1) {
// CHECK-NEXT:      %[[K:.*]] = arith.addi %[[R]], %[[I]] : index
// CHECK-NEXT:      %[[X:.*]] = loop.load %0[%[[K]], %[[J]]] : memref<6x4xf32>
// CHECK-NEXT:      loop.store %[[X]], %3[%[[I]], %[[J]]]
func.func @main(%x: tensor<6x4xf32>, %s: tensor<i32>, %t: tensor<i32>) -> tensor<1x4xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 104, outputs = 16, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop (%x, %s, %t) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<6x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32> {
  ^bb0(%a: tensor<6x4xf32>, %b: tensor<i32>, %c: tensor<i32>):
    %r = stablehlo.dynamic_slice %a, %b, %c, sizes = [1, 4] : (tensor<6x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    hlo.yield %r : tensor<1x4xf32>
  }
  func.return %0 : tensor<1x4xf32>
}

// -----

// gather of rows: the row index is loaded from the indices at the batch
// index, clamped, and the column comes from the offset dim.
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (3, 4) step (1, 1) {
// CHECK-NEXT:      %[[N:.*]] = loop.load %1[%[[I]], %{{.*}}] : memref<3x1xi32>
// CHECK-NEXT:      %[[NI:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK-NEXT:      arith.maxsi %[[NI]]
// CHECK-NEXT:      %[[ROW:.*]] = arith.minsi
// CHECK-NEXT:      loop.load %0[%[[ROW]], %[[J]]] : memref<10x4xf32>
func.func @main(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 172, outputs = 48, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop (%x, %i) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32> {
  ^bb0(%a: tensor<10x4xf32>, %b: tensor<3x1xi32>):
    %r = "stablehlo.gather"(%a, %b) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
    hlo.yield %r : tensor<3x4xf32>
  }
  func.return %0 : tensor<3x4xf32>
}
