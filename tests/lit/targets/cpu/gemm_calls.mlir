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
// strides, C's row stride; the elements of one matrix of A, B and C, the
// matrix (a plain dot: the only one), the panel's scratch slice; the
// panel's first column. Without `gemm-calls`
// the nest is register-tiled as before (INLINE); below min-work, or with
// threads=1, the panels are not threaded (FEW).
// CHECK-LABEL: loop.kernel @matmul(
// CHECK-SAME:    %[[A:[^:]*]]: memref<6x40xf32>, %[[B:[^:]*]]: memref<40x16xf32>, %[[C:[^:]*]]: memref<6x16xf32>, %[[P:[^:]*]]: memref<2x40x8xf32>)
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    loop.parallel (%[[J:.*]]) = (0) to (16) step (8) attributes {threads = 2 : i64} {
// CHECK-NEXT:      %[[MATRIX:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[W:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[SLOT:.*]] = arith.divui %[[J]], %[[W]] : index
// CHECK-NEXT:      %[[M:.*]] = arith.constant 6 : index
// CHECK-NEXT:      %[[N:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[K:.*]] = arith.constant 40 : index
// CHECK-NEXT:      %[[AR:.*]] = arith.constant 40 : index
// CHECK-NEXT:      %[[AK:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[BK:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[BC:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[CR:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[AB:.*]] = arith.constant 240 : index
// CHECK-NEXT:      %[[BB:.*]] = arith.constant 640 : index
// CHECK-NEXT:      %[[CB:.*]] = arith.constant 96 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4(%[[A]], %[[B]], %[[C]], %[[P]], %[[M]], %[[N]], %[[K]], %[[AR]], %[[AK]], %[[BK]], %[[BC]], %[[CR]], %[[AB]], %[[BB]], %[[CB]], %[[MATRIX]], %[[SLOT]], %[[J]]) : (memref<6x40xf32>, memref<40x16xf32>, memref<6x16xf32>, memref<2x40x8xf32>, index, index, index, index, index, index, index, index, index, index, index, index, index, index)
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
// (C[j, i]: i is the column, so Bᵀ's j is the routine's row).
// CHECK-LABEL: loop.kernel @transposed(
// CHECK-SAME:    %[[A:[^:]*]]: memref<7x16xf32>, %[[B:[^:]*]]: memref<3x7xf32>, %[[C:[^:]*]]: memref<3x16xf32>, %[[P:[^:]*]]: memref<2x7x8xf32>)
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (16) step (8) attributes {threads = 2 : i64} {
// CHECK-NEXT:      %[[MATRIX:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[W:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[SLOT:.*]] = arith.divui %[[J]], %[[W]] : index
// CHECK-NEXT:      %[[M:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[N:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[K:.*]] = arith.constant 7 : index
// CHECK-NEXT:      %[[AR:.*]] = arith.constant 7 : index
// CHECK-NEXT:      %[[AK:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[BK:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[BC:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[CR:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[AB:.*]] = arith.constant 21 : index
// CHECK-NEXT:      %[[BB:.*]] = arith.constant 112 : index
// CHECK-NEXT:      %[[CB:.*]] = arith.constant 48 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4(%[[B]], %[[A]], %[[C]], %[[P]], %[[M]], %[[N]], %[[K]], %[[AR]], %[[AK]], %[[BK]], %[[BC]], %[[CR]], %[[AB]], %[[BB]], %[[CB]], %[[MATRIX]], %[[SLOT]], %[[J]])
loop.kernel @transposed(%at: memref<7x16xf32>, %bt: memref<3x7xf32>, %c: memref<3x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (16, 3) step (1, 1) {
    %s = loop.for %k = 0 to 7 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %at[%k, %i] : memref<7x16xf32>
      %y = loop.load %bt[%j, %k] : memref<3x7xf32>
      %p = arith.mulf %y, %x : f32
      %n = arith.addf %p, %acc : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%j, %i] : memref<3x16xf32>
  }
  loop.return
}

// -----

// Left inline: f64, a single row, an initial value other than +0.0, a
// sum longer than the routine splits as block-sums does (65536 terms), a
// kernel that reads the output, a nest that stores two outputs, 5 columns
// (the routine's panel of 8 would compute 3 for nothing).
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
// CHECK-LABEL: loop.kernel @two_outputs(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @narrow(
// CHECK-NOT:     loop.call
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
loop.kernel @two_outputs(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>, %d: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %d[%i, %j] : memref<4x16xf32>
    %r = arith.maximumf %s, %zero : f32
    loop.store %r, %c[%i, %j] : memref<4x16xf32>
  }
  loop.return
}

loop.kernel @narrow(%a: memref<4x8xf32>, %b: memref<8x5xf32>, %c: memref<4x5xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 5) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x5xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x5xf32>
  }
  loop.return
}

// -----

// A fused epilogue (a bias along the columns, a relu) runs after each
// call, on the panel's sums the routine stored to C: a nest over the
// panel's rows and its columns (up to N, which is not whole panels here:
// the last panel's columns are clamped) that loads each sum back, runs
// the epilogue's ops on it and stores the result.
// CHECK-LABEL: loop.kernel @epilogue(
// CHECK-SAME:    %[[A:[^:]*]]: memref<4x8xf32>, %[[B:[^:]*]]: memref<8x12xf32>, %[[BIAS:[^:]*]]: memref<12xf32>, %[[C:[^:]*]]: memref<4x12xf32>, %[[P:[^:]*]]: memref<2x8x8xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (12) step (8)
// CHECK:           arith.constant 4 : index
// CHECK-NEXT:      %[[N:.*]] = arith.constant 12 : index
// CHECK:           loop.call @xlir.gemm_f32_4x4(%[[A]], %[[B]], %[[C]], %[[P]],
// CHECK-NEXT:      %[[W:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[TO:.*]] = arith.addi %[[J]], %[[W]] : index
// CHECK-NEXT:      %[[END:.*]] = arith.minui %[[TO]], %[[N]] : index
// CHECK-NEXT:      loop.parallel (%[[I2:.*]], %[[J2:.*]]) = (0, %[[J]]) to (4, %[[END]]) step (1, 1) {
// CHECK-NEXT:        %[[S:.*]] = loop.load %[[C]][%[[I2]], %[[J2]]] : memref<4x12xf32>
// CHECK-NEXT:        %[[BJ:.*]] = loop.load %[[BIAS]][%[[J2]]] : memref<12xf32>
// CHECK-NEXT:        %[[T:.*]] = arith.addf %[[S]], %[[BJ]] : f32
// CHECK-NEXT:        %[[R:.*]] = arith.maximumf %[[T]], %[[ZERO]] : f32
// CHECK-NEXT:        loop.store %[[R]], %[[C]][%[[I2]], %[[J2]]] : memref<4x12xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
loop.kernel @epilogue(%a: memref<4x8xf32>, %b: memref<8x12xf32>, %bias: memref<12xf32>, %c: memref<4x12xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 12) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x12xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %bj = loop.load %bias[%j] : memref<12xf32>
    %t = arith.addf %s, %bj : f32
    %r = arith.maximumf %t, %zero : f32
    loop.store %r, %c[%i, %j] : memref<4x12xf32>
  }
  loop.return
}

// -----

// A batched dot (the batch C's, A's and B's leading index): the matrices
// are the threaded loop, each with a scratch slice that its panels, a
// sequential loop, take in turn; each call on its matrix (the batch's
// row-major position). The epilogue (a tanh) runs on each panel: N is
// whole panels, so its nest runs over the panel's 8 columns from 0 (a trip
// count LLVM knows: no scalar remainder loop), offset inside. A
// batched dot of shorter sums is left inline (small matrices ran slower
// through the routine).
// CHECK-LABEL: loop.kernel @batched(
// CHECK-SAME:    %[[A:[^:]*]]: memref<3x4x256xf32>, %[[B:[^:]*]]: memref<3x256x16xf32>, %[[C:[^:]*]]: memref<3x4x16xf32>, %[[P:[^:]*]]: memref<3x256x8xf32>)
// CHECK:         loop.parallel (%[[H:.*]]) = (0) to (3) step (1) attributes {threads = 2 : i64} {
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[SIZE:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[ZS:.*]] = arith.muli %[[Z]], %[[SIZE]] : index
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[ZS]], %[[H]] : index
// CHECK-NEXT:      loop.for %[[J:.*]] = 0 to 16 step 8 {
// CHECK:             %[[AB:.*]] = arith.constant 1024 : index
// CHECK-NEXT:        %[[BB:.*]] = arith.constant 4096 : index
// CHECK-NEXT:        %[[CB:.*]] = arith.constant 64 : index
// CHECK-NEXT:        loop.call @xlir.gemm_f32_4x4(%[[A]], %[[B]], %[[C]], %[[P]], {{.*}}, %[[AB]], %[[BB]], %[[CB]], %[[AT]], %[[AT]], %[[J]])
// CHECK-NOT:         arith.minui
// CHECK:             loop.parallel (%[[I2:.*]], %[[D:.*]]) = (0, 0) to (4, 8) step (1, 1) {
// CHECK-NEXT:          %[[J2:.*]] = arith.addi %[[J]], %[[D]] : index
// CHECK-NEXT:          %[[S:.*]] = loop.load %[[C]][%[[H]], %[[I2]], %[[J2]]] : memref<3x4x16xf32>
// CHECK-NEXT:          %[[T:.*]] = math.tanh %[[S]] : f32
// CHECK-NEXT:          loop.store %[[T]], %[[C]][%[[H]], %[[I2]], %[[J2]]] : memref<3x4x16xf32>
// CHECK-LABEL: loop.kernel @batched_short(
// CHECK-NOT:     loop.call
loop.kernel @batched(%a: memref<3x4x256xf32>, %b: memref<3x256x16xf32>, %c: memref<3x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%h, %i, %j) = (0, 0, 0) to (3, 4, 16) step (1, 1, 1) {
    %s = loop.for %k = 0 to 256 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%h, %i, %k] : memref<3x4x256xf32>
      %y = loop.load %b[%h, %k, %j] : memref<3x256x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %t = math.tanh %s : f32
    loop.store %t, %c[%h, %i, %j] : memref<3x4x16xf32>
  }
  loop.return
}
loop.kernel @batched_short(%a: memref<3x4x255xf32>, %b: memref<3x255x16xf32>, %c: memref<3x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%h, %i, %j) = (0, 0, 0) to (3, 4, 16) step (1, 1, 1) {
    %s = loop.for %k = 0 to 255 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%h, %i, %k] : memref<3x4x255xf32>
      %y = loop.load %b[%h, %k, %j] : memref<3x255x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%h, %i, %j] : memref<3x4x16xf32>
  }
  loop.return
}

// -----

// Several row dimensions (an activation [2, 3, 16] times a weight): C's
// indices before the column that A holds together (before k, or after it)
// are one row index, M = 6, the row stride that of the last of them. The
// epilogue's nest runs over each of them. Left inline where A is longer
// than the nest along a row dimension after the first (a slice: the rows
// would not be one index).
// CHECK-LABEL: loop.kernel @rows(
// CHECK-SAME:    %[[A:[^:]*]]: memref<2x3x16xf32>, %[[B:[^:]*]]: memref<16x8xf32>, %[[C:[^:]*]]: memref<2x3x8xf32>, %[[P:[^:]*]]: memref<1x16x8xf32>)
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (8) step (8)
// CHECK:           %[[M:.*]] = arith.constant 6 : index
// CHECK-NEXT:      %[[N:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[K:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[AR:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[AK:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[BK:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[BC:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[CR:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[AB:.*]] = arith.constant 96 : index
// CHECK-NEXT:      %[[BB:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[CB:.*]] = arith.constant 48 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4(%[[A]], %[[B]], %[[C]], %[[P]], %[[M]], %[[N]], %[[K]], %[[AR]], %[[AK]], %[[BK]], %[[BC]], %[[CR]], %[[AB]], %[[BB]], %[[CB]],
// CHECK:           loop.parallel (%[[R0:.*]], %[[R1:.*]], %[[D:.*]]) = (0, 0, 0) to (2, 3, 8) step (1, 1, 1) {
// CHECK-NEXT:        %[[J2:.*]] = arith.addi %[[J]], %[[D]] : index
// CHECK-NEXT:        %[[S:.*]] = loop.load %[[C]][%[[R0]], %[[R1]], %[[J2]]] : memref<2x3x8xf32>
// CHECK-NEXT:        %[[T:.*]] = math.tanh %[[S]] : f32
// CHECK-NEXT:        loop.store %[[T]], %[[C]][%[[R0]], %[[R1]], %[[J2]]] : memref<2x3x8xf32>
// CHECK-LABEL: loop.kernel @rows_after_k(
// CHECK:           %[[M:.*]] = arith.constant 6 : index
// CHECK-NEXT:      %[[N:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[K:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[AR:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[AK:.*]] = arith.constant 6 : index
// CHECK:           loop.call @xlir.gemm_f32_4x4(
// CHECK-LABEL: loop.kernel @rows_sliced(
// CHECK-NOT:     loop.call
loop.kernel @rows(%a: memref<2x3x16xf32>, %b: memref<16x8xf32>, %c: memref<2x3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%h, %i, %j) = (0, 0, 0) to (2, 3, 8) step (1, 1, 1) {
    %s = loop.for %k = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%h, %i, %k] : memref<2x3x16xf32>
      %y = loop.load %b[%k, %j] : memref<16x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %t = math.tanh %s : f32
    loop.store %t, %c[%h, %i, %j] : memref<2x3x8xf32>
  }
  loop.return
}
loop.kernel @rows_after_k(%a: memref<16x2x3xf32>, %b: memref<16x8xf32>, %c: memref<2x3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%h, %i, %j) = (0, 0, 0) to (2, 3, 8) step (1, 1, 1) {
    %s = loop.for %k = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%k, %h, %i] : memref<16x2x3xf32>
      %y = loop.load %b[%k, %j] : memref<16x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%h, %i, %j] : memref<2x3x8xf32>
  }
  loop.return
}
loop.kernel @rows_sliced(%a: memref<2x4x16xf32>, %b: memref<16x8xf32>, %c: memref<2x3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%h, %i, %j) = (0, 0, 0) to (2, 3, 8) step (1, 1, 1) {
    %s = loop.for %k = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%h, %i, %k] : memref<2x4x16xf32>
      %y = loop.load %b[%k, %j] : memref<16x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%h, %i, %j] : memref<2x3x8xf32>
  }
  loop.return
}

// -----

// Ops before the sum that it does not use (a residual r + s, fused in
// before the dot's sum) run in the epilogue's nest, before the ops after
// the sum, as they ran in the nest. An op before the sum that the sum
// uses (a producer fused into it: a scale of A) keeps the nest inline.
// CHECK-LABEL: loop.kernel @residual(
// CHECK-SAME:    %[[A:[^:]*]]: memref<4x8xf32>, %[[B:[^:]*]]: memref<8x8xf32>, %[[R:[^:]*]]: memref<4x8xf32>, %[[S:[^:]*]]: memref<4x8xf32>, %[[C:[^:]*]]: memref<4x8xf32>, %{{.*}}: memref<1x8x8xf32>)
// CHECK:           loop.call @xlir.gemm_f32_4x4(%[[A]], %[[B]], %[[C]],
// CHECK:           loop.parallel (%[[I:.*]], %[[D:.*]]) = (0, 0) to (4, 8) step (1, 1) {
// CHECK-NEXT:        %[[J:.*]] = arith.addi %{{.*}}, %[[D]] : index
// CHECK-NEXT:        %[[SUM:.*]] = loop.load %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[X:.*]] = loop.load %[[R]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[Y:.*]] = loop.load %[[S]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[XY:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        %[[T:.*]] = arith.addf %[[XY]], %[[SUM]] : f32
// CHECK-NEXT:        loop.store %[[T]], %[[C]][%[[I]], %[[J]]]
// CHECK-LABEL: loop.kernel @scaled_operand(
// CHECK-NOT:     loop.call
loop.kernel @residual(%a: memref<4x8xf32>, %b: memref<8x8xf32>, %r: memref<4x8xf32>, %s: memref<4x8xf32>, %c: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
    %x = loop.load %r[%i, %j] : memref<4x8xf32>
    %y = loop.load %s[%i, %j] : memref<4x8xf32>
    %xy = arith.addf %x, %y : f32
    %sum = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %u = loop.load %a[%i, %k] : memref<4x8xf32>
      %v = loop.load %b[%k, %j] : memref<8x8xf32>
      %p = arith.mulf %u, %v : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %t = arith.addf %xy, %sum : f32
    loop.store %t, %c[%i, %j] : memref<4x8xf32>
  }
  loop.return
}
loop.kernel @scaled_operand(%a: memref<4x8xf32>, %b: memref<8x8xf32>, %r: memref<4x8xf32>, %c: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
    %x = loop.load %r[%i, %j] : memref<4x8xf32>
    %sum = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %u = loop.load %a[%i, %k] : memref<4x8xf32>
      %w = arith.mulf %u, %x : f32
      %v = loop.load %b[%k, %j] : memref<8x8xf32>
      %p = arith.mulf %w, %v : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %sum, %c[%i, %j] : memref<4x8xf32>
  }
  loop.return
}

// -----

// A batched dot of short sums (at most 64 terms) over matrices at least 256
// square (512 for longer sums), its sums
// stored as they are: the batched entry computes whole matrices. The
// matrices are cut into groups (at most 16, here 3 of 1), the threaded
// loop, each group a call with a scratch slice of its own for every
// panel of B (3 x 32 panels x K x 8): arguments A, B, C, the scratch; M, N,
// K and the strides as the dot routine's; the group's first matrix, its
// matrices, its slice. Unthreaded (FEW), one call takes all the matrices.
// With an epilogue, smaller matrices, or sums of 65 terms over 256-square
// matrices, the dot stays inline.
// CHECK-LABEL: loop.kernel @whole(
// CHECK-SAME:    %[[A:[^:]*]]: memref<3x256x2xf32>, %[[B:[^:]*]]: memref<3x2x256xf32>, %[[C:[^:]*]]: memref<3x256x256xf32>, %[[P:[^:]*]]: memref<3x32x2x8xf32>)
// CHECK:         loop.parallel (%[[G:.*]]) = (0) to (3) step (1) attributes {threads = 2 : i64} {
// CHECK-NEXT:      %[[PER:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.muli %[[G]], %[[PER]] : index
// CHECK-NEXT:      %[[ALL:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[LEFT:.*]] = arith.subi %[[ALL]], %[[FIRST]] : index
// CHECK-NEXT:      %[[PER2:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.minui %[[LEFT]], %[[PER2]] : index
// CHECK:           %[[CB:.*]] = arith.constant 65536 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4.batched(%[[A]], %[[B]], %[[C]], %[[P]], {{.*}}, %[[CB]], %[[FIRST]], %[[COUNT]], %[[G]])
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// FEW-LABEL: loop.kernel @whole(
// FEW-SAME:    memref<1x32x2x8xf32>)
// FEW:         loop.parallel (%{{.*}}) = (0) to (1) step (1) {
// FEW:           loop.call @xlir.gemm_f32_4x4.batched(
// CHECK-LABEL: loop.kernel @whole_epilogue(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @whole_too_small(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @whole_sum_too_long(
// CHECK-NOT:     loop.call
loop.kernel @whole(%a: memref<3x256x2xf32>, %b: memref<3x2x256xf32>, %c: memref<3x256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%h, %i, %j) = (0, 0, 0) to (3, 256, 256) step (1, 1, 1) {
    %s = loop.for %k = 0 to 2 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%h, %i, %k] : memref<3x256x2xf32>
      %y = loop.load %b[%h, %k, %j] : memref<3x2x256xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%h, %i, %j] : memref<3x256x256xf32>
  }
  loop.return
}
loop.kernel @whole_epilogue(%a: memref<3x512x2xf32>, %b: memref<3x2x512xf32>, %c: memref<3x512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%h, %i, %j) = (0, 0, 0) to (3, 512, 512) step (1, 1, 1) {
    %s = loop.for %k = 0 to 2 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%h, %i, %k] : memref<3x512x2xf32>
      %y = loop.load %b[%h, %k, %j] : memref<3x2x512xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %t = math.tanh %s : f32
    loop.store %t, %c[%h, %i, %j] : memref<3x512x512xf32>
  }
  loop.return
}
loop.kernel @whole_too_small(%a: memref<3x128x2xf32>, %b: memref<3x2x512xf32>, %c: memref<3x128x512xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%h, %i, %j) = (0, 0, 0) to (3, 128, 512) step (1, 1, 1) {
    %s = loop.for %k = 0 to 2 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%h, %i, %k] : memref<3x128x2xf32>
      %y = loop.load %b[%h, %k, %j] : memref<3x2x512xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%h, %i, %j] : memref<3x128x512xf32>
  }
  loop.return
}
loop.kernel @whole_sum_too_long(%a: memref<3x256x65xf32>, %b: memref<3x65x256xf32>, %c: memref<3x256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%h, %i, %j) = (0, 0, 0) to (3, 256, 256) step (1, 1, 1) {
    %s = loop.for %k = 0 to 65 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%h, %i, %k] : memref<3x256x65xf32>
      %y = loop.load %b[%h, %k, %j] : memref<3x65x256xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%h, %i, %j] : memref<3x256x256xf32>
  }
  loop.return
}
