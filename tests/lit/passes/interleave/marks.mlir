// RUN: xlir-opt %s -p 'interleave{width=16}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'interleave{width=16 min-depth=4 count=16}' --split-input-file | filecheck %s --check-prefix=DEEP
// RUN: not xlir-opt %s -p 'interleave{count=3}' 2>&1 | filecheck %s --check-prefix=BAD-COUNT
// RUN: not xlir-opt %s -p 'interleave{width=-16}' 2>&1 | filecheck %s --check-prefix=BAD-WIDTH
// BAD-COUNT: error: interleave: count must be a power of two from 1 to 16, got 3
// BAD-WIDTH: error: interleave: min-depth must be at least 2 and width non-negative (0: from vector-bits), got min-depth=10 width=-16

// A chain of 20 dependent ops (one load, twenty mulf, one store): 2 x 20 /
// 10 = 4 copies, and 4 vectors of 16 divide 1024.
// CHECK-LABEL: loop.kernel @deep_chain
// CHECK:         loop.parallel (%{{.*}}) = (0) to (1024) step (1) attributes {interleave = 4 : i64} {
// DEEP-LABEL:  loop.kernel @deep_chain
// DEEP:          loop.parallel (%{{.*}}) = (0) to (1024) step (1) attributes {interleave = 8 : i64} {
loop.kernel @deep_chain(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  loop.parallel (%i) = (0) to (1024) step (1) {
    %v0 = loop.load %x[%i] : memref<1024xf32>
    %v1 = arith.mulf %v0, %v0 : f32
    %v2 = arith.mulf %v1, %v0 : f32
    %v3 = arith.mulf %v2, %v0 : f32
    %v4 = arith.mulf %v3, %v0 : f32
    %v5 = arith.mulf %v4, %v0 : f32
    %v6 = arith.mulf %v5, %v0 : f32
    %v7 = arith.mulf %v6, %v0 : f32
    %v8 = arith.mulf %v7, %v0 : f32
    %v9 = arith.mulf %v8, %v0 : f32
    %v10 = arith.mulf %v9, %v0 : f32
    %v11 = arith.mulf %v10, %v0 : f32
    %v12 = arith.mulf %v11, %v0 : f32
    %v13 = arith.mulf %v12, %v0 : f32
    %v14 = arith.mulf %v13, %v0 : f32
    %v15 = arith.mulf %v14, %v0 : f32
    %v16 = arith.mulf %v15, %v0 : f32
    %v17 = arith.mulf %v16, %v0 : f32
    %v18 = arith.mulf %v17, %v0 : f32
    %v19 = arith.mulf %v18, %v0 : f32
    %v20 = arith.mulf %v19, %v0 : f32
    loop.store %v20, %y[%i] : memref<1024xf32>
  }
  loop.return
}

// -----

// Index arithmetic and constants are not the chain: a depth of 3.
// CHECK-LABEL: loop.kernel @shallow
// CHECK:         loop.parallel (%{{.*}}) = (0) to (1023) step (1) {
// DEEP-LABEL:  loop.kernel @shallow
// DEEP:          loop.parallel (%{{.*}}) = (0) to (1023) step (1) {
loop.kernel @shallow(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  loop.parallel (%i) = (0) to (1023) step (1) {
    %c1 = arith.constant 1 : index
    %a = arith.addi %i, %c1 : index
    %b = arith.muli %a, %c1 : index
    %u = loop.load %x[%i] : memref<1024xf32>
    %v = loop.load %x[%b] : memref<1024xf32>
    %s = arith.addf %u, %v : f32
    %t = arith.mulf %s, %s : f32
    %w = arith.subf %t, %u : f32
    loop.store %w, %y[%i] : memref<1024xf32>
  }
  loop.return
}

// -----

// The same chain of 20 over 48 columns: a trip of 4 vectors (64) does not
// fit, 2 (32) leaves 16 over where one vector leaves none; by 1 it is left
// alone. Over 32 columns by 2 it fits and leaves none.
// CHECK-LABEL: loop.kernel @short_rows
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (8, 48) step (1, 1) {
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (8, 32) step (1, 1) attributes {interleave = 2 : i64} {
loop.kernel @short_rows(%x: memref<8x48xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (8, 48) step (1, 1) {
    %v0 = loop.load %x[%i, %j] : memref<8x48xf32>
    %v1 = arith.mulf %v0, %v0 : f32
    %v2 = arith.mulf %v1, %v0 : f32
    %v3 = arith.mulf %v2, %v0 : f32
    %v4 = arith.mulf %v3, %v0 : f32
    %v5 = arith.mulf %v4, %v0 : f32
    %v6 = arith.mulf %v5, %v0 : f32
    %v7 = arith.mulf %v6, %v0 : f32
    %v8 = arith.mulf %v7, %v0 : f32
    %v9 = arith.mulf %v8, %v0 : f32
    %v10 = arith.mulf %v9, %v0 : f32
    %v11 = arith.mulf %v10, %v0 : f32
    %v12 = arith.mulf %v11, %v0 : f32
    %v13 = arith.mulf %v12, %v0 : f32
    %v14 = arith.mulf %v13, %v0 : f32
    %v15 = arith.mulf %v14, %v0 : f32
    %v16 = arith.mulf %v15, %v0 : f32
    %v17 = arith.mulf %v16, %v0 : f32
    %v18 = arith.mulf %v17, %v0 : f32
    %v19 = arith.mulf %v18, %v0 : f32
    %v20 = arith.mulf %v19, %v0 : f32
    loop.store %v20, %x[%i, %j] : memref<8x48xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (8, 32) step (1, 1) {
    %v0 = loop.load %x[%i, %j] : memref<8x48xf32>
    %v1 = arith.mulf %v0, %v0 : f32
    %v2 = arith.mulf %v1, %v0 : f32
    %v3 = arith.mulf %v2, %v0 : f32
    %v4 = arith.mulf %v3, %v0 : f32
    %v5 = arith.mulf %v4, %v0 : f32
    %v6 = arith.mulf %v5, %v0 : f32
    %v7 = arith.mulf %v6, %v0 : f32
    %v8 = arith.mulf %v7, %v0 : f32
    %v9 = arith.mulf %v8, %v0 : f32
    %v10 = arith.mulf %v9, %v0 : f32
    %v11 = arith.mulf %v10, %v0 : f32
    %v12 = arith.mulf %v11, %v0 : f32
    %v13 = arith.mulf %v12, %v0 : f32
    %v14 = arith.mulf %v13, %v0 : f32
    %v15 = arith.mulf %v14, %v0 : f32
    %v16 = arith.mulf %v15, %v0 : f32
    %v17 = arith.mulf %v16, %v0 : f32
    %v18 = arith.mulf %v17, %v0 : f32
    %v19 = arith.mulf %v18, %v0 : f32
    %v20 = arith.mulf %v19, %v0 : f32
    loop.store %v20, %x[%i, %j] : memref<8x48xf32>
  }
  loop.return
}

// -----

// Two independent chains of 10 side by side: 20 ops over a depth of 10,
// already two chains per iteration, so no copies (2 x 10 / 10 = 2 chains).
// CHECK-LABEL: loop.kernel @two_chains
// CHECK:         loop.parallel (%{{.*}}) = (0) to (1024) step (1) {
loop.kernel @two_chains(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  loop.parallel (%i) = (0) to (1024) step (1) {
    %a0 = loop.load %x[%i] : memref<1024xf32>
    %b0 = loop.load %y[%i] : memref<1024xf32>
    %a1 = arith.mulf %a0, %a0 : f32
    %b1 = arith.mulf %b0, %b0 : f32
    %a2 = arith.mulf %a1, %a0 : f32
    %b2 = arith.mulf %b1, %b0 : f32
    %a3 = arith.mulf %a2, %a0 : f32
    %b3 = arith.mulf %b2, %b0 : f32
    %a4 = arith.mulf %a3, %a0 : f32
    %b4 = arith.mulf %b3, %b0 : f32
    %a5 = arith.mulf %a4, %a0 : f32
    %b5 = arith.mulf %b4, %b0 : f32
    %a6 = arith.mulf %a5, %a0 : f32
    %b6 = arith.mulf %b5, %b0 : f32
    %a7 = arith.mulf %a6, %a0 : f32
    %b7 = arith.mulf %b6, %b0 : f32
    %a8 = arith.mulf %a7, %a0 : f32
    %b8 = arith.mulf %b7, %b0 : f32
    %a9 = arith.mulf %a8, %a0 : f32
    %b9 = arith.mulf %b8, %b0 : f32
    %a10 = arith.mulf %a9, %a0 : f32
    %b10 = arith.mulf %b9, %b0 : f32
    loop.store %a10, %x[%i] : memref<1024xf32>
    loop.store %b10, %y[%i] : memref<1024xf32>
  }
  loop.return
}

// -----

// Left alone: a dynamic trip count, a nest around another loop (only the
// innermost is marked), a loop.for (an in-order reduction is one chain),
// and a loop already marked (its count is kept).
// CHECK-LABEL: loop.kernel @left_alone
// CHECK:         loop.parallel (%{{.*}}) = (0) to (%{{.*}}) step (1) {
// CHECK:         loop.parallel (%{{.*}}) = (0) to (4) step (1) {
// CHECK:           loop.for
// CHECK:         loop.parallel (%{{.*}}) = (0) to (1024) step (1) attributes {interleave = 1 : i64} {
loop.kernel @left_alone(%x: memref<1024xf32>, %n: index) {
  loop.parallel (%i) = (0) to (%n) step (1) {
    %v0 = loop.load %x[%i] : memref<1024xf32>
    %v1 = arith.mulf %v0, %v0 : f32
    %v2 = arith.mulf %v1, %v0 : f32
    %v3 = arith.mulf %v2, %v0 : f32
    %v4 = arith.mulf %v3, %v0 : f32
    %v5 = arith.mulf %v4, %v0 : f32
    %v6 = arith.mulf %v5, %v0 : f32
    %v7 = arith.mulf %v6, %v0 : f32
    %v8 = arith.mulf %v7, %v0 : f32
    %v9 = arith.mulf %v8, %v0 : f32
    %v10 = arith.mulf %v9, %v0 : f32
    loop.store %v10, %x[%i] : memref<1024xf32>
  }
  loop.parallel (%i) = (0) to (4) step (1) {
    %zero = arith.constant 0.0 : f32
    %s = loop.for %j = 0 to 256 step 1 iter_args(%acc = %zero) -> (f32) {
      %v0 = loop.load %x[%j] : memref<1024xf32>
      %v1 = arith.mulf %v0, %acc : f32
      %v2 = arith.mulf %v1, %v0 : f32
      %v3 = arith.mulf %v2, %v0 : f32
      %v4 = arith.mulf %v3, %v0 : f32
      %v5 = arith.mulf %v4, %v0 : f32
      %v6 = arith.mulf %v5, %v0 : f32
      %v7 = arith.mulf %v6, %v0 : f32
      %v8 = arith.mulf %v7, %v0 : f32
      %v9 = arith.mulf %v8, %v0 : f32
      %v10 = arith.mulf %v9, %v0 : f32
      loop.yield %v10 : f32
    }
    loop.store %s, %x[%i] : memref<1024xf32>
  }
  loop.parallel (%i) = (0) to (1024) step (1) attributes {interleave = 1 : i64} {
    %v0 = loop.load %x[%i] : memref<1024xf32>
    %v1 = arith.mulf %v0, %v0 : f32
    %v2 = arith.mulf %v1, %v0 : f32
    %v3 = arith.mulf %v2, %v0 : f32
    %v4 = arith.mulf %v3, %v0 : f32
    %v5 = arith.mulf %v4, %v0 : f32
    %v6 = arith.mulf %v5, %v0 : f32
    %v7 = arith.mulf %v6, %v0 : f32
    %v8 = arith.mulf %v7, %v0 : f32
    %v9 = arith.mulf %v8, %v0 : f32
    %v10 = arith.mulf %v9, %v0 : f32
    loop.store %v10, %x[%i] : memref<1024xf32>
  }
  loop.return
}
