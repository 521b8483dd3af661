// RUN: xlir-opt %s -p 'row-dot-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'row-dot-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | xlir-opt --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'row-dot-calls{mr=4 lanes=4 threads=1 min-work=0}' --split-input-file | filecheck %s --check-prefix=FEW
// RUN: xlir-opt %s -p 'row-dot-calls{mr=4 lanes=4}' --split-input-file | filecheck %s --check-prefix=FEW
// RUN: not xlir-opt %s -p 'row-dot-calls{threads=-1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: row-dot-calls: mr, lanes, threads and min-work must be non-negative, got mr=0 lanes=0 threads=-1 min-work=1048576

// A row dot of 100 rows of 300 terms: one call of the row-dot entry per
// group of 64 rows (the last one 36), the groups' loop marked for threads
// (min-work=0). Arguments: X, Y, C; the group's first row and its rows;
// K, X's and Y's row strides. With threads=1, or below min-work, the
// groups are not threaded (FEW).
// CHECK-LABEL: loop.kernel @row_dot(
// CHECK-SAME:    %[[X:[^:]*]]: memref<100x300xf32>, %[[Y:[^:]*]]: memref<100x300xf32>, %[[C:[^:]*]]: memref<100xf32>)
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    loop.parallel (%[[I:.*]]) = (0) to (100) step (64) attributes {threads = 2 : i64} {
// CHECK-NEXT:      %[[R:.*]] = arith.constant 100 : index
// CHECK-NEXT:      %[[LEFT:.*]] = arith.subi %[[R]], %[[I]] : index
// CHECK-NEXT:      %[[G:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.minui %[[LEFT]], %[[G]] : index
// CHECK-NEXT:      %[[K:.*]] = arith.constant 300 : index
// CHECK-NEXT:      %[[XR:.*]] = arith.constant 300 : index
// CHECK-NEXT:      %[[YR:.*]] = arith.constant 300 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4.row_dot(%[[X]], %[[Y]], %[[C]], %[[I]], %[[COUNT]], %[[K]], %[[XR]], %[[YR]]) : (memref<100x300xf32>, memref<100x300xf32>, memref<100xf32>, index, index, index, index, index)
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// FEW-LABEL: loop.kernel @row_dot(
// FEW:         loop.parallel (%{{.*}}) = (0) to (100) step (64) {
// FEW:           loop.call @xlir.gemm_f32_4x4.row_dot(
loop.kernel @row_dot(%x: memref<100x300xf32>, %y: memref<100x300xf32>, %c: memref<100xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (100) step (1) {
    %s = loop.for %k = 0 to 300 step 1 iter_args(%acc = %zero) -> (f32) {
      %a = loop.load %x[%i, %k] : memref<100x300xf32>
      %b = loop.load %y[%i, %k] : memref<100x300xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i] : memref<100xf32>
  }
  loop.return
}

// -----

// The operands' rows may be of different lengths (a row stride each, K the
// shorter one's sum), the product's and the sum's operands in either order.
// CHECK-LABEL: loop.kernel @strides(
// CHECK-SAME:    %[[X:[^:]*]]: memref<16x40xf32>, %[[Y:[^:]*]]: memref<16x24xf32>, %[[C:[^:]*]]: memref<16xf32>)
// CHECK:         %[[K:.*]] = arith.constant 20 : index
// CHECK-NEXT:    %[[XR:.*]] = arith.constant 40 : index
// CHECK-NEXT:    %[[YR:.*]] = arith.constant 24 : index
// CHECK-NEXT:    loop.call @xlir.gemm_f32_4x4.row_dot(%[[X]], %[[Y]], %[[C]], %{{.*}}, %{{.*}}, %[[K]], %[[XR]], %[[YR]])
loop.kernel @strides(%x: memref<16x40xf32>, %y: memref<16x24xf32>, %c: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %k = 0 to 20 step 1 iter_args(%acc = %zero) -> (f32) {
      %b = loop.load %y[%i, %k] : memref<16x24xf32>
      %a = loop.load %x[%i, %k] : memref<16x40xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %p, %acc : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i] : memref<16xf32>
  }
  loop.return
}

// -----

// Left inline: f64, fewer rows or terms than the entry's 8 lanes, a sum
// longer than the routine splits as block-sums does (65537 terms), an
// initial value other than +0.0, a sum of squares (one load), a kernel
// that reads the output, a column of Y (not a row), an epilogue.
// CHECK-LABEL: loop.kernel @f64(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @few_rows(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @few_terms(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @long_sum(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @negative_zero(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @squares(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @reads_output(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @column(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @epilogue(
// CHECK-NOT:     loop.call
loop.kernel @f64(%x: memref<16x32xf64>, %y: memref<16x32xf64>, %c: memref<16xf64>) {
  %zero = arith.constant 0.0 : f64
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %k = 0 to 32 step 1 iter_args(%acc = %zero) -> (f64) {
      %a = loop.load %x[%i, %k] : memref<16x32xf64>
      %b = loop.load %y[%i, %k] : memref<16x32xf64>
      %p = arith.mulf %a, %b : f64
      %n = arith.addf %acc, %p : f64
      loop.yield %n : f64
    }
    loop.store %s, %c[%i] : memref<16xf64>
  }
  loop.return
}
loop.kernel @few_rows(%x: memref<7x32xf32>, %y: memref<7x32xf32>, %c: memref<7xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (7) step (1) {
    %s = loop.for %k = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %a = loop.load %x[%i, %k] : memref<7x32xf32>
      %b = loop.load %y[%i, %k] : memref<7x32xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i] : memref<7xf32>
  }
  loop.return
}
loop.kernel @few_terms(%x: memref<16x7xf32>, %y: memref<16x7xf32>, %c: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %k = 0 to 7 step 1 iter_args(%acc = %zero) -> (f32) {
      %a = loop.load %x[%i, %k] : memref<16x7xf32>
      %b = loop.load %y[%i, %k] : memref<16x7xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i] : memref<16xf32>
  }
  loop.return
}
loop.kernel @long_sum(%x: memref<8x65537xf32>, %y: memref<8x65537xf32>, %c: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    %s = loop.for %k = 0 to 65537 step 1 iter_args(%acc = %zero) -> (f32) {
      %a = loop.load %x[%i, %k] : memref<8x65537xf32>
      %b = loop.load %y[%i, %k] : memref<8x65537xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i] : memref<8xf32>
  }
  loop.return
}
loop.kernel @negative_zero(%x: memref<16x32xf32>, %y: memref<16x32xf32>, %c: memref<16xf32>) {
  %zero = arith.constant -0.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %k = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %a = loop.load %x[%i, %k] : memref<16x32xf32>
      %b = loop.load %y[%i, %k] : memref<16x32xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i] : memref<16xf32>
  }
  loop.return
}
loop.kernel @squares(%x: memref<16x32xf32>, %c: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %k = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %a = loop.load %x[%i, %k] : memref<16x32xf32>
      %p = arith.mulf %a, %a : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i] : memref<16xf32>
  }
  loop.return
}
loop.kernel @reads_output(%x: memref<16x32xf32>, %y: memref<16x32xf32>, %c: memref<16xf32>, %d: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %k = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %a = loop.load %x[%i, %k] : memref<16x32xf32>
      %b = loop.load %y[%i, %k] : memref<16x32xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i] : memref<16xf32>
  }
  loop.parallel (%i) = (0) to (16) step (1) {
    %v = loop.load %c[%i] : memref<16xf32>
    loop.store %v, %d[%i] : memref<16xf32>
  }
  loop.return
}
loop.kernel @column(%x: memref<16x32xf32>, %y: memref<32x16xf32>, %c: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %k = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %a = loop.load %x[%i, %k] : memref<16x32xf32>
      %b = loop.load %y[%k, %i] : memref<32x16xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i] : memref<16xf32>
  }
  loop.return
}
loop.kernel @epilogue(%x: memref<16x32xf32>, %y: memref<16x32xf32>, %c: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %k = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %a = loop.load %x[%i, %k] : memref<16x32xf32>
      %b = loop.load %y[%i, %k] : memref<16x32xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %t = math.tanh %s : f32
    loop.store %t, %c[%i] : memref<16xf32>
  }
  loop.return
}
