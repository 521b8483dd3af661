// RUN: xlir-opt %s -p 'tile{sizes=4,8}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'tile{sizes=4}' --split-input-file | filecheck %s --check-prefix=ONE
// RUN: xlir-opt %s -p 'tile{sizes=0,8}' --split-input-file | filecheck %s --check-prefix=SECOND
// RUN: not xlir-opt %s -p 'tile{sizes=4,-1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: tile: sizes must be non-negative (0 leaves a dimension untiled), got 4,-1

// Exact tiles: 16x32 by 4x8 gives an outer 4x4 loop of tiles and an inner
// loop of constant bounds; the old indices are tile start + offset.
// CHECK-LABEL: loop.kernel @exact
// CHECK-NEXT:    loop.parallel (%[[TI:.*]], %[[TJ:.*]]) = (0, 0) to (16, 32) step (4, 8) {
// CHECK-NEXT:      loop.parallel (%[[EI:.*]], %[[EJ:.*]]) = (0, 0) to (4, 8) step (1, 1) {
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[TI]], %[[EI]] : index
// CHECK-NEXT:        %[[J:.*]] = arith.addi %[[TJ]], %[[EJ]] : index
// CHECK-NEXT:        %[[V:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:        loop.store %[[V]], %{{.*}}[%[[J]], %[[I]]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// ONE-LABEL: loop.kernel @exact
// ONE-NEXT:    loop.parallel (%[[TI:.*]]) = (0) to (16) step (4) {
// ONE-NEXT:      loop.parallel (%[[EI:.*]], %[[J:.*]]) = (0, 0) to (4, 32) step (1, 1) {
// ONE-NEXT:        %[[I:.*]] = arith.addi %[[TI]], %[[EI]] : index
// ONE-NEXT:        loop.load %{{.*}}[%[[I]], %[[J]]]
// SECOND-LABEL: loop.kernel @exact
// SECOND-NEXT:    loop.parallel (%[[TJ:.*]]) = (0) to (32) step (8) {
// SECOND-NEXT:      loop.parallel (%[[I:.*]], %[[EJ:.*]]) = (0, 0) to (16, 8) step (1, 1) {
// SECOND-NEXT:        %[[J:.*]] = arith.addi %[[TJ]], %[[EJ]] : index
// SECOND-NEXT:        loop.load %{{.*}}[%[[I]], %[[J]]]
loop.kernel @exact(%x: memref<16x32xf32>, %out: memref<32x16xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (16, 32) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<16x32xf32>
    loop.store %v, %out[%j, %i] : memref<32x16xf32>
  }
  loop.return
}

// -----

// Partial edge tiles: 10 by 4 leaves a last tile of 2, so the inner bound is
// min(4, 10 - tile start); with a step of 2 from 1 (1, 3, ..., 19: 10
// iterations), a tile of 8 iterations spans 16 and the inner loop keeps the
// step.
// CHECK-LABEL: loop.kernel @partial
// CHECK-NEXT:    loop.parallel (%[[TI:.*]], %[[TJ:.*]]) = (0, 1) to (10, 20) step (4, 16) {
// CHECK-NEXT:      %[[C10:.*]] = arith.constant 10 : index
// CHECK-NEXT:      %[[R0:.*]] = arith.subi %[[C10]], %[[TI]] : index
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[N0:.*]] = arith.minsi %[[C4]], %[[R0]] : index
// CHECK-NEXT:      %[[C20:.*]] = arith.constant 20 : index
// CHECK-NEXT:      %[[R1:.*]] = arith.subi %[[C20]], %[[TJ]] : index
// CHECK-NEXT:      %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[N1:.*]] = arith.minsi %[[C16]], %[[R1]] : index
// CHECK-NEXT:      loop.parallel (%[[EI:.*]], %[[EJ:.*]]) = (0, 0) to (%[[N0]], %[[N1]]) step (1, 2) {
// CHECK-NEXT:        arith.addi %[[TI]], %[[EI]]
// CHECK-NEXT:        arith.addi %[[TJ]], %[[EJ]]
loop.kernel @partial(%x: memref<10x20xf32>, %out: memref<10x20xf32>) {
  loop.parallel (%i, %j) = (0, 1) to (10, 20) step (1, 2) {
    %v = loop.load %x[%i, %j] : memref<10x20xf32>
    loop.store %v, %out[%i, %j] : memref<10x20xf32>
  }
  loop.return
}

// -----

// Dynamic upper bounds tile with a min against the bound value; a dimension
// no longer than its tile size is not tiled (here the second, 6 <= 8).
// CHECK-LABEL: loop.kernel @dynamic
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    loop.parallel (%[[TI:.*]]) = (0) to (%[[N:.*]]) step (4) {
// CHECK-NEXT:      %[[R:.*]] = arith.subi %[[N]], %[[TI]] : index
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[M:.*]] = arith.minsi %[[C4]], %[[R]] : index
// CHECK-NEXT:      loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (%[[M]], 6) step (1, 1) {
loop.kernel @dynamic(%n: index, %out: memref<16x6xf32>) {
  %c = arith.constant 1.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (%n, 6) step (1, 1) {
    loop.store %c, %out[%i, %j] : memref<16x6xf32>
  }
  loop.return
}

// -----

// Only outermost parallels are tiled; the reduction loop inside moves along
// unchanged. A one-dimensional loop takes the first size.
// CHECK-LABEL: loop.kernel @reduction
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    loop.parallel (%[[T:.*]]) = (0) to (64) step (4) {
// CHECK-NEXT:      loop.parallel (%[[E:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[T]], %[[E]] : index
// CHECK-NEXT:        %[[R:.*]] = loop.for %{{.*}} = 0 to 128 step 1
// CHECK-NEXT:          loop.load %{{.*}}[%[[I]], %{{.*}}]
// CHECK:           loop.store %[[R]], %{{.*}}[%[[I]]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
loop.kernel @reduction(%x: memref<64x128xf32>, %max: memref<64xf32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  loop.parallel (%i) = (0) to (64) step (1) {
    %row_max = loop.for %j = 0 to 128 step 1 iter_args(%acc = %neg_inf) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<64x128xf32>
      %next = arith.maximumf %acc, %v : f32
      loop.yield %next : f32
    }
    loop.store %row_max, %max[%i] : memref<64xf32>
  }
  loop.return
}

// -----

// Nothing to tile: a zero-dimensional loop and a loop shorter than its tile.
// CHECK-LABEL: loop.kernel @untouched
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    loop.parallel () = () to () step () {
// CHECK:         loop.parallel (%{{.*}}) = (0) to (3) step (1) {
// CHECK-NOT:     loop.parallel
loop.kernel @untouched(%out: memref<3xf32>) {
  %c = arith.constant 1.0 : f32
  loop.parallel () = () to () step () {
    %c0 = arith.constant 0 : index
    loop.store %c, %out[%c0] : memref<3xf32>
  }
  loop.parallel (%i) = (0) to (3) step (1) {
    loop.store %c, %out[%i] : memref<3xf32>
  }
  loop.return
}
