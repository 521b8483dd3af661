// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// Five elements: three passes. The first sorts the pairs of the operand
// into the result, each by one compare-exchange (the right element first
// only if the comparator says it goes strictly first); the lone last
// element is copied. The two merge passes left (runs of 2, then 4) run in
// a loop.for over pairs of passes, result to scratch and back: each merges
// every pair of runs in a loop.parallel around a loop.for carrying the two
// read positions along the dimension (from the start and the middle of the
// pair), each clamped to its run's last element, the whole pairs in one
// nest and the last, clipped pair in another.

// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME: %[[X:.*]]: memref<5xf32>, %[[OUT:.*]]: memref<5xf32>, %[[SCRATCH:.*]]: memref<5xf32>)
// CHECK:       loop.parallel (%[[P:.*]]) = (0) to (2) step (1) {
// CHECK-NEXT:    %[[START:.*]] = arith.muli %[[P]], %{{.*}} : index
// CHECK-NEXT:    %[[L:.*]] = loop.load %[[X]][%[[START]]] : memref<5xf32>
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %[[START]], %{{.*}} : index
// CHECK-NEXT:    %[[R:.*]] = loop.load %[[X]][%[[NEXT]]] : memref<5xf32>
// CHECK-NEXT:    %[[FIRST:.*]] = arith.cmpf olt, %[[R]], %[[L]] : f32
// CHECK-NEXT:    %[[LOW:.*]] = arith.select %[[FIRST]], %[[R]], %[[L]] : f32
// CHECK-NEXT:    %[[HIGH:.*]] = arith.select %[[FIRST]], %[[L]], %[[R]] : f32
// CHECK-NEXT:    loop.store %[[LOW]], %[[OUT]][%[[START]]] : memref<5xf32>
// CHECK-NEXT:    loop.store %[[HIGH]], %[[OUT]][%[[NEXT]]] : memref<5xf32>
// CHECK-NEXT:  }
// CHECK:       loop.parallel (%[[T:.*]]) = (0) to (1) step (1) {
// CHECK:         %[[C:.*]] = loop.load %[[X]][%{{.*}}] : memref<5xf32>
// CHECK-NEXT:    loop.store %[[C]], %[[OUT]][%{{.*}}] : memref<5xf32>
// CHECK:       loop.for %{{.*}} = 0 to 1 step 1 {
// CHECK:         loop.parallel (%{{.*}}) = (0) to (%{{.*}}) step (1) {
// CHECK-NEXT:      %[[START:.*]] = arith.shli
// CHECK-NEXT:      %[[MID:.*]] = arith.addi %[[START]], %[[W:.*]] : index
// CHECK-NEXT:      %[[END:.*]] = arith.addi %[[MID]], %[[W]] : index
// CHECK-NEXT:      %[[LAST_L:.*]] = arith.subi %[[MID]], %{{.*}} : index
// CHECK-NEXT:      %[[LAST_R:.*]] = arith.subi %[[END]], %{{.*}} : index
// CHECK-NEXT:      %{{.*}}, %{{.*}} = loop.for %[[K:[^ ]*]] = 0 to %{{.*}} step 1 iter_args(%[[I:[^ ]*]] = %[[START]], %[[J:[^ ]*]] = %[[MID]]) -> (index, index) {
// CHECK-NEXT:        %[[LAT:.*]] = arith.minsi %[[I]], %[[LAST_L]] : index
// CHECK-NEXT:        %[[RAT:.*]] = arith.minsi %[[J]], %[[LAST_R]] : index
// CHECK-NEXT:        %[[LV:.*]] = loop.load %[[OUT]][%[[LAT]]] : memref<5xf32>
// CHECK-NEXT:        %[[RV:.*]] = loop.load %[[OUT]][%[[RAT]]] : memref<5xf32>
// CHECK-NEXT:        %[[RF:.*]] = arith.cmpf olt, %[[RV]], %[[LV]] : f32
// CHECK-NEXT:        %[[LEFT_DONE:.*]] = arith.cmpi sge, %[[I]], %[[MID]] : index
// CHECK-NEXT:        %[[EITHER:.*]] = arith.ori %[[LEFT_DONE]], %[[RF]] : i1
// CHECK-NEXT:        %[[RIGHT_LIVE:.*]] = arith.cmpi slt, %[[J]], %[[END]] : index
// CHECK-NEXT:        %[[TAKE:.*]] = arith.andi %[[RIGHT_LIVE]], %[[EITHER]] : i1
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[START]], %[[K]] : index
// CHECK-NEXT:        %[[V:.*]] = arith.select %[[TAKE]], %[[RV]], %[[LV]] : f32
// CHECK-NEXT:        loop.store %[[V]], %[[SCRATCH]][%[[AT]]] : memref<5xf32>
// CHECK-NEXT:        %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK-NEXT:        %[[NI:.*]] = arith.select %[[TAKE]], %[[I]], %[[I1]] : index
// CHECK-NEXT:        %[[J1:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK-NEXT:        %[[NJ:.*]] = arith.select %[[TAKE]], %[[J1]], %[[J]] : index
// CHECK-NEXT:        loop.yield %[[NI]], %[[NJ]] : index, index
// CHECK:         loop.parallel
// CHECK:           loop.load %[[OUT]]
// CHECK:           loop.store %{{.*}}, %[[SCRATCH]][%{{.*}}] : memref<5xf32>
// CHECK:         loop.parallel
// CHECK:           loop.load %[[SCRATCH]]
// CHECK:           loop.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<5xf32>
// CHECK:         loop.parallel
// CHECK:           loop.load %[[SCRATCH]]
// CHECK:           loop.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<5xf32>
// CHECK-NOT:   loop.parallel
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

// Keys and values along dim 1 of length 2: one compare-exchange, straight
// into the results, so no scratch; the other dim is parallel, and both
// inputs move by the keys' comparison.

// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME: %[[K:.*]]: memref<3x2xi32>, %[[V:.*]]: memref<3x2xf32>, %[[KO:.*]]: memref<3x2xi32>, %[[VO:.*]]: memref<3x2xf32>)
// CHECK:       loop.parallel (%[[ROW:.*]], %{{.*}}) = (0, 0) to (3, 1) step (1, 1) {
// CHECK-NEXT:    %[[LK:.*]] = loop.load %[[K]][%[[ROW]], %{{.*}}] : memref<3x2xi32>
// CHECK-NEXT:    %[[LV:.*]] = loop.load %[[V]][%[[ROW]], %{{.*}}] : memref<3x2xf32>
// CHECK-NEXT:    %[[RK:.*]] = loop.load %[[K]][%[[ROW]], %{{.*}}] : memref<3x2xi32>
// CHECK-NEXT:    %[[RV:.*]] = loop.load %[[V]][%[[ROW]], %{{.*}}] : memref<3x2xf32>
// CHECK-NEXT:    %[[SWAP:.*]] = arith.cmpi sgt, %[[RK]], %[[LK]] : i32
// CHECK-NEXT:    %[[K0:.*]] = arith.select %[[SWAP]], %[[RK]], %[[LK]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.select %[[SWAP]], %[[RV]], %[[LV]] : f32
// CHECK-NEXT:    %[[K1:.*]] = arith.select %[[SWAP]], %[[LK]], %[[RK]] : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.select %[[SWAP]], %[[LV]], %[[RV]] : f32
// CHECK-NEXT:    loop.store %[[K0]], %[[KO]]
// CHECK-NEXT:    loop.store %[[V0]], %[[VO]]
// CHECK-NEXT:    loop.store %[[K1]], %[[KO]]
// CHECK-NEXT:    loop.store %[[V1]], %[[VO]]
// CHECK-NOT:   loop.for
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

// Three elements: two passes' worth sorted by one network of three
// compare-exchanges of neighbours (0-1, 1-2, 0-1), no merge pass, no
// scratch.

// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME: %[[X:.*]]: memref<2x3xf32>, %[[OUT:.*]]: memref<2x3xf32>)
// CHECK:       loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (2, 1) step (1, 1) {
// CHECK-NEXT:    %[[A:.*]] = loop.load %[[X]]
// CHECK-NEXT:    %[[B:.*]] = loop.load %[[X]]
// CHECK-NEXT:    %[[C:.*]] = loop.load %[[X]]
// CHECK-NEXT:    %[[AB:.*]] = arith.cmpf olt, %[[B]], %[[A]] : f32
// CHECK-NEXT:    %[[A1:.*]] = arith.select %[[AB]], %[[B]], %[[A]] : f32
// CHECK-NEXT:    %[[B1:.*]] = arith.select %[[AB]], %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[BC:.*]] = arith.cmpf olt, %[[C]], %[[B1]] : f32
// CHECK-NEXT:    %[[B2:.*]] = arith.select %[[BC]], %[[C]], %[[B1]] : f32
// CHECK-NEXT:    %[[C2:.*]] = arith.select %[[BC]], %[[B1]], %[[C]] : f32
// CHECK-NEXT:    %[[AB2:.*]] = arith.cmpf olt, %[[B2]], %[[A1]] : f32
// CHECK-NEXT:    %[[A3:.*]] = arith.select %[[AB2]], %[[B2]], %[[A1]] : f32
// CHECK-NEXT:    %[[B3:.*]] = arith.select %[[AB2]], %[[A1]], %[[B2]] : f32
// CHECK-NEXT:    loop.store %[[A3]], %[[OUT]]
// CHECK-NEXT:    loop.store %[[B3]], %[[OUT]]
// CHECK-NEXT:    loop.store %[[C2]], %[[OUT]]
// CHECK-NEXT:  }
// CHECK-NEXT:  loop.return
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = "stablehlo.sort"(%x) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
// -----

// 1000 elements take ten passes. The first two are one network over blocks
// of four (six compare-exchanges: rounds from the first, second, first and
// second element), which leaves an even number of merge passes; those run
// as four iterations of a loop.for over pairs of passes, whose run width is
// 1 << exponent at run time: the whole pairs (1000 >> (exponent + 1) of
// them) in one nest, the last pair, clipped at the end, in another (0 or 1
// of it). Four merge nests, not eight or more.

// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME: %[[X:.*]]: memref<1000xi32>, %[[OUT:.*]]: memref<1000xi32>, %[[SCRATCH:.*]]: memref<1000xi32>)
// CHECK:       loop.parallel (%{{.*}}) = (0) to (250) step (1)
// CHECK-COUNT-4: loop.load %[[X]]
// CHECK-COUNT-6: arith.cmpi slt
// CHECK-COUNT-4: loop.store %{{.*}}, %[[OUT]]
// CHECK:       %[[N:.*]] = arith.constant 1000 : index
// CHECK:       loop.for %{{.*}} = 0 to 4 step 1 {
// CHECK:         %[[EXP:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[W:.*]] = arith.shli %{{.*}}, %[[EXP]] : index
// CHECK-NEXT:    %[[DOUBLE:.*]] = arith.addi %[[EXP]], %{{.*}} : index
// CHECK-NEXT:    %[[PAIRS:.*]] = arith.shrui %[[N]], %[[DOUBLE]] : index
// CHECK:         %[[BOTH:.*]] = arith.addi %[[W]], %[[W]] : index
// CHECK:         loop.parallel (%[[Q:.*]]) = (0) to (%[[PAIRS]]) step (1) {
// CHECK-NEXT:      %[[AT:.*]] = arith.shli %[[Q]], %[[DOUBLE]] : index
// CHECK:           loop.for %{{.*}} = 0 to %[[BOTH]] step 1 iter_args(%{{.*}} = %[[AT]],
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
// CHECK:       loop.parallel (%{{.*}}) = (0) to (256) step (1)
// CHECK:       loop.for %{{.*}} = 0 to 4 step 1 {
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
