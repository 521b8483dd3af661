// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// Max pooling's gradient, 2x2 windows with stride 2: the result is filled
// with the init value, then, windows being disjoint, one parallel nest over
// the source walks each window in a loop.for nest carrying the best value,
// its position and whether an operand element was seen; the source value is
// added at the position chosen. No tap can reach padding: no bound test.

// CHECK-LABEL: loop.kernel @select_and_scatter_1(
// CHECK-SAME: %[[X:.*]]: memref<4x6xf32>, %[[SRC:.*]]: memref<2x3xf32>, %[[INIT:.*]]: memref<f32>, %[[OUT:.*]]: memref<4x6xf32>)
// CHECK:       %[[I0:.*]] = loop.load %[[INIT]][] : memref<f32>
// CHECK:       %[[TRUE:.*]] = arith.constant true
// CHECK:       %[[FALSE:.*]] = arith.constant false
// CHECK:       loop.parallel (%[[A:.*]], %[[B:.*]]) = (0, 0) to (4, 6) step (1, 1) {
// CHECK-NEXT:    loop.store %[[I0]], %[[OUT]][%[[A]], %[[B]]] : memref<4x6xf32>
// CHECK-NEXT:  }
// CHECK-NOT:   arith.cmpi
// CHECK:       loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 3) step (1, 1) {
// CHECK:         %{{.*}}, %[[ROW:.*]], %[[COL:.*]], %{{.*}} = loop.for %{{.*}} = 0 to 2 step 1 iter_args(%{{.*}} = %[[I0]], %{{.*}} = %[[ZERO:.*]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[FALSE]]) -> (f32, index, index, i1) {
// CHECK:           loop.for %{{.*}} = 0 to 2 step 1 iter_args(%[[BEST:.*]] = %{{.*}}, %[[BR:.*]] = %{{.*}}, %[[BC:.*]] = %{{.*}}, %[[SEEN:.*]] = %{{.*}}) -> (f32, index, index, i1) {
// CHECK:             %[[V:.*]] = loop.load %[[X]][%[[R:.*]], %[[C:.*]]] : memref<4x6xf32>
// CHECK-NEXT:        %[[KEEP:.*]] = arith.cmpf oge, %[[BEST]], %[[V]] : f32
// CHECK-NEXT:        %[[REPLACE:.*]] = arith.xori %[[KEEP]], %[[TRUE]] : i1
// CHECK-NEXT:        %[[UNSEEN:.*]] = arith.xori %[[SEEN]], %[[TRUE]] : i1
// CHECK-NEXT:        %[[TAKE:.*]] = arith.ori %[[UNSEEN]], %[[REPLACE]] : i1
// CHECK-NEXT:        %[[NB:.*]] = arith.select %[[TAKE]], %[[V]], %[[BEST]] : f32
// CHECK-NEXT:        %[[NR:.*]] = arith.select %[[TAKE]], %[[R]], %[[BR]] : index
// CHECK-NEXT:        %[[NC:.*]] = arith.select %[[TAKE]], %[[C]], %[[BC]] : index
// CHECK-NEXT:        loop.yield %[[NB]], %[[NR]], %[[NC]], %[[TRUE]] : f32, index, index, i1
// CHECK:         %[[OLD:.*]] = loop.load %[[OUT]][%[[ROW]], %[[COL]]] : memref<4x6xf32>
// CHECK-NEXT:    %[[S:.*]] = loop.load %[[SRC]][%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[OLD]], %[[S]] : f32
// CHECK-NEXT:    loop.store %[[SUM]], %[[OUT]][%[[ROW]], %[[COL]]] : memref<4x6xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  loop.return
func.func @main(%x: tensor<4x6xf32>, %s: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<4x6xf32> {
  %r = "stablehlo.select_and_scatter"(%x, %s, %init) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// Padding of 3 on each side of a 4-element operand: the first and last
// windows hold only padding, so the source runs in order (a loop.for, not a
// loop.parallel: clamped positions of different windows meet), padding taps
// are never taken once an operand element was seen, and a window that saw
// none stores back the value it read.

// CHECK-LABEL: loop.kernel @select_and_scatter_1(
// CHECK-SAME: %[[X:.*]]: memref<4xi32>, %[[SRC:.*]]: memref<5xi32>, %[[INIT:.*]]: memref<i32>, %[[OUT:.*]]: memref<4xi32>)
// CHECK:       loop.parallel (%{{.*}}) = (0) to (4) step (1) {
// CHECK-NOT:   loop.parallel
// CHECK:       loop.for %[[K:.*]] = 0 to 5 step 1 {
// CHECK:         %{{.*}}, %[[BEST_AT:.*]], %[[SEEN:.*]] = loop.for %{{.*}} = 0 to 2 step 1 iter_args(%[[BEST:.*]] = %{{.*}}, %[[BP:.*]] = %{{.*}}, %[[WAS:.*]] = %{{.*}}) -> (i32, index, i1) {
// CHECK:           %[[LOW:.*]] = arith.cmpi sge, %[[P:.*]], %{{.*}} : index
// CHECK-NEXT:      %[[HIGH:.*]] = arith.cmpi sle, %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[IN:.*]] = arith.andi %[[LOW]], %[[HIGH]] : i1
// CHECK:           %[[V:.*]] = loop.load %[[X]][%{{.*}}] : memref<4xi32>
// CHECK-NEXT:      %[[KEEP:.*]] = arith.cmpi sgt, %[[BEST]], %[[V]] : i32
// CHECK-NEXT:      %[[REPLACE:.*]] = arith.xori %[[KEEP]], %{{.*}} : i1
// CHECK-NEXT:      %{{.*}} = arith.andi %[[IN]], %[[REPLACE]] : i1
// CHECK:           %[[NOW:.*]] = arith.ori %[[WAS]], %[[IN]] : i1
// CHECK-NEXT:      loop.yield %{{.*}}, %{{.*}}, %[[NOW]] : i32, index, i1
// CHECK:         %[[OLD:.*]] = loop.load %[[OUT]][%[[BEST_AT]]] : memref<4xi32>
// CHECK-NEXT:    %[[S:.*]] = loop.load %[[SRC]][%[[K]]] : memref<5xi32>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %[[OLD]], %[[S]] : i32
// CHECK-NEXT:    %[[NEW:.*]] = arith.select %[[SEEN]], %[[SUM]], %[[OLD]] : i32
// CHECK-NEXT:    loop.store %[[NEW]], %[[OUT]][%[[BEST_AT]]] : memref<4xi32>
func.func @main(%x: tensor<4xi32>, %s: tensor<5xi32>, %init: tensor<i32>) -> tensor<4xi32> {
  %r = "stablehlo.select_and_scatter"(%x, %s, %init) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[3, 3]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }) : (tensor<4xi32>, tensor<5xi32>, tensor<i32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// NHWC max pooling's gradient, 3x3 windows with stride 2: windows overlap
// in H and W, which run in order inside a parallel nest over batch and
// features (their windows, of one tap, never meet); only H and W are walked.

// CHECK-LABEL: loop.kernel @select_and_scatter_1(
// CHECK:       loop.parallel (%[[N:.*]], %[[C:.*]]) = (0, 0) to (2, 3) step (1, 1) {
// CHECK:         loop.for %[[H:.*]] = 0 to 3 step 1 {
// CHECK:           loop.for %[[W:.*]] = 0 to 3 step 1 {
// CHECK:             loop.for %{{.*}} = 0 to 3 step 1 iter_args({{.*}}) -> (f32, index, index, i1) {
// CHECK:               loop.for %{{.*}} = 0 to 3 step 1 iter_args({{.*}}) -> (f32, index, index, i1) {
// CHECK:                 loop.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x7x7x3xf32>
// CHECK:             loop.load %{{.*}}[%[[N]], %[[H]], %[[W]], %[[C]]] : memref<2x3x3x3xf32>
// CHECK:             loop.store
func.func @main(%x: tensor<2x7x7x3xf32>, %s: tensor<2x3x3x3xf32>, %init: tensor<f32>) -> tensor<2x7x7x3xf32> {
  %r = "stablehlo.select_and_scatter"(%x, %s, %init) <{window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<2x7x7x3xf32>, tensor<2x3x3x3xf32>, tensor<f32>) -> tensor<2x7x7x3xf32>
  return %r : tensor<2x7x7x3xf32>
}
