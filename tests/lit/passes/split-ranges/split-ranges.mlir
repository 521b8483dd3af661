// RUN: xlir-opt %s -p split-ranges --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'split-ranges{max-pieces=2}' --split-input-file | filecheck %s --check-prefix=TWO
// RUN: not xlir-opt %s -p 'split-ranges{max-pieces=0}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: split-ranges: max-pieces must be at least 1, got 0

// A concatenation of two along the columns (what hlo-to-loop makes of it):
// on [0, 4) the clamp of the first operand's index takes %j and the
// comparison is true, on [4, 6) the second's index is %j - 4: two plain
// copies, and the loads the select no longer chooses are gone.
// CHECK-LABEL: loop.kernel @concat
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (3, 4) step (1, 1) {
// CHECK-NEXT:      %[[A:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:      loop.store %[[A]], %{{.*}}[%[[I]], %[[J]]] : memref<3x6xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.parallel (%[[I2:.*]], %[[J2:.*]]) = (0, 4) to (3, 6) step (1, 1) {
// CHECK-NEXT:      %[[K:.*]] = arith.subi %[[J2]], %{{.*}} : index
// CHECK-NEXT:      %[[B:.*]] = loop.load %{{.*}}[%[[I2]], %[[K]]] : memref<3x2xf32>
// CHECK-NEXT:      loop.store %[[B]], %{{.*}}[%[[I2]], %[[J2]]] : memref<3x6xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// With room for two pieces only, the same split.
// TWO-LABEL: loop.kernel @concat
// TWO-COUNT-2: loop.parallel
// TWO-NOT:     arith.select
loop.kernel @concat(%x: memref<3x4xf32>, %y: memref<3x2xf32>, %out: memref<3x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  loop.parallel (%i, %j) = (0, 0) to (3, 6) step (1, 1) {
    %ja = arith.minsi %j, %c3 : index
    %a = loop.load %x[%i, %ja] : memref<3x4xf32>
    %k = arith.subi %j, %c4 : index
    %k0 = arith.maxsi %k, %c0 : index
    %kb = arith.minsi %k0, %c1 : index
    %b = loop.load %y[%i, %kb] : memref<3x2xf32>
    %first = arith.cmpi slt, %j, %c4 : index
    %v = arith.select %first, %a, %b : f32
    loop.store %v, %out[%i, %j] : memref<3x6xf32>
  }
  loop.return
}

// -----

// A pad by one row above and one column on each side, rows first: the
// border rows, where the row comparison is false, are plain fills (their
// column comparisons go with the loads), and only the middle rows are split
// by columns: five pieces, where splitting columns first would make nine.
// CHECK-LABEL: loop.kernel @pad
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (1, 6) step (1, 1) {
// CHECK-NEXT:      loop.store %[[ZERO:[a-z0-9_]+]], %{{.*}} : memref<3x6xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.parallel (%{{.*}}, %{{.*}}) = (1, 0) to (3, 1) step (1, 1) {
// CHECK-NEXT:      loop.store %[[ZERO]]
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.parallel (%[[I:.*]], %[[J:.*]]) = (1, 1) to (3, 5) step (1, 1) {
// CHECK-NEXT:      %[[R:.*]] = arith.subi %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[C:.*]] = arith.subi %[[J]], %{{.*}} : index
// CHECK-NEXT:      %[[V:.*]] = loop.load %{{.*}}[%[[R]], %[[C]]] : memref<2x4xf32>
// CHECK-NEXT:      loop.store %[[V]], %{{.*}}[%[[I]], %[[J]]] : memref<3x6xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.parallel (%{{.*}}, %{{.*}}) = (1, 5) to (3, 6) step (1, 1) {
// CHECK-NEXT:      loop.store %[[ZERO]]
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// Two pieces are not enough for the first split (three): left whole.
// TWO-LABEL: loop.kernel @pad
// TWO-COUNT-1: loop.parallel
// TWO:         arith.select
loop.kernel @pad(%x: memref<2x4xf32>, %out: memref<3x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (3, 6) step (1, 1) {
    %r = arith.subi %i, %c1 : index
    %r_in = arith.cmpi sge, %r, %c0 : index
    %r0 = arith.maxsi %r, %c0 : index
    %c = arith.subi %j, %c1 : index
    %c_low = arith.cmpi sge, %c, %c0 : index
    %c_high = arith.cmpi sle, %c, %c3 : index
    %c_in = arith.andi %c_low, %c_high : i1
    %in = arith.andi %r_in, %c_in : i1
    %c0_ = arith.maxsi %c, %c0 : index
    %c3_ = arith.minsi %c0_, %c3 : index
    %v = loop.load %x[%r0, %c3_] : memref<2x4xf32>
    %w = arith.select %in, %v, %zero : f32
    loop.store %w, %out[%i, %j] : memref<3x6xf32>
  }
  loop.return
}

// -----

// A reverse then a concatenation along the rows: split at row 4.
// CHECK-LABEL: loop.kernel @reverse_concat
// CHECK:         loop.parallel (%[[I:.*]], %{{.*}}) = (0, 0) to (4, 2) step (1, 1) {
// CHECK-NEXT:      arith.subi %{{.*}}, %[[I]] : index
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (4, 0) to (8, 2) step (1, 1) {
// CHECK-NOT:     arith.select
// CHECK:         loop.return
loop.kernel @reverse_concat(%x: memref<4x2xf32>, %out: memref<8x2xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  loop.parallel (%i, %j) = (0, 0) to (8, 2) step (1, 1) {
    %low = arith.cmpi slt, %i, %c4 : index
    %ri = arith.subi %c3, %i : index
    %ra = arith.maxsi %ri, %c0 : index
    %a = loop.load %x[%ra, %j] : memref<4x2xf32>
    %k = arith.subi %i, %c4 : index
    %k0 = arith.maxsi %k, %c0 : index
    %k3 = arith.minsi %k0, %c3 : index
    %b = loop.load %x[%k3, %j] : memref<4x2xf32>
    %v = arith.select %low, %a, %b : f32
    loop.store %v, %out[%i, %j] : memref<8x2xf32>
  }
  loop.return
}

// -----

// Left as they are: a dynamic upper bound (no points to split it at), a
// choice on a loaded index (not linear in a loop index), and an unsigned
// comparison.
// CHECK-LABEL: loop.kernel @left_alone
// CHECK-COUNT-3: loop.parallel
// CHECK-NOT:     loop.parallel
loop.kernel @left_alone(%x: memref<8xf32>, %n: memref<index>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %m = loop.load %n[] : memref<index>
  loop.parallel (%i) = (0) to (%m) step (1) {
    %low = arith.cmpi slt, %i, %c4 : index
    %v = loop.load %x[%i] : memref<8xf32>
    %w = arith.select %low, %v, %zero : f32
    loop.store %w, %out[%i] : memref<8xf32>
  }
  loop.parallel (%i) = (0) to (8) step (1) {
    %k = loop.load %n[] : memref<index>
    %low = arith.cmpi slt, %i, %k : index
    %v = loop.load %x[%i] : memref<8xf32>
    %w = arith.select %low, %v, %zero : f32
    loop.store %w, %out[%i] : memref<8xf32>
  }
  loop.parallel (%i) = (0) to (8) step (1) {
    %low = arith.cmpi ult, %i, %c4 : index
    %v = loop.load %x[%i] : memref<8xf32>
    %w = arith.select %low, %v, %zero : f32
    loop.store %w, %out[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// A concatenate along a last dimension of 2 (complex numbers' parts after
// split-complex) splits into two pieces of one column each; they stay one
// nest over the rows, each column's ops with its index a constant, not two
// nests each reading the row's operands again.
// CHECK-LABEL: loop.kernel @columns
// CHECK:         loop.parallel (%[[I:.*]], %{{.*}}) = (0, 0) to (8, 1) step (1, 1) {
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK:           %[[SUM:.*]] = arith.addf
// CHECK-NEXT:      loop.store %[[SUM]], %{{.*}}[%[[I]], %[[C0]]] : memref<8x2xf32>
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK:           %[[PRODUCT:.*]] = arith.mulf
// CHECK-NEXT:      loop.store %[[PRODUCT]], %{{.*}}[%[[I]], %[[C1]]] : memref<8x2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
loop.kernel @columns(%0: memref<8x2xf32>, %1: memref<8x2xf32>, %2: memref<8x2xf32>) {
  %3 = arith.constant 0 : index
  %4 = arith.constant 1 : index
  loop.parallel (%5, %6) = (0, 0) to (8, 2) step (1, 1) {
    %7 = arith.maxsi %6, %3 : index
    %8 = arith.minsi %7, %3 : index
    %9 = arith.cmpi slt, %6, %4 : index
    %10 = arith.subi %6, %4 : index
    %11 = arith.maxsi %10, %3 : index
    %12 = arith.minsi %11, %3 : index
    %13 = loop.load %0[%5, %8] : memref<8x2xf32>
    %14 = arith.addi %8, %4 : index
    %15 = loop.load %1[%5, %14] : memref<8x2xf32>
    %16 = arith.addf %13, %15 : f32
    %17 = loop.load %0[%5, %12] : memref<8x2xf32>
    %18 = arith.addi %12, %4 : index
    %19 = loop.load %1[%5, %18] : memref<8x2xf32>
    %20 = arith.mulf %17, %19 : f32
    %21 = arith.select %9, %16, %20 : f32
    loop.store %21, %2[%5, %6] : memref<8x2xf32>
  }
  loop.return
}
