// RUN: xlir-opt %s -p fold-index --split-input-file | filecheck %s

// A reshape's linearize/delinearize round trip (what hlo-to-loop makes of
// 4x6 -> 2x12 -> 4x6) folds to the loop indices.
// CHECK-LABEL: loop.kernel @reshape_round_trip
// CHECK-NEXT:    loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 6) step (1, 1) {
// CHECK-NEXT:      %[[V:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : memref<4x6xf32>
// CHECK-NEXT:      loop.store %[[V]], %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:    }
loop.kernel @reshape_round_trip(%x: memref<4x6xf32>, %out: memref<4x6xf32>) {
  %c6 = arith.constant 6 : index
  %c12 = arith.constant 12 : index
  loop.parallel (%i, %j) = (0, 0) to (4, 6) step (1, 1) {
    %m = arith.muli %i, %c6 : index
    %lin = arith.addi %m, %j : index
    %a = arith.divui %lin, %c12 : index
    %b = arith.remui %lin, %c12 : index
    %am = arith.muli %a, %c12 : index
    %lin2 = arith.addi %am, %b : index
    %p = arith.divui %lin2, %c6 : index
    %q = arith.remui %lin2, %c6 : index
    %v = loop.load %x[%p, %q] : memref<4x6xf32>
    loop.store %v, %out[%i, %j] : memref<4x6xf32>
  }
  loop.return
}

// -----

// Delinearizing a linear index into three dimensions (2x3x4), signed and
// unsigned forms: each quotient and remainder is one loop index.
// CHECK-LABEL: loop.kernel @delinearize
// CHECK-NEXT:    loop.parallel (%[[A:.*]], %[[B:.*]], %[[C:.*]]) = (0, 0, 0) to (2, 3, 4) step (1, 1, 1) {
// CHECK-NEXT:      loop.load %{{.*}}[%[[A]], %[[B]], %[[C]]]
loop.kernel @delinearize(%x: memref<2x3x4xf32>, %out: memref<2x3x4xf32>) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  loop.parallel (%a, %b, %c) = (0, 0, 0) to (2, 3, 4) step (1, 1, 1) {
    %a12 = arith.muli %a, %c12 : index
    %b4 = arith.muli %c4, %b : index
    %s = arith.addi %a12, %b4 : index
    %lin = arith.addi %c, %s : index
    %p = arith.divsi %lin, %c12 : index
    %t = arith.divui %lin, %c4 : index
    %q = arith.remsi %t, %c3 : index
    %r = arith.remui %lin, %c4 : index
    %v = loop.load %x[%p, %q, %r] : memref<2x3x4xf32>
    loop.store %v, %out[%a, %b, %c] : memref<2x3x4xf32>
  }
  loop.return
}

// -----

// Constants, identities and constant chains.
// CHECK-LABEL: loop.kernel @identities
// CHECK-NEXT:    loop.parallel (%[[I:.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[C6:.*]] = arith.constant 6 : index
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[I]], %[[C6]] : index
// CHECK-NEXT:      %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[M]], %[[C5]] : index
// CHECK-NEXT:      %[[C12:.*]] = arith.constant 12 : index
// CHECK-NEXT:      %[[Z2:.*]] = arith.constant 0 : index
// CHECK-NEXT:      loop.store %{{.*}}, %{{.*}}[%[[I]], %[[S]], %[[Z]], %[[C12]], %[[I]], %[[Z2]]]
loop.kernel @identities(%out: memref<8x64x1x16x8x1xf32>, %v: f32) {
  loop.parallel (%i) = (0) to (8) step (1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %a = arith.addi %i, %c0 : index
    %b = arith.muli %a, %c1 : index
    %m = arith.muli %c2, %b : index
    %m3 = arith.muli %m, %c3 : index
    %s = arith.addi %m3, %c2 : index
    %s3 = arith.addi %s, %c3 : index
    %z = arith.muli %i, %c0 : index
    %k = arith.muli %c3, %c4 : index
    %d = arith.divui %i, %c1 : index
    %r = arith.remui %i, %c1 : index
    loop.store %v, %out[%b, %s3, %z, %k, %d, %r] : memref<8x64x1x16x8x1xf32>
  }
  loop.return
}

// -----

// Not folded: the rest is not provably in [0, c) (%j runs to 9 > 8), so only
// the multiple of 8 leaves the division; an index of unknown range (a kernel
// argument) blocks the fold; a negative coefficient too.
// CHECK-LABEL: loop.kernel @not_folded
// CHECK-NEXT:    loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 10) step (1, 1) {
// CHECK-NEXT:      %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[I]], %[[C8]]
// CHECK-NEXT:      %[[L:.*]] = arith.addi %[[M]], %[[J]]
// CHECK-NEXT:      %[[JQ:.*]] = arith.divui %[[J]], %[[C8]]
// CHECK-NEXT:      %[[Q:.*]] = arith.addi %[[I]], %[[JQ]]
// CHECK-NEXT:      %[[R:.*]] = arith.remui %[[J]], %[[C8]]
// CHECK-NEXT:      %[[N:.*]] = arith.addi %[[M]], %{{.*}}
// CHECK-NEXT:      %[[NQ:.*]] = arith.divui %[[N]], %[[C8]]
// CHECK-NEXT:      %[[D:.*]] = arith.subi %[[J]], %[[M]]
// CHECK-NEXT:      %[[DQ:.*]] = arith.divsi %[[D]], %[[C8]]
// CHECK-NEXT:      loop.store %{{.*}}, %{{.*}}[%[[Q]], %[[R]], %[[NQ]], %[[DQ]], %[[L]]]
loop.kernel @not_folded(%out: memref<8x8x8x8x64xf32>, %v: f32, %n: index) {
  loop.parallel (%i, %j) = (0, 0) to (4, 10) step (1, 1) {
    %c8 = arith.constant 8 : index
    %m = arith.muli %i, %c8 : index
    %lin = arith.addi %m, %j : index
    %q = arith.divui %lin, %c8 : index
    %r = arith.remui %lin, %c8 : index
    %u = arith.addi %m, %n : index
    %uq = arith.divui %u, %c8 : index
    %d = arith.subi %j, %m : index
    %dq = arith.divsi %d, %c8 : index
    loop.store %v, %out[%q, %r, %uq, %dq, %lin] : memref<8x8x8x8x64xf32>
  }
  loop.return
}

// -----

// Edge tiles after `tile`: the inner bound min(4, 16 - t) is 4 for every
// tile start of an exact tiling, and becomes static; the clamps of a pad map whose index is in
// bounds fold, and so do the comparisons and the select they decide.
// CHECK-LABEL: loop.kernel @ranges
// CHECK-NEXT:    loop.parallel (%[[T:.*]]) = (0) to (16) step (4) {
// CHECK-NEXT:      loop.parallel (%[[E:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[T]], %[[E]] : index
// CHECK-NEXT:        %[[V:.*]] = loop.load %{{.*}}[%[[I]]]
// CHECK-NEXT:        loop.store %[[V]], %{{.*}}[%[[I]]]
loop.kernel @ranges(%x: memref<16xf32>, %out: memref<16xf32>, %pad: f32) {
  loop.parallel (%t) = (0) to (16) step (4) {
    %c16 = arith.constant 16 : index
    %rest = arith.subi %c16, %t : index
    %c4 = arith.constant 4 : index
    %n = arith.minsi %c4, %rest : index
    loop.parallel (%e) = (0) to (%n) step (1) {
      %i = arith.addi %t, %e : index
      %c0 = arith.constant 0 : index
      %c15 = arith.constant 15 : index
      %lo = arith.maxsi %i, %c0 : index
      %clamped = arith.minsi %lo, %c15 : index
      %inside = arith.cmpi ult, %i, %c16 : index
      %v = loop.load %x[%clamped] : memref<16xf32>
      %s = arith.select %inside, %v, %pad : f32
      loop.store %s, %out[%i] : memref<16xf32>
    }
  }
  loop.return
}

// -----

// Comparisons and clamps the ranges do not decide stay.
// CHECK-LABEL: loop.kernel @undecided
// CHECK:         arith.maxsi
// CHECK-NEXT:    arith.minsi
// CHECK-NEXT:    arith.cmpi
// CHECK-NEXT:    loop.load
// CHECK-NEXT:    arith.select
loop.kernel @undecided(%x: memref<16xf32>, %out: memref<20xf32>, %pad: f32) {
  loop.parallel (%j) = (0) to (20) step (1) {
    %c2 = arith.constant 2 : index
    %i = arith.subi %j, %c2 : index
    %c0 = arith.constant 0 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %lo = arith.maxsi %i, %c0 : index
    %clamped = arith.minsi %lo, %c15 : index
    %inside = arith.cmpi ult, %i, %c16 : index
    %v = loop.load %x[%clamped] : memref<16xf32>
    %s = arith.select %inside, %v, %pad : f32
    loop.store %s, %out[%j] : memref<20xf32>
  }
  loop.return
}
