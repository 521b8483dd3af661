// RUN: xlir-opt %s -p 'gemm-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'gemm-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | xlir-opt --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'gemm-calls{mr=4 lanes=4}' --split-input-file | filecheck %s --check-prefix=FEW
// RUN: xlir-opt %s -p 'gemm-calls{mr=4 lanes=4 threads=1 min-work=0}' --split-input-file | filecheck %s --check-prefix=FEW
// RUN: xlir-opt %s -p 'register-tile{mr=4 nr=8 lanes=4}' --split-input-file | filecheck %s --check-prefix=INLINE
// RUN: not xlir-opt %s -p 'gemm-calls{lanes=-1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: gemm-calls: mr, lanes, threads and min-work must be non-negative, got mr=0 lanes=-1 threads=0 min-work=1048576

// A 6x16x40 matmul: one call of the 4 x 8 routine per panel of 8 columns,
// the panels' loop marked for threads (min-work=0), the packed panels a
// scratch argument the host allocates around the launch. Arguments: A, B,
// C, the scratch; M, N, K; A's row and k strides, B's k and column
// strides, C's row stride; the panel's first column. Without `gemm-calls`
// the nest is register-tiled as before (INLINE); below min-work, or with
// threads=1, the panels are not threaded (FEW).
// CHECK-LABEL: loop.kernel @matmul(
// CHECK-SAME:    %[[A:[^:]*]]: memref<6x40xf32>, %[[B:[^:]*]]: memref<40x16xf32>, %[[C:[^:]*]]: memref<6x16xf32>, %[[P:[^:]*]]: memref<2x40x8xf32>)
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    loop.parallel (%[[J:.*]]) = (0) to (16) step (8) attributes {threads = 2 : i64} {
// CHECK-NEXT:      %[[M:.*]] = arith.constant 6 : index
// CHECK-NEXT:      %[[N:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[K:.*]] = arith.constant 40 : index
// CHECK-NEXT:      %[[AR:.*]] = arith.constant 40 : index
// CHECK-NEXT:      %[[AK:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[BK:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[BC:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[CR:.*]] = arith.constant 16 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4(%[[A]], %[[B]], %[[C]], %[[P]], %[[M]], %[[N]], %[[K]], %[[AR]], %[[AK]], %[[BK]], %[[BC]], %[[CR]], %[[J]]) : memref<6x40xf32>, memref<40x16xf32>, memref<6x16xf32>, memref<2x40x8xf32>, index, index, index, index, index, index, index, index, index
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// CHECK-LABEL: func.func @main(
// CHECK:         %[[S:.*]] = device.alloc : memref<2x40x8xf32>
// CHECK-NEXT:    device.launch @matmul(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
// CHECK-NEXT:    device.free %[[S]]
// FEW-LABEL: loop.kernel @matmul(
// FEW:         loop.parallel (%{{.*}}) = (0) to (16) step (8) {
// FEW:           loop.call @xlir.gemm_f32_4x4(
// INLINE-LABEL: loop.kernel @matmul(
// INLINE-NOT:   loop.call
// INLINE:       attributes {jam = array<i64: 4, 8>}
loop.kernel @matmul(%a: memref<6x40xf32>, %b: memref<40x16xf32>, %c: memref<6x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (6, 16) step (1, 1) {
    %s = loop.for %k = 0 to 40 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<6x40xf32>
      %y = loop.load %b[%k, %j] : memref<40x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<6x16xf32>
  }
  loop.return
}
func.func @main(%a: memref<6x40xf32>, %b: memref<40x16xf32>) -> memref<6x16xf32> {
  %stream = device.default_stream
  %c = device.alloc : memref<6x16xf32>
  device.launch @matmul(%a, %b, %c) on %stream : memref<6x40xf32>, memref<40x16xf32>, memref<6x16xf32>
  device.synchronize %stream
  func.return %c : memref<6x16xf32>
}

// -----

// Transposed operands are strides: Aᵀ[k, i] (row stride 1, k stride 5),
// Bᵀ[j, k] read as B (k stride 1, column stride 7), the product's operands
// and the sum's in the other order; the output's dimensions swapped
// (C[j, i]: i is the column, so Bᵀ's j is the routine's row). A panel of
// 5 columns is a partial one, and the only one: no threads.
// CHECK-LABEL: loop.kernel @transposed(
// CHECK-SAME:    %[[A:[^:]*]]: memref<7x5xf32>, %[[B:[^:]*]]: memref<3x7xf32>, %[[C:[^:]*]]: memref<3x5xf32>, %[[P:[^:]*]]: memref<1x7x8xf32>)
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (5) step (8) {
// CHECK-NEXT:      %[[M:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[N:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[K:.*]] = arith.constant 7 : index
// CHECK-NEXT:      %[[AR:.*]] = arith.constant 7 : index
// CHECK-NEXT:      %[[AK:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[BK:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[BC:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[CR:.*]] = arith.constant 5 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4(%[[B]], %[[A]], %[[C]], %[[P]], %[[M]], %[[N]], %[[K]], %[[AR]], %[[AK]], %[[BK]], %[[BC]], %[[CR]], %[[J]])
loop.kernel @transposed(%at: memref<7x5xf32>, %bt: memref<3x7xf32>, %c: memref<3x5xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (5, 3) step (1, 1) {
    %s = loop.for %k = 0 to 7 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %at[%k, %i] : memref<7x5xf32>
      %y = loop.load %bt[%j, %k] : memref<3x7xf32>
      %p = arith.mulf %y, %x : f32
      %n = arith.addf %p, %acc : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%j, %i] : memref<3x5xf32>
  }
  loop.return
}

// -----

// Left inline: an epilogue after the sum (relu), f64, a single row, an
// initial value other than +0.0, a sum longer than the routine splits as
// block-sums does (65536 terms), a kernel that reads the output.
// CHECK-LABEL: loop.kernel @epilogue(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @f64(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @one_row(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @negative_zero(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @long_sum(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @reads_output(
// CHECK-NOT:     loop.call
loop.kernel @epilogue(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %r = arith.maximumf %s, %zero : f32
    loop.store %r, %c[%i, %j] : memref<4x16xf32>
  }
  loop.return
}
loop.kernel @f64(%a: memref<4x8xf64>, %b: memref<8x16xf64>, %c: memref<4x16xf64>) {
  %zero = arith.constant 0.0 : f64
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f64) {
      %x = loop.load %a[%i, %k] : memref<4x8xf64>
      %y = loop.load %b[%k, %j] : memref<8x16xf64>
      %p = arith.mulf %x, %y : f64
      %n = arith.addf %acc, %p : f64
      loop.yield %n : f64
    }
    loop.store %s, %c[%i, %j] : memref<4x16xf64>
  }
  loop.return
}
loop.kernel @one_row(%a: memref<1x8xf32>, %b: memref<8x16xf32>, %c: memref<1x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (1, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<1x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<1x16xf32>
  }
  loop.return
}
loop.kernel @negative_zero(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  %zero = arith.constant -0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x16xf32>
  }
  loop.return
}
loop.kernel @long_sum(%a: memref<4x65793xf32>, %b: memref<65793x16xf32>, %c: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %s = loop.for %k = 0 to 65793 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x65793xf32>
      %y = loop.load %b[%k, %j] : memref<65793x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x16xf32>
  }
  loop.return
}
loop.kernel @reads_output(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>, %d: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x16xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %v = loop.load %c[%i, %j] : memref<4x16xf32>
    loop.store %v, %d[%i, %j] : memref<4x16xf32>
  }
  loop.return
}
