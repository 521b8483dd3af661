// RUN: xlir-opt %s -p 'int8-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'int8-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | xlir-opt --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'int8-calls{mr=4 lanes=16 byte-dot-bits=256}' --split-input-file | filecheck %s --check-prefix=NARROW
// RUN: not xlir-opt %s -p 'int8-calls{threads=-1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: int8-calls: mr, lanes, threads and min-work must be non-negative, got mr=0 lanes=0 threads=-1 min-work=1048576

// An int8 dot on byte quads (`int-dot-quads`, `dot-quads`) with an
// epilogue into f32: per panel of 8 columns (threaded: min-work=0), a loop
// over blocks of 64 rows (the last 36), each a call of the int8 routine
// into the panel's scratch block of sums, then the epilogue on that block,
// as vector copies (every panel whole). Arguments: A, B, the sums, the
// panel scratch; the block's first row and rows; N, Kq, A's and B's row
// strides; the sums' row stride and first word; the panel's slot and first
// column; 0: B's bytes unsigned. With vectors wider than the machine's
// vpdpbusd, the nest stays inline (NARROW).
// CHECK-LABEL: loop.kernel @quads(
// CHECK-SAME:    %[[A:[^:]*]]: memref<100x16xi32>, %[[B:[^:]*]]: memref<16x32xi32>, %[[R:[^:]*]]: memref<100xi32>, %[[C:[^:]*]]: memref<100x32xf32>, %[[P:[^:]*]]: memref<4x16x8xi32>, %[[S:[^:]*]]: memref<4x64x8xi32>)
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (32) step (8) attributes {threads = 2 : i64} {
// CHECK:           %[[SLOT:.*]] = arith.divui %[[J]], %{{.*}} : index
// CHECK-NEXT:      loop.for %[[I0:.*]] = 0 to 100 step 64 {
// CHECK-NEXT:        %[[M:.*]] = arith.constant 100 : index
// CHECK-NEXT:        %[[LEFT:.*]] = arith.subi %[[M]], %[[I0]] : index
// CHECK-NEXT:        %[[BLOCK:.*]] = arith.constant 64 : index
// CHECK-NEXT:        %[[COUNT:.*]] = arith.minui %[[LEFT]], %[[BLOCK]] : index
// CHECK-NEXT:        %[[SR:.*]] = arith.constant 8 : index
// CHECK-NEXT:        %[[WORDS:.*]] = arith.constant 512 : index
// CHECK-NEXT:        %[[SAT:.*]] = arith.muli %[[SLOT]], %[[WORDS]] : index
// CHECK-NEXT:        %[[N:.*]] = arith.constant 32 : index
// CHECK-NEXT:        %[[KQ:.*]] = arith.constant 16 : index
// CHECK-NEXT:        %[[AR:.*]] = arith.constant 16 : index
// CHECK-NEXT:        %[[BK:.*]] = arith.constant 32 : index
// CHECK-NEXT:        %[[U:.*]] = arith.constant 0 : index
// CHECK-NEXT:        loop.call @xlir.gemm_i8_4x4(%[[A]], %[[B]], %[[S]], %[[P]], %[[I0]], %[[COUNT]], %[[N]], %[[KQ]], %[[AR]], %[[BK]], %[[SR]], %[[SAT]], %[[SLOT]], %[[J]], %[[U]])
// CHECK-NEXT:        %[[END:.*]] = arith.addi %[[I0]], %[[COUNT]] : index
// CHECK-NEXT:        loop.parallel (%[[I:.*]], %[[O:.*]]) = (%[[I0]], 0) to (%[[END]], 8) step (1, 8) attributes {jam = array<i64: 1, 8>} {
// CHECK:               %[[AT:.*]] = arith.subi %[[I]], %[[I0]] : index
// CHECK-NEXT:          loop.load %[[S]][%[[SLOT]], %[[AT]], %[[O]]] : memref<4x64x8xi32>, vector<4xi32>
// CHECK:               arith.sitofp %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK:               loop.store %{{.*}}, %[[C]][%[[I]], %{{.*}}] : memref<100x32xf32>, vector<4xf32>
// CHECK-NOT:     arith.dot_quads
// CHECK:         loop.return
// NARROW-LABEL: loop.kernel @quads(
// NARROW-NOT:     loop.call
// NARROW:         arith.dot_quads
loop.kernel @quads(%a: memref<100x16xi32>, %b: memref<16x32xi32>, %r: memref<100xi32>, %c: memref<100x32xf32>) {
  %zero = arith.constant 0 : i32
  %k = arith.constant 128 : i32
  loop.parallel (%i, %j) = (0, 0) to (100, 32) step (1, 1) {
    %s = loop.for %q = 0 to 16 step 1 iter_args(%acc = %zero) -> (i32) {
      %u = loop.load %b[%q, %j] : memref<16x32xi32>
      %v = loop.load %a[%i, %q] : memref<100x16xi32>
      %d = arith.dot_quads %acc, %u, %v : i32
      loop.yield %d : i32
    }
    %row = loop.load %r[%i] : memref<100xi32>
    %off = arith.muli %row, %k : i32
    %t = arith.subi %s, %off : i32
    %f = arith.sitofp %t : i32 to f32
    loop.store %f, %c[%i, %j] : memref<100x32xf32>
  }
  loop.return
}

// -----

// An i32 C without an epilogue takes the sums itself: row stride 12, the
// block's first word `first * 12 + j`. A's bytes are the unsigned ones here
// (a u8 x i8 dot): the last argument 1. One block of the 6 rows; a last
// panel of 4 columns (N = 12).
// CHECK-LABEL: loop.kernel @plain(
// CHECK-SAME:    %[[A:[^:]*]]: memref<6x8xi32>, %[[B:[^:]*]]: memref<8x12xi32>, %[[C:[^:]*]]: memref<6x12xi32>, %[[P:[^:]*]]: memref<2x8x8xi32>)
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (12) step (8)
// CHECK:           loop.for %[[I0:.*]] = 0 to 6 step 6 {
// CHECK:             %[[CR:.*]] = arith.constant 12 : index
// CHECK-NEXT:        %[[ROW:.*]] = arith.muli %[[I0]], %[[CR]] : index
// CHECK-NEXT:        %[[CAT:.*]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK:             %[[U:.*]] = arith.constant 1 : index
// CHECK-NEXT:        loop.call @xlir.gemm_i8_4x4(%[[A]], %[[B]], %[[C]], %[[P]], %[[I0]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[CR]], %[[CAT]], %{{.*}}, %[[J]], %[[U]])
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
loop.kernel @plain(%a: memref<6x8xi32>, %b: memref<8x12xi32>, %c: memref<6x12xi32>) {
  %zero = arith.constant 0 : i32
  loop.parallel (%i, %j) = (0, 0) to (6, 12) step (1, 1) {
    %s = loop.for %q = 0 to 8 step 1 iter_args(%acc = %zero) -> (i32) {
      %u = loop.load %a[%i, %q] : memref<6x8xi32>
      %v = loop.load %b[%q, %j] : memref<8x12xi32>
      %d = arith.dot_quads %acc, %u, %v : i32
      loop.yield %d : i32
    }
    loop.store %s, %c[%i, %j] : memref<6x12xi32>
  }
  loop.return
}

// -----

// Rows of two dimensions ([2, 3] of C, one row index of A) and a last panel
// of 4 columns: the epilogue's nest runs over the panel's columns of C
// (to min(12 - j, 8)), scalar, each row's indices from its position.
// CHECK-LABEL: loop.kernel @rows_and_part(
// CHECK:         loop.call @xlir.gemm_i8_4x4(
// CHECK:         %[[LEFT:.*]] = arith.subi %{{.*}}, %[[J:.*]] : index
// CHECK:         %[[W:.*]] = arith.minui %[[LEFT]], %{{.*}} : index
// CHECK:         loop.parallel (%[[I:.*]], %[[O:.*]]) = (%{{.*}}, 0) to (%{{.*}}, %[[W]]) step (1, 1) {
// CHECK:           %[[I0:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK:           %[[I1:.*]] = arith.remui %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[COL:.*]] = arith.addi %[[J]], %[[O]] : index
// CHECK:           loop.store %{{.*}}, %{{.*}}[%[[I0]], %[[I1]], %[[COL]]] : memref<2x3x12xf32>
loop.kernel @rows_and_part(%a: memref<2x3x8xi32>, %b: memref<8x12xi32>, %c: memref<2x3x12xf32>) {
  %zero = arith.constant 0 : i32
  loop.parallel (%i, %h, %j) = (0, 0, 0) to (2, 3, 12) step (1, 1, 1) {
    %s = loop.for %q = 0 to 8 step 1 iter_args(%acc = %zero) -> (i32) {
      %u = loop.load %b[%q, %j] : memref<8x12xi32>
      %v = loop.load %a[%i, %h, %q] : memref<2x3x8xi32>
      %d = arith.dot_quads %acc, %u, %v : i32
      loop.yield %d : i32
    }
    %f = arith.sitofp %s : i32 to f32
    loop.store %f, %c[%i, %h, %j] : memref<2x3x12xf32>
  }
  loop.return
}

// -----

// Left inline: a sum that starts from another value than 0, and one whose
// loop does more than the dot.
// CHECK-LABEL: loop.kernel @not_a_dot(
// CHECK-NOT:     loop.call
// CHECK:         arith.dot_quads
// CHECK:         arith.dot_quads
loop.kernel @not_a_dot(%a: memref<6x8xi32>, %b: memref<8x12xi32>, %c: memref<6x12xi32>) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  loop.parallel (%i, %j) = (0, 0) to (6, 12) step (1, 1) {
    %s = loop.for %q = 0 to 8 step 1 iter_args(%acc = %one) -> (i32) {
      %u = loop.load %a[%i, %q] : memref<6x8xi32>
      %v = loop.load %b[%q, %j] : memref<8x12xi32>
      %d = arith.dot_quads %acc, %u, %v : i32
      loop.yield %d : i32
    }
    loop.store %s, %c[%i, %j] : memref<6x12xi32>
  }
  loop.parallel (%i, %j) = (0, 0) to (6, 12) step (1, 1) {
    %s = loop.for %q = 0 to 8 step 1 iter_args(%acc = %zero) -> (i32) {
      %u = loop.load %a[%i, %q] : memref<6x8xi32>
      %v = loop.load %b[%q, %j] : memref<8x12xi32>
      %d = arith.dot_quads %acc, %u, %v : i32
      %e = arith.addi %d, %one : i32
      loop.yield %e : i32
    }
    loop.store %s, %c[%i, %j] : memref<6x12xi32>
  }
  loop.return
}
