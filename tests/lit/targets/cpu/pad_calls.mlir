// RUN: xlir-opt %s -p 'pad-calls{mr=4 lanes=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'pad-calls{mr=4 lanes=4}' --split-input-file | xlir-opt --split-input-file | filecheck %s
// RUN: not xlir-opt %s -p 'pad-calls{lanes=-1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: pad-calls: mr, lanes, threads and min-work must be non-negative, got mr=0 lanes=-1 threads=0 min-work=1048576

// `hlo-to-loop`'s zero pad of a 2x4x4x3 image by one on each side of its
// rows and columns: one call of the pad entry for the 12 rows (image, y)
// of 18 elements (the channels, padded on neither side, merged into the
// columns: 6 x 3), marked with the work of the loop it replaces (two ops
// per element). Arguments: S, D; the first row and the rows; D's sizes
// past the first (1 x 2 x 6 x 18 with the leading one), S's (1 x 2 x 4 x
// 12); the low padding (0, 0, 1, 3).
// CHECK-LABEL: loop.kernel @image(
// CHECK-SAME:    %[[S:[^:]*]]: memref<2x4x4x3xf32>, %[[D:[^:]*]]: memref<2x6x6x3xf32>)
// CHECK:         loop.parallel (%[[G:.*]]) = (0) to (1) step (1) {
// CHECK-NEXT:      %[[GR:.*]] = arith.constant 12 : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.muli %[[G]], %[[GR]] : index
// CHECK-NEXT:      %[[ROWS:.*]] = arith.constant 12 : index
// CHECK-NEXT:      %[[LEFT:.*]] = arith.subi %[[ROWS]], %[[FIRST]] : index
// CHECK-NEXT:      %[[GR2:.*]] = arith.constant 12 : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.minui %[[LEFT]], %[[GR2]] : index
// CHECK-NEXT:      %[[O1:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[O2:.*]] = arith.constant 6 : index
// CHECK-NEXT:      %[[O3:.*]] = arith.constant 18 : index
// CHECK-NEXT:      %[[I0:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[I1:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[I2:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[I3:.*]] = arith.constant 12 : index
// CHECK-NEXT:      %[[L0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[L1:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[L2:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[L3:.*]] = arith.constant 3 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4.pad(%[[S]], %[[D]], %[[FIRST]], %[[COUNT]], %[[O1]], %[[O2]], %[[O3]], %[[I0]], %[[I1]], %[[I2]], %[[I3]], %[[L0]], %[[L1]], %[[L2]], %[[L3]]) {work = 432 : i64}
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
loop.kernel @image(%0: memref<2x4x4x3xf32>, %1: memref<2x6x6x3xf32>) {
  %2 = arith.constant 0 : index
  %3 = arith.constant 1 : index
  %4 = arith.constant 3 : index
  %5 = arith.constant 2 : index
  %6 = arith.constant 0.000000e+00 : f32
  loop.parallel (%7, %8, %9, %10) = (0, 0, 0, 0) to (2, 6, 6, 3) step (1, 1, 1, 1) {
    %11 = arith.cmpi sge, %7, %2 : index
    %12 = arith.cmpi sle, %7, %3 : index
    %13 = arith.andi %11, %12 : i1
    %14 = arith.maxsi %7, %2 : index
    %15 = arith.minsi %14, %3 : index
    %16 = arith.subi %8, %3 : index
    %17 = arith.cmpi sge, %16, %2 : index
    %18 = arith.cmpi sle, %16, %4 : index
    %19 = arith.andi %17, %18 : i1
    %20 = arith.andi %13, %19 : i1
    %21 = arith.maxsi %16, %2 : index
    %22 = arith.minsi %21, %4 : index
    %23 = arith.subi %9, %3 : index
    %24 = arith.cmpi sge, %23, %2 : index
    %25 = arith.cmpi sle, %23, %4 : index
    %26 = arith.andi %24, %25 : i1
    %27 = arith.andi %20, %26 : i1
    %28 = arith.maxsi %23, %2 : index
    %29 = arith.minsi %28, %4 : index
    %30 = arith.cmpi sge, %10, %2 : index
    %31 = arith.cmpi sle, %10, %5 : index
    %32 = arith.andi %30, %31 : i1
    %33 = arith.andi %27, %32 : i1
    %34 = arith.maxsi %10, %2 : index
    %35 = arith.minsi %34, %5 : index
    %36 = loop.load %0[%15, %22, %29, %35] : memref<2x4x4x3xf32>
    %37 = arith.select %33, %36, %6 : f32
    loop.store %37, %1[%7, %8, %9, %10] : memref<2x6x6x3xf32>
  }
  loop.return
}

// -----

// Rows of 10002 elements: groups of two rows (at least 16384 elements),
// three groups for five rows, the last of one.
// CHECK-LABEL: loop.kernel @groups(
// CHECK:         loop.parallel (%[[G:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:      arith.constant 2 : index
// CHECK-NEXT:      arith.muli
// CHECK-NEXT:      arith.constant 5 : index
// CHECK:           loop.call @xlir.gemm_f32_4x4.pad({{.*}}) {work = 40008 : i64}
// CHECK-NOT:     loop.store

loop.kernel @groups(%0: memref<5x10000xf32>, %1: memref<5x10002xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cl = arith.constant 9999 : index
  %z = arith.constant 0.000000e+00 : f32
  loop.parallel (%i, %j) = (0, 0) to (5, 10002) step (1, 1) {
    %e = arith.subi %j, %c1 : index
    %lo = arith.cmpi sge, %e, %c0 : index
    %hi = arith.cmpi sle, %e, %cl : index
    %in = arith.andi %lo, %hi : i1
    %m = arith.maxsi %e, %c0 : index
    %k = arith.minsi %m, %cl : index
    %x = loop.load %0[%i, %k] : memref<5x10000xf32>
    %s = arith.select %in, %x, %z : f32
    loop.store %s, %1[%i, %j] : memref<5x10002xf32>
  }
  loop.return
}

// -----

// A pad before only: `hlo-to-loop` clamps and tests the one side a read
// can cross (`maxsi`, `sge`), and the entry takes it (a row of 4 padded to
// 5 by 1 before).
// CHECK-LABEL: loop.kernel @before_only(
// CHECK:         loop.call @xlir.gemm_f32_4x4.pad(
// CHECK-NOT:     loop.load

loop.kernel @before_only(%0: memref<5x4xf32>, %1: memref<5x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.000000e+00 : f32
  loop.parallel (%i, %j) = (0, 0) to (5, 5) step (1, 1) {
    %e = arith.subi %j, %c1 : index
    %lo = arith.cmpi sge, %e, %c0 : index
    %k = arith.maxsi %e, %c0 : index
    %x = loop.load %0[%i, %k] : memref<5x4xf32>
    %s = arith.select %lo, %x, %z : f32
    loop.store %s, %1[%i, %j] : memref<5x5xf32>
  }
  loop.return
}

// -----

// Left as loops: a pad of 1.0, a select on half the bounds test (the
// elements past the input's end would be its last one's), a crop (the
// input read from its second element).
// CHECK-LABEL: loop.kernel @one(
// CHECK-NOT:     loop.call
// CHECK:         loop.store

loop.kernel @one(%0: memref<5x4xf32>, %1: memref<5x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cl = arith.constant 3 : index
  %z = arith.constant 1.000000e+00 : f32
  loop.parallel (%i, %j) = (0, 0) to (5, 6) step (1, 1) {
    %e = arith.subi %j, %c1 : index
    %lo = arith.cmpi sge, %e, %c0 : index
    %hi = arith.cmpi sle, %e, %cl : index
    %in = arith.andi %lo, %hi : i1
    %m = arith.maxsi %e, %c0 : index
    %k = arith.minsi %m, %cl : index
    %x = loop.load %0[%i, %k] : memref<5x4xf32>
    %s = arith.select %in, %x, %z : f32
    loop.store %s, %1[%i, %j] : memref<5x6xf32>
  }
  loop.return
}

// -----

// CHECK-LABEL: loop.kernel @half_test(
// CHECK-NOT:     loop.call
// CHECK:         loop.store

loop.kernel @half_test(%0: memref<5x4xf32>, %1: memref<5x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cl = arith.constant 3 : index
  %z = arith.constant 0.000000e+00 : f32
  loop.parallel (%i, %j) = (0, 0) to (5, 6) step (1, 1) {
    %e = arith.subi %j, %c1 : index
    %lo = arith.cmpi sge, %e, %c0 : index
    %hi = arith.cmpi sle, %e, %cl : index
    %in = arith.andi %lo, %hi : i1
    %m = arith.maxsi %e, %c0 : index
    %k = arith.minsi %m, %cl : index
    %x = loop.load %0[%i, %k] : memref<5x4xf32>
    %s = arith.select %lo, %x, %z : f32
    loop.store %s, %1[%i, %j] : memref<5x6xf32>
  }
  loop.return
}

// -----

// CHECK-LABEL: loop.kernel @crop(
// CHECK-NOT:     loop.call
// CHECK:         loop.store

loop.kernel @crop(%0: memref<5x7xf32>, %1: memref<5x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cl = arith.constant 6 : index
  %z = arith.constant 0.000000e+00 : f32
  loop.parallel (%i, %j) = (0, 0) to (5, 6) step (1, 1) {
    %e = arith.addi %j, %c1 : index
    %lo = arith.cmpi sge, %e, %c0 : index
    %hi = arith.cmpi sle, %e, %cl : index
    %in = arith.andi %lo, %hi : i1
    %m = arith.maxsi %e, %c0 : index
    %k = arith.minsi %m, %cl : index
    %x = loop.load %0[%i, %k] : memref<5x7xf32>
    %s = arith.select %in, %x, %z : f32
    loop.store %s, %1[%i, %j] : memref<5x6xf32>
  }
  loop.return
}
