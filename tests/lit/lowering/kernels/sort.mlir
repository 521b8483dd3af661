// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// Five elements: three merge passes (runs of 1, 2, 4), the first reading the
// operand and writing the result, the second the scratch buffer, the last
// the result again. Each merges every pair of runs in a loop.parallel around
// a loop.for carrying the two read positions; the comparator is asked
// whether the right element goes first. A run with no partner is copied.
// Up to STATIC_PASSES (4) passes all have their run width in the code.

// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME: %[[X:.*]]: memref<5xf32>, %[[OUT:.*]]: memref<5xf32>, %[[SCRATCH:.*]]: memref<5xf32>)
// CHECK:       loop.parallel (%[[P:.*]]) = (0) to (2) step (1) {
// CHECK:         %[[START:.*]] = arith.muli %[[P]], %{{.*}} : index
// CHECK:         %[[L:.*]] = loop.load %[[X]][%[[START]]] : memref<5xf32>
// CHECK-NEXT:    %[[R:.*]] = loop.load %[[X]][%{{.*}}] : memref<5xf32>
// CHECK-NEXT:    %[[FIRST:.*]] = arith.cmpf olt, %[[R]], %[[L]] : f32
// CHECK-NEXT:    %{{.*}}, %{{.*}} = loop.for %[[K:[^ ]*]] = 0 to 2 step 1 iter_args(%[[I:[^ ]*]] = %[[ZERO:[^,]*]], %[[J:[^ ]*]] = %[[ZERO]]) -> (index, index) {
// CHECK-NEXT:      %[[LEFT_DONE:.*]] = arith.cmpi sge, %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[EITHER:.*]] = arith.ori %[[LEFT_DONE]], %[[FIRST]] : i1
// CHECK-NEXT:      %[[RIGHT_LIVE:.*]] = arith.cmpi slt, %[[J]], %{{.*}} : index
// CHECK-NEXT:      %[[TAKE:.*]] = arith.andi %[[RIGHT_LIVE]], %[[EITHER]] : i1
// CHECK-NEXT:      %[[V:.*]] = arith.select %[[TAKE]], %[[R]], %[[L]] : f32
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[START]], %[[K]] : index
// CHECK-NEXT:      loop.store %[[V]], %[[OUT]][%[[AT]]] : memref<5xf32>
// CHECK:           %[[NI:.*]] = arith.select %[[TAKE]], %[[I]], %{{.*}} : index
// CHECK:           %[[NJ:.*]] = arith.select %[[TAKE]], %{{.*}}, %[[J]] : index
// CHECK-NEXT:      loop.yield %[[NI]], %[[NJ]] : index, index
// CHECK:       loop.parallel (%[[T:.*]]) = (0) to (1) step (1) {
// CHECK:         %[[C:.*]] = loop.load %[[X]][%{{.*}}] : memref<5xf32>
// CHECK-NEXT:    loop.store %[[C]], %[[OUT]][%{{.*}}] : memref<5xf32>
// CHECK:       loop.for %{{.*}} = 0 to 4 step 1
// CHECK:         arith.minsi
// CHECK:         loop.load %[[OUT]]
// CHECK:         loop.store %{{.*}}, %[[SCRATCH]][%{{.*}}] : memref<5xf32>
// CHECK:       loop.for %{{.*}} = 0 to 5 step 1
// CHECK:         loop.load %[[SCRATCH]]
// CHECK:         loop.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<5xf32>
// CHECK:       loop.return

// The host schedule allocates the scratch buffer around the launch.
// CHECK-LABEL: func.func @main(
// CHECK:       %[[RESULT:.*]] = device.alloc : memref<5xf32>
// CHECK-NEXT:  %[[S:.*]] = device.alloc : memref<5xf32>
// CHECK-NEXT:  device.launch @sort_1(%{{.*}}, %[[RESULT]], %[[S]])
// CHECK-NEXT:  device.free %[[S]] : memref<5xf32>
func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
  %r = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<5xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

// Keys and values along dim 1 of length 2: one pass, straight into the
// results, so no scratch; the other dim is parallel, and both inputs move
// by the keys' comparison.

// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME: %[[K:.*]]: memref<3x2xi32>, %[[V:.*]]: memref<3x2xf32>, %[[KO:.*]]: memref<3x2xi32>, %[[VO:.*]]: memref<3x2xf32>)
// CHECK:       loop.parallel (%[[ROW:.*]], %{{.*}}) = (0, 0) to (3, 1) step (1, 1) {
// CHECK:         %[[LK:.*]] = loop.load %[[K]][%[[ROW]], %{{.*}}] : memref<3x2xi32>
// CHECK-NEXT:    %[[LV:.*]] = loop.load %[[V]][%[[ROW]], %{{.*}}] : memref<3x2xf32>
// CHECK-NEXT:    %[[RK:.*]] = loop.load %[[K]][%[[ROW]], %{{.*}}] : memref<3x2xi32>
// CHECK-NEXT:    %[[RV:.*]] = loop.load %[[V]][%[[ROW]], %{{.*}}] : memref<3x2xf32>
// CHECK-NEXT:    %{{.*}} = arith.cmpi sgt, %[[RK]], %[[LK]] : i32
// CHECK:         loop.for
// CHECK:           %[[TAKE:.*]] = arith.andi
// CHECK-NEXT:      %[[KEY:.*]] = arith.select %[[TAKE]], %[[RK]], %[[LK]] : i32
// CHECK:           loop.store %[[KEY]], %[[KO]]
// CHECK-NEXT:      %[[VAL:.*]] = arith.select %[[TAKE]], %[[RV]], %[[LV]] : f32
// CHECK-NEXT:      loop.store %[[VAL]], %[[VO]]
// CHECK-NOT:   arith.shli
// CHECK-LABEL: func.func @main(
// CHECK:       device.launch @sort_1(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) on
// CHECK-NOT:   device.free
// CHECK:       func.return
func.func @main(%k: tensor<3x2xi32>, %v: tensor<3x2xf32>) -> (tensor<3x2xi32>, tensor<3x2xf32>) {
  %r:2 = "stablehlo.sort"(%k, %v) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) : (tensor<3x2xi32>, tensor<3x2xf32>) -> (tensor<3x2xi32>, tensor<3x2xf32>)
  return %r#0, %r#1 : tensor<3x2xi32>, tensor<3x2xf32>
}

// -----

// Sorting along a dimension of size 1 is a copy.

// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME: %[[X:.*]]: memref<4x1xf32>, %[[OUT:.*]]: memref<4x1xf32>)
// CHECK-NEXT:  loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 1) step (1, 1) {
// CHECK-NEXT:    %[[V:.*]] = loop.load %[[X]][%[[I]], %[[J]]] : memref<4x1xf32>
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%[[I]], %[[J]]] : memref<4x1xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  loop.return
func.func @main(%x: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %r = "stablehlo.sort"(%x) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// -----

// 1000 elements take ten passes. The first four have their run width in
// the code (whole pairs; the fourth pass's last 8 elements, a lone run, are
// copied); the other six run as three iterations of a loop.for over pairs
// of passes, whose run width is 1 << exponent at run time: the whole pairs
// (1000 >> (exponent + 1) of them) in one nest, the last pair, clipped at
// the end, in another (0 or 1 of it). Nine merge nests, not ten or more.

// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME: %[[X:.*]]: memref<1000xi32>, %[[OUT:.*]]: memref<1000xi32>, %[[SCRATCH:.*]]: memref<1000xi32>)
// CHECK:       loop.parallel (%{{.*}}) = (0) to (500) step (1)
// CHECK:       loop.parallel (%{{.*}}) = (0) to (250) step (1)
// CHECK:       loop.parallel (%{{.*}}) = (0) to (125) step (1)
// CHECK:       loop.parallel (%{{.*}}) = (0) to (62) step (1)
// CHECK:       loop.parallel (%{{.*}}) = (0) to (8) step (1)
// CHECK:       %[[N:.*]] = arith.constant 1000 : index
// CHECK:       loop.for %{{.*}} = 0 to 3 step 1 {
// CHECK:         %[[EXP:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[W:.*]] = arith.shli %{{.*}}, %[[EXP]] : index
// CHECK-NEXT:    %[[DOUBLE:.*]] = arith.addi %[[EXP]], %{{.*}} : index
// CHECK-NEXT:    %[[PAIRS:.*]] = arith.shrui %[[N]], %[[DOUBLE]] : index
// CHECK:         %[[BOTH:.*]] = arith.addi %[[W]], %[[W]] : index
// CHECK:         loop.parallel (%[[Q:.*]]) = (0) to (%[[PAIRS]]) step (1) {
// CHECK-NEXT:      %[[AT:.*]] = arith.shli %[[Q]], %[[DOUBLE]] : index
// CHECK-NEXT:      loop.for %{{.*}} = 0 to %[[BOTH]] step 1 iter_args
// CHECK:             arith.minsi
// CHECK:             loop.load %[[OUT]]
// CHECK:             loop.store %{{.*}}, %[[SCRATCH]][%{{.*}}] : memref<1000xi32>
// CHECK:         %[[TAIL:.*]] = arith.shli %[[PAIRS]], %[[DOUBLE]] : index
// CHECK-NEXT:    %[[REST:.*]] = arith.subi %[[N]], %[[TAIL]] : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.minsi %[[REST]], %{{.*}} : index
// CHECK:         loop.parallel (%{{.*}}) = (0) to (%[[LAST]]) step (1) {
// CHECK-NEXT:      loop.for %{{.*}} = 0 to %{{.*}} step 1 iter_args
// CHECK:             loop.load %[[OUT]]
// CHECK:             loop.store %{{.*}}, %[[SCRATCH]][%{{.*}}] : memref<1000xi32>
// CHECK:         loop.parallel (%{{.*}}) = (0) to (%{{.*}}) step (1)
// CHECK:             loop.load %[[SCRATCH]]
// CHECK:             loop.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<1000xi32>
// CHECK:         loop.parallel (%{{.*}}) = (0) to (%{{.*}}) step (1)
// CHECK:             loop.load %[[SCRATCH]]
// CHECK:             loop.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<1000xi32>
// CHECK-NOT:   loop.parallel
// CHECK:       loop.return
func.func @main(%x: tensor<1000xi32>) -> tensor<1000xi32> {
  %r = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<1000xi32>) -> tensor<1000xi32>
  return %r : tensor<1000xi32>
}

// -----

// A power of two (1024) has only whole pairs in every pass: the loop.for
// runs one nest per pass, none for a last, clipped pair.

// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-COUNT-4: loop.parallel (%{{.*}}) = (0) to ({{[0-9]+}}) step (1)
// CHECK:       loop.for %{{.*}} = 0 to 3 step 1 {
// CHECK-COUNT-2: loop.parallel (%{{.*}}) = (0) to (%{{.*}}) step (1)
// CHECK-NOT:   loop.parallel
// CHECK:       loop.return
func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<1024xf32>) -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
