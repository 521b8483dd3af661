// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=4 lanes=1}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=4 lanes=1 contract=false}' --split-input-file | filecheck %s --check-prefix=EXACT
// RUN: not xlir-opt %s -p 'register-tile{mr=-1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: register-tile: mr, nr and lanes must be non-negative (0: from the vector registers), got mr=-1 nr=0 lanes=0

// Copies of one element each (lanes=1), as LLVM's SLP vectorizer would pack
// them; vector copies are tested in vector.mlir.

// A 4x6x8 matmul tiled 2x4: the whole tiles cover j < 4 with 8 accumulators
// in one loop.for; A[i, k] is loaded once per row and B[k, j] once per
// column of the tile; the remaining columns (j = 4, 5) are tiled 2x2.
// CHECK-LABEL: loop.kernel @matmul
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 4) step (2, 4) attributes {jam = array<i64: 2, 4>} {
// CHECK-DAG:       %[[J1:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK-DAG:       %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK:           %[[R0:[0-9]+]], %[[R1:[0-9]+]], %[[R2:[0-9]+]], %[[R3:[0-9]+]], %[[R4:[0-9]+]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = loop.for %[[K:[^ ]+]] = 0 to 8 step 1 iter_args(%[[A0:[^ ]+]] = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %[[A4:[^ ]+]] = %{{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT:        %[[X0:.*]] = loop.load %{{.*}}[%[[I]], %[[K]]]
// CHECK-NEXT:        %[[X1:.*]] = loop.load %{{.*}}[%[[I1]], %[[K]]]
// CHECK-NEXT:        %[[Y0:.*]] = loop.load %{{.*}}[%[[K]], %[[J]]]
// CHECK-NEXT:        %[[Y1:.*]] = loop.load %{{.*}}[%[[K]], %[[J1]]]
// CHECK-NEXT:        loop.load
// CHECK-NEXT:        loop.load
// CHECK-NEXT:        %[[F0:.*]] = math.fma %[[X0]], %[[Y0]], %[[A0]] : f32
// CHECK-NEXT:        math.fma %[[X0]], %[[Y1]]
// CHECK-NEXT:        math.fma %[[X0]]
// CHECK-NEXT:        math.fma %[[X0]]
// CHECK-NEXT:        %[[F4:.*]] = math.fma %[[X1]], %[[Y0]], %[[A4]] : f32
// CHECK-NEXT:        math.fma %[[X1]], %[[Y1]]
// CHECK-NEXT:        math.fma %[[X1]]
// CHECK-NEXT:        math.fma %[[X1]]
// CHECK-NEXT:        loop.yield %[[F0]], {{.*}}, %[[F4]], {{.*}} : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %[[R0]], %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:      loop.store %[[R1]], %{{.*}}[%[[I]], %[[J1]]]
// CHECK:           loop.store %[[R4]], %{{.*}}[%[[I1]], %[[J]]]
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 4) to (4, 6) step (2, 2) attributes {jam = array<i64: 2, 2>} {
// CHECK:           loop.for {{.*}} -> (f32, f32, f32, f32) {
// CHECK-NOT:     loop.parallel
// CHECK:         loop.return
// EXACT-LABEL: loop.kernel @matmul
// EXACT-NOT:     math.fma
// EXACT:         arith.mulf
// EXACT-NEXT:    arith.mulf
// EXACT-NEXT:    arith.mulf
// EXACT-NEXT:    arith.mulf
// EXACT:         arith.addf
loop.kernel @matmul(%a: memref<4x8xf32>, %b: memref<8x6xf32>, %c: memref<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 6) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x6xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x6xf32>
  }
  loop.return
}

// -----

// A dense layer (bias add and relu after the reduction) with 5 rows: the
// epilogue runs per accumulator, the bias loaded once per column; the last
// row is its own nest tiled 1x4 (a lone row is not worth a full tile).
// CHECK-LABEL: loop.kernel @dense_relu
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 4) step (2, 4) attributes {jam = array<i64: 2, 4>} {
// CHECK:           %[[R0:[0-9]+]], %[[R1:[0-9]+]], %[[R2:[0-9]+]], %[[R3:[0-9]+]], %[[R4:[0-9]+]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = loop.for
// CHECK:           }
// CHECK-NEXT:      %[[B0:.*]] = loop.load %{{.*}}[%[[J]]] : memref<4xf32>
// CHECK-NEXT:      %[[B1:.*]] = loop.load %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK-NEXT:      loop.load
// CHECK-NEXT:      loop.load
// CHECK-NEXT:      %[[S0:.*]] = arith.addf %[[R0]], %[[B0]]
// CHECK-NEXT:      arith.addf %[[R1]], %[[B1]]
// CHECK-NEXT:      arith.addf %[[R2]]
// CHECK-NEXT:      arith.addf %[[R3]]
// CHECK-NEXT:      arith.addf %[[R4]], %[[B0]]
// CHECK:           arith.maximumf %[[S0]]
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (4, 0) to (5, 4) step (1, 4) attributes {jam = array<i64: 1, 4>} {
// CHECK:           loop.for {{.*}} -> (f32, f32, f32, f32) {
// CHECK-NOT:     loop.parallel
// CHECK:         loop.return
loop.kernel @dense_relu(%a: memref<5x3xf32>, %b: memref<3x4xf32>, %bias: memref<4xf32>, %out: memref<5x4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (5, 4) step (1, 1) {
    %s = loop.for %k = 0 to 3 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<5x3xf32>
      %y = loop.load %b[%k, %j] : memref<3x4xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %bj = loop.load %bias[%j] : memref<4xf32>
    %t = arith.addf %s, %bj : f32
    %r = arith.maximumf %t, %zero : f32
    loop.store %r, %out[%i, %j] : memref<5x4xf32>
  }
  loop.return
}

// -----

// A convolution's reduction is a nest of loop.fors: one nest carries every
// accumulator; the clamped input index depends on the row (w) only, so it is
// computed once per row of the tile, the filter load once per column. (The
// clamp to 4 is one the bounds do not decide, w + tap reaching 5: a decided
// one is folded first, decided_clamps.mlir.)
// CHECK-LABEL: loop.kernel @conv1d
// CHECK:         loop.parallel (%[[W:.*]], %[[C:.*]]) = (0, 0) to (4, 4) step (2, 4) attributes {jam = array<i64: 2, 4>} {
// CHECK:           loop.for %{{.*}} = 0 to 2 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT:        loop.for %[[T:.*]] = 0 to 3 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT:          arith.addi %[[W]], %[[T]]
// CHECK-NEXT:          arith.addi %{{.*}}, %[[T]]
// CHECK-NEXT:          arith.minsi
// CHECK-NEXT:          arith.minsi
// CHECK-NEXT:          loop.load
// CHECK-NEXT:          loop.load
// CHECK-NEXT:          loop.load %{{.*}}[%[[T]], %{{.*}}, %[[C]]]
// CHECK-COUNT-3:       loop.load %{{.*}}[%[[T]], %{{.*}}, %{{.*}}]
// CHECK-COUNT-8:       math.fma
loop.kernel @conv1d(%x: memref<6x2xf32>, %f: memref<3x2x4xf32>, %out: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %last = arith.constant 4 : index
  loop.parallel (%w, %c) = (0, 0) to (4, 4) step (1, 1) {
    %s = loop.for %ci = 0 to 2 step 1 iter_args(%acc = %zero) -> (f32) {
      %t = loop.for %tap = 0 to 3 step 1 iter_args(%acc2 = %acc) -> (f32) {
        %pos = arith.addi %w, %tap : index
        %clamped = arith.minsi %pos, %last : index
        %v = loop.load %x[%clamped, %ci] : memref<6x2xf32>
        %g = loop.load %f[%tap, %ci, %c] : memref<3x2x4xf32>
        %p = arith.mulf %v, %g : f32
        %n = arith.addf %acc2, %p : f32
        loop.yield %n : f32
      }
      loop.yield %t : f32
    }
    loop.store %s, %out[%w, %c] : memref<4x4xf32>
  }
  loop.return
}

// -----

// Left alone: a nest tiled already, a dynamic bound on a tiled dimension, an op with regions in the
// body, no unit-stride access at all, no second operand to reuse (a matrix
// times a vector has nothing to jam along rows for), and no reduction.
// CHECK-LABEL: loop.kernel @left_alone
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (8, 8) step (2, 4) attributes {jam = array<i64: 2, 4>}
// CHECK-NOT:     math.fma
// CHECK-NOT:     jam
// CHECK:         loop.return
loop.kernel @left_alone(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x16xf32>, %v: memref<8xf32>, %y: memref<8xf32>, %n: index, %flag: i1) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2 : index
  loop.parallel (%i, %j) = (0, 0) to (8, 8) step (2, 4) attributes {jam = array<i64: 2, 4>} {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<8x8xf32>
      %w = loop.load %b[%k, %j] : memref<8x8xf32>
      %p = arith.mulf %x, %w : f32
      %q = arith.addf %acc, %p : f32
      loop.yield %q : f32
    }
    loop.store %s, %c[%i, %j] : memref<8x16xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (8, %n) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<8x8xf32>
      %w = loop.load %b[%k, %j] : memref<8x8xf32>
      %p = arith.mulf %x, %w : f32
      %q = arith.addf %acc, %p : f32
      loop.yield %q : f32
    }
    loop.store %s, %c[%i, %j] : memref<8x16xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (8, 8) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<8x8xf32>
      %w = loop.load %b[%k, %j] : memref<8x8xf32>
      %p = scf.if %flag -> (f32) {
        %m = arith.mulf %x, %w : f32
        scf.yield %m : f32
      } else {
        scf.yield %x : f32
      }
      %q = arith.addf %acc, %p : f32
      loop.yield %q : f32
    }
    loop.store %s, %c[%i, %j] : memref<8x16xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (8, 8) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<8x8xf32>
      %w = loop.load %b[%j, %k] : memref<8x8xf32>
      %p = arith.mulf %x, %w : f32
      %q = arith.addf %acc, %p : f32
      loop.yield %q : f32
    }
    %j2 = arith.muli %j, %two : index
    loop.store %s, %c[%i, %j2] : memref<8x16xf32>
  }
  loop.parallel (%i) = (0) to (8) step (1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<8x8xf32>
      %w = loop.load %v[%k] : memref<8xf32>
      %p = arith.mulf %x, %w : f32
      %q = arith.addf %acc, %p : f32
      loop.yield %q : f32
    }
    loop.store %s, %y[%i] : memref<8xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (8, 8) step (1, 1) {
    %x = loop.load %a[%i, %j] : memref<8x8xf32>
    loop.store %x, %b[%i, %j] : memref<8x8xf32>
  }
  loop.return
}

// -----

// A costly epilogue (a bias add and a tanh: about 30 ops once expand-math
// has written the tanh out) runs once per tile, not once per accumulator:
// each copy's accumulator is stored to its element of the output, then a
// nest over the tile's 2x4 elements loads it back, runs the epilogue and
// stores the result. Each remainder nest (the last row, 1x4 and 1x2; the
// last two columns, 2x2) gets its own epilogue nest.
// CHECK-LABEL: loop.kernel @dense_tanh
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 4) step (2, 4) attributes {jam = array<i64: 2, 4>} {
// CHECK:           %[[R0:[0-9]+]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[R7:[0-9]+]] = loop.for
// CHECK-NOT:       math.tanh
// CHECK:           loop.store %[[R0]], %[[OUT:.*]][%[[I]], %[[J]]] : memref<5x6xf32>
// CHECK-COUNT-6:   loop.store
// CHECK-NEXT:      loop.store %[[R7]], %[[OUT]][%{{.*}}, %{{.*}}] : memref<5x6xf32>
// CHECK-NEXT:      loop.parallel (%[[DI:.*]], %[[DJ:.*]]) = (0, 0) to (2, 4) step (1, 1) {
// CHECK-NEXT:        %[[EI:.*]] = arith.addi %[[I]], %[[DI]] : index
// CHECK-NEXT:        %[[EJ:.*]] = arith.addi %[[J]], %[[DJ]] : index
// CHECK-NEXT:        %[[ACC:.*]] = loop.load %[[OUT]][%[[EI]], %[[EJ]]] : memref<5x6xf32>
// CHECK-NEXT:        %[[B:.*]] = loop.load %{{.*}}[%[[EJ]]] : memref<6xf32>
// CHECK-NEXT:        %[[T:.*]] = arith.addf %[[ACC]], %[[B]] : f32
// CHECK-NEXT:        %[[Y:.*]] = math.tanh %[[T]] : f32
// CHECK-NEXT:        loop.store %[[Y]], %[[OUT]][%[[EI]], %[[EJ]]] : memref<5x6xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (4, 0) to (5, 4) step (1, 4) attributes {jam = array<i64: 1, 4>} {
// CHECK-NOT:       math.tanh
// CHECK:           loop.parallel (%{{.*}}) = (0) to (4) step (1) {
// CHECK:             math.tanh
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (4, 4) to (5, 6) step (1, 2) attributes {jam = array<i64: 1, 2>} {
// CHECK-NOT:       math.tanh
// CHECK:           loop.parallel (%{{.*}}) = (0) to (2) step (1) {
// CHECK:             math.tanh
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 4) to (4, 6) step (2, 2) attributes {jam = array<i64: 2, 2>} {
// CHECK-NOT:       math.tanh
// CHECK:           loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (2, 2) step (1, 1) {
// CHECK:             math.tanh
// CHECK-NOT:     math.tanh
// CHECK:         loop.return
loop.kernel @dense_tanh(%a: memref<5x3xf32>, %b: memref<3x6xf32>, %bias: memref<6xf32>, %out: memref<5x6xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (5, 6) step (1, 1) {
    %s = loop.for %k = 0 to 3 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<5x3xf32>
      %y = loop.load %b[%k, %j] : memref<3x6xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %bj = loop.load %bias[%j] : memref<6xf32>
    %t = arith.addf %s, %bj : f32
    %r = math.tanh %t : f32
    loop.store %r, %out[%i, %j] : memref<5x6xf32>
  }
  loop.return
}

// -----

// Where the output cannot hold the accumulators, a costly epilogue is
// cloned per copy, in as few rows as keep it within the budget: here the
// output is f16 (not the accumulator's type), and three expanded ops per
// element at 4 columns leave one row per tile.
// CHECK-LABEL: loop.kernel @dense_f16_out
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 4) step (1, 4) attributes {jam = array<i64: 1, 4>} {
// CHECK-NOT:       loop.parallel
// CHECK-COUNT-4:   math.tanh
// CHECK-NOT:       loop.parallel
// CHECK:         loop.return
loop.kernel @dense_f16_out(%a: memref<4x3xf32>, %b: memref<3x4xf32>, %out: memref<4x4xf16>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
    %s = loop.for %k = 0 to 3 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x3xf32>
      %y = loop.load %b[%k, %j] : memref<3x4xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %t = math.tanh %s : f32
    %e = math.exp %t : f32
    %l = math.log %e : f32
    %h = arith.truncf %l : f32 to f16
    loop.store %h, %out[%i, %j] : memref<4x4xf16>
  }
  loop.return
}

// -----

// A residual read at the output's own element (%res) may be the output's
// own memory (a result computed in place): the kernel alone does not say,
// so the epilogue is cloned (in fewer rows); where the module launches it
// with distinct buffers, the epilogue runs once per tile.
// CHECK-LABEL: loop.kernel @residual
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 4) step (1, 4) attributes {jam = array<i64: 1, 4>} {
// CHECK-NOT:       loop.parallel
// CHECK:         loop.return
loop.kernel @residual(%a: memref<4x3xf32>, %b: memref<3x4xf32>, %res: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
    %s = loop.for %k = 0 to 3 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x3xf32>
      %y = loop.load %b[%k, %j] : memref<3x4xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %r = loop.load %res[%i, %j] : memref<4x4xf32>
    %t = math.tanh %s : f32
    %e = math.exp %t : f32
    %l = math.log %e : f32
    %u = arith.addf %l, %r : f32
    loop.store %u, %out[%i, %j] : memref<4x4xf32>
  }
  loop.return
}

// -----

// CHECK-LABEL: loop.kernel @launched_residual
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 4) step (2, 4) attributes {jam = array<i64: 2, 4>} {
// CHECK:           loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (2, 4) step (1, 1) {
// CHECK:             loop.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK:             math.tanh
loop.kernel @launched_residual(%a: memref<4x3xf32>, %b: memref<3x4xf32>, %res: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
    %s = loop.for %k = 0 to 3 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x3xf32>
      %y = loop.load %b[%k, %j] : memref<3x4xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %r = loop.load %res[%i, %j] : memref<4x4xf32>
    %t = math.tanh %s : f32
    %u = arith.addf %t, %r : f32
    loop.store %u, %out[%i, %j] : memref<4x4xf32>
  }
  loop.return
}
func.func @main(%a: memref<4x3xf32>, %b: memref<3x4xf32>, %res: memref<4x4xf32>) -> memref<4x4xf32> {
  %stream = device.default_stream
  %out = device.alloc : memref<4x4xf32>
  device.launch @launched_residual(%a, %b, %res, %out) on %stream : memref<4x3xf32>, memref<3x4xf32>, memref<4x4xf32>, memref<4x4xf32>
  device.synchronize %stream
  func.return %out : memref<4x4xf32>
}
