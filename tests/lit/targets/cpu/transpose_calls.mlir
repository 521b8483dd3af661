// RUN: xlir-opt %s -p 'transpose-calls{mr=4 lanes=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'transpose-calls{mr=4 lanes=4}' --split-input-file | xlir-opt --split-input-file | filecheck %s
// RUN: not xlir-opt %s -p 'transpose-calls{lanes=-1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: transpose-calls: mr, lanes, threads and min-work must be non-negative, got mr=0 lanes=-1 threads=0 min-work=1048576

// `dot-layout`'s transpose of attention heads' keys, 2x4x64x48 to
// 2x4x48x64: the batch and head dimensions, which stay together in S, are
// merged (8 with stride 3072); D's 384 rows of 64 in two groups of 256 rows
// (at least 16384 elements), the last cut to what is left, each call
// marked with the work of the loop it replaces (two ops per element).
// Arguments: S, D; the first row and the rows; D's sizes past the first
// (1 x 8 x 48 x 64 with the leading one); S's strides of D's dimensions
// (0, 3072, 1, 48).
// CHECK-LABEL: loop.kernel @heads(
// CHECK-SAME:    %[[S:[^:]*]]: memref<2x4x64x48xf32>, %[[D:[^:]*]]: memref<2x4x48x64xf32>)
// CHECK:         loop.parallel (%[[G:.*]]) = (0) to (2) step (1) {
// CHECK-NEXT:      %[[GR:.*]] = arith.constant 256 : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.muli %[[G]], %[[GR]] : index
// CHECK-NEXT:      %[[ROWS:.*]] = arith.constant 384 : index
// CHECK-NEXT:      %[[LEFT:.*]] = arith.subi %[[ROWS]], %[[FIRST]] : index
// CHECK-NEXT:      %[[GR2:.*]] = arith.constant 256 : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.minui %[[LEFT]], %[[GR2]] : index
// CHECK-NEXT:      %[[O1:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[O2:.*]] = arith.constant 48 : index
// CHECK-NEXT:      %[[O3:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[S1:.*]] = arith.constant 3072 : index
// CHECK-NEXT:      %[[S2:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[S3:.*]] = arith.constant 48 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4.transpose(%[[S]], %[[D]], %[[FIRST]], %[[COUNT]], %[[O1]], %[[O2]], %[[O3]], %[[S0]], %[[S1]], %[[S2]], %[[S3]]) {work = 32768 : i64}
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
loop.kernel @heads(%0: memref<2x4x64x48xf32>, %1: memref<2x4x48x64xf32>) {
  loop.parallel (%2, %3, %4, %5) = (0, 0, 0, 0) to (2, 4, 48, 64) step (1, 1, 1, 1) {
    %6 = loop.load %0[%2, %3, %5, %4] : memref<2x4x64x48xf32>
    loop.store %6, %1[%2, %3, %4, %5] : memref<2x4x48x64xf32>
  }
  loop.return
}

// -----

// A matrix: one group of its 5 rows of 3, S's strides (0, 0, 1, 5).
// CHECK-LABEL: loop.kernel @matrix(
// CHECK:         loop.parallel (%{{.*}}) = (0) to (1) step (1) {
// CHECK:           %[[O1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[O2:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[O3:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[S1:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[S2:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[S3:.*]] = arith.constant 5 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4.transpose({{.*}}, %[[O1]], %[[O2]], %[[O3]], %[[S0]], %[[S1]], %[[S2]], %[[S3]]) {work = 30 : i64}
// CHECK-NOT:     loop.store
loop.kernel @matrix(%0: memref<3x5xf32>, %1: memref<5x3xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (5, 3) step (1, 1) {
    %x = loop.load %0[%j, %i] : memref<3x5xf32>
    loop.store %x, %1[%i, %j] : memref<5x3xf32>
  }
  loop.return
}

// -----

// Rows of 10002 elements: groups of whole blocks of `lanes` rows (4, past
// 16384 elements), three groups for nine rows, the last of one.
// CHECK-LABEL: loop.kernel @long_rows(
// CHECK:         loop.parallel (%{{.*}}) = (0) to (3) step (1) {
// CHECK-NEXT:      arith.constant 4 : index
// CHECK-NEXT:      arith.muli
// CHECK-NEXT:      arith.constant 9 : index
// CHECK:           loop.call @xlir.gemm_f32_4x4.transpose({{.*}}) {work = 80016 : i64}
// CHECK-NOT:     loop.store
loop.kernel @long_rows(%0: memref<10002x9xf32>, %1: memref<9x10002xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (9, 10002) step (1, 1) {
    %x = loop.load %0[%j, %i] : memref<10002x9xf32>
    loop.store %x, %1[%i, %j] : memref<9x10002xf32>
  }
  loop.return
}

// -----

// Left as loops: a transpose with an add after it (fused), one that keeps
// the last dimension (rows contiguous in both), f64 elements, a load at a
// shifted index, the store's indices out of order, five dimensions that do
// not merge, an empty array.
// CHECK-LABEL: loop.kernel @fused(
// CHECK-NOT:     loop.call
// CHECK:         loop.store
loop.kernel @fused(%0: memref<3x5xf32>, %1: memref<5x3xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (5, 3) step (1, 1) {
    %x = loop.load %0[%j, %i] : memref<3x5xf32>
    %y = arith.addf %x, %x : f32
    loop.store %y, %1[%i, %j] : memref<5x3xf32>
  }
  loop.return
}

// -----

// CHECK-LABEL: loop.kernel @keeps_last(
// CHECK-NOT:     loop.call
// CHECK:         loop.store
loop.kernel @keeps_last(%0: memref<3x5x8xf32>, %1: memref<5x3x8xf32>) {
  loop.parallel (%i, %j, %k) = (0, 0, 0) to (5, 3, 8) step (1, 1, 1) {
    %x = loop.load %0[%j, %i, %k] : memref<3x5x8xf32>
    loop.store %x, %1[%i, %j, %k] : memref<5x3x8xf32>
  }
  loop.return
}

// -----

// CHECK-LABEL: loop.kernel @f64(
// CHECK-NOT:     loop.call
// CHECK:         loop.store
loop.kernel @f64(%0: memref<3x5xf64>, %1: memref<5x3xf64>) {
  loop.parallel (%i, %j) = (0, 0) to (5, 3) step (1, 1) {
    %x = loop.load %0[%j, %i] : memref<3x5xf64>
    loop.store %x, %1[%i, %j] : memref<5x3xf64>
  }
  loop.return
}

// -----

// CHECK-LABEL: loop.kernel @shifted(
// CHECK-NOT:     loop.call
// CHECK:         loop.store
loop.kernel @shifted(%0: memref<4x5xf32>, %1: memref<5x3xf32>) {
  %c1 = arith.constant 1 : index
  loop.parallel (%i, %j) = (0, 0) to (5, 3) step (1, 1) {
    %e = arith.addi %j, %c1 : index
    %x = loop.load %0[%e, %i] : memref<4x5xf32>
    loop.store %x, %1[%i, %j] : memref<5x3xf32>
  }
  loop.return
}

// -----

// CHECK-LABEL: loop.kernel @store_permuted(
// CHECK-NOT:     loop.call
// CHECK:         loop.store
loop.kernel @store_permuted(%0: memref<5x5xf32>, %1: memref<5x5xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (5, 5) step (1, 1) {
    %x = loop.load %0[%i, %j] : memref<5x5xf32>
    loop.store %x, %1[%j, %i] : memref<5x5xf32>
  }
  loop.return
}

// -----

// CHECK-LABEL: loop.kernel @rank_5(
// CHECK-NOT:     loop.call
// CHECK:         loop.store
loop.kernel @rank_5(%0: memref<2x3x4x5x6xf32>, %1: memref<6x5x4x3x2xf32>) {
  loop.parallel (%a, %b, %c, %d, %e) = (0, 0, 0, 0, 0) to (6, 5, 4, 3, 2) step (1, 1, 1, 1, 1) {
    %x = loop.load %0[%e, %d, %c, %b, %a] : memref<2x3x4x5x6xf32>
    loop.store %x, %1[%a, %b, %c, %d, %e] : memref<6x5x4x3x2xf32>
  }
  loop.return
}

// -----

// CHECK-LABEL: loop.kernel @empty(
// CHECK-NOT:     loop.call
// CHECK:         loop.store
loop.kernel @empty(%0: memref<0x5xf32>, %1: memref<5x0xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (5, 0) step (1, 1) {
    %x = loop.load %0[%j, %i] : memref<0x5xf32>
    loop.store %x, %1[%i, %j] : memref<5x0xf32>
  }
  loop.return
}
