// RUN: xlir-opt %s -p 'parallelize{min-work=4096}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'parallelize{threads=7 min-work=0}' --split-input-file | filecheck %s --check-prefix=ALL
// RUN: not xlir-opt %s -p 'parallelize{threads=-1}' 2>&1 | filecheck %s --check-prefix=BAD-THREADS
// RUN: not xlir-opt %s -p 'parallelize{min-work=-5}' 2>&1 | filecheck %s --check-prefix=BAD-WORK
// BAD-THREADS: error: parallelize: threads must be non-negative (0: the CPUs online), got -1
// BAD-WORK: error: parallelize: min-work must be non-negative, got -5

// Work is trip counts times body ops, inner loop.for trips multiplied in:
// 64 x (the store, and 128 x (load, addf) of the loop.for) = 64 x 257 =
// 16448 >= 4096: marked for the CPUs online (threads=0 by default).
// CHECK-LABEL: loop.kernel @row_sums
// CHECK:         loop.parallel (%{{.*}}) = (0) to (64) step (1) attributes {threads = 0 : i64} {
// ALL-LABEL:   loop.kernel @row_sums
// ALL:           loop.parallel (%{{.*}}) = (0) to (64) step (1) attributes {threads = 7 : i64} {
loop.kernel @row_sums(%x: memref<64x128xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (64) step (1) {
    %s = loop.for %j = 0 to 128 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<64x128xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<64xf32>
  }
  loop.return
}

// -----

// Below the threshold: 16 x 32 x (load, negf, store) = 1536 < 4096.
// CHECK-LABEL: loop.kernel @small
// CHECK-NOT:     threads
// CHECK:         loop.return
// ALL-LABEL:   loop.kernel @small
// ALL:           attributes {threads = 7 : i64}
loop.kernel @small(%x: memref<16x32xf32>, %out: memref<16x32xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (16, 32) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<16x32xf32>
    %n = arith.negf %v : f32
    loop.store %n, %out[%i, %j] : memref<16x32xf32>
  }
  loop.return
}

// -----

// Only the outermost loop.parallel is marked, not the one nested in it (a
// tiled nest); the tile extent comes from the range of the minsi bound (at
// most 4), so the work is 16 x (4 index ops + 4 x 256 x 3) = 49216.
// CHECK-LABEL: loop.kernel @nested
// CHECK:         loop.parallel (%{{.*}}) = (0) to (64) step (4) attributes {threads = 0 : i64} {
// CHECK:           loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (%{{.*}}, 256) step (1, 1) {
// ALL-LABEL:   loop.kernel @nested
// ALL:           attributes {threads = 7 : i64}
// ALL-NOT:       threads
// ALL:           loop.return
loop.kernel @nested(%x: memref<64x256xf32>, %out: memref<64x256xf32>) {
  loop.parallel (%t) = (0) to (64) step (4) {
    %c64 = arith.constant 64 : index
    %rest = arith.subi %c64, %t : index
    %c4 = arith.constant 4 : index
    %n = arith.minsi %c4, %rest : index
    loop.parallel (%e, %j) = (0, 0) to (%n, 256) step (1, 1) {
      %i = arith.addi %t, %e : index
      %v = loop.load %x[%i, %j] : memref<64x256xf32>
      loop.store %v, %out[%i, %j] : memref<64x256xf32>
    }
  }
  loop.return
}

// -----

// A parallel loop inside a sequential one is outermost (each launch of it is
// one pass of the loop.for): 64 x 128 x 2 = 16384 per pass.
// CHECK-LABEL: loop.kernel @passes
// CHECK:         loop.for
// CHECK:           loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (64, 128) step (1, 1) attributes {threads = 0 : i64} {
loop.kernel @passes(%x: memref<64x128xf32>) {
  loop.for %k = 0 to 10 step 1 {
    loop.parallel (%i, %j) = (0, 0) to (64, 128) step (1, 1) {
      %v = loop.load %x[%i, %j] : memref<64x128xf32>
      loop.store %v, %x[%i, %j] : memref<64x128xf32>
    }
  }
  loop.return
}

// -----

// A first dimension of one iteration cannot be split: not marked, however
// large the rest; neither is a loop with no dimension.
// CHECK-LABEL: loop.kernel @single_row
// CHECK-NOT:     threads
// CHECK:         loop.return
// ALL-LABEL:   loop.kernel @single_row
// ALL-NOT:       threads
// ALL:           loop.return
loop.kernel @single_row(%x: memref<1x65536xf32>, %y: memref<f32>) {
  loop.parallel (%i, %j) = (0, 0) to (1, 65536) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<1x65536xf32>
    loop.store %v, %x[%i, %j] : memref<1x65536xf32>
  }
  loop.parallel () = () to () step () {
    %c = arith.constant 1.0 : f32
    loop.store %c, %y[] : memref<f32>
  }
  loop.return
}

// -----

// A loop already marked keeps its count (an earlier run or a hand-written
// choice wins over the pipeline's own run).
// CHECK-LABEL: loop.kernel @chosen
// CHECK:         attributes {threads = 3 : i64}
// ALL-LABEL:   loop.kernel @chosen
// ALL:           attributes {threads = 3 : i64}
loop.kernel @chosen(%x: memref<2xf32>) {
  loop.parallel (%i) = (0) to (2) step (1) attributes {threads = 3 : i64} {
    %v = loop.load %x[%i] : memref<2xf32>
    loop.store %v, %x[%i] : memref<2xf32>
  }
  loop.return
}

// -----

// An op of the outer index only runs once per row (LLVM hoists it out of
// the inner dimension): 4 x (load, index_cast) + 4 x 256 x (load, store) =
// 2056 < 4096, where counting every op per element would give 4096.
// CHECK-LABEL: loop.kernel @gather_rows
// CHECK-NOT:     threads
// CHECK:         loop.return
loop.kernel @gather_rows(%rows: memref<4xi32>, %x: memref<16x256xf32>, %out: memref<4x256xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (4, 256) step (1, 1) {
    %r = loop.load %rows[%i] : memref<4xi32>
    %c = arith.index_cast %r : i32 to index
    %v = loop.load %x[%c, %j] : memref<16x256xf32>
    loop.store %v, %out[%i, %j] : memref<4x256xf32>
  }
  loop.return
}

// -----

// A nest jammed by 4 along the dimension its reduction reads with unit
// stride runs its 4 copies as one vector op: 16 x (64 x 8 + 10) ops = 8352
// count as a quarter, 2088 < 4096. Rows jammed for in-order sums are not
// discounted (the copies read different rows), though what the rows store
// and load after their sums, `sums[i]`, is unit stride along them:
// 16 x (64 x 8 + 14) > 4096.
// CHECK-LABEL: loop.kernel @jammed_columns
// CHECK-NOT:     threads
// CHECK-LABEL: loop.kernel @jammed_rows
// CHECK:         attributes {jam = array<i64: 4>, threads = 0 : i64}
loop.kernel @jammed_columns(%x: memref<64x64xf32>, %out: memref<64xf32>) {
  loop.parallel (%j) = (0) to (64) step (4) attributes {jam = array<i64: 4>} {
    %zero = arith.constant 0.0 : f32
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %j1 = arith.addi %j, %c1 : index
    %j2 = arith.addi %j, %c2 : index
    %j3 = arith.addi %j, %c3 : index
    %s:4 = loop.for %k = 0 to 64 step 1 iter_args(%a = %zero, %b = %zero, %c = %zero, %d = %zero) -> (f32, f32, f32, f32) {
      %xa = loop.load %x[%k, %j] : memref<64x64xf32>
      %xb = loop.load %x[%k, %j1] : memref<64x64xf32>
      %xc = loop.load %x[%k, %j2] : memref<64x64xf32>
      %xd = loop.load %x[%k, %j3] : memref<64x64xf32>
      %na = arith.addf %a, %xa : f32
      %nb = arith.addf %b, %xb : f32
      %nc = arith.addf %c, %xc : f32
      %nd = arith.addf %d, %xd : f32
      loop.yield %na, %nb, %nc, %nd : f32, f32, f32, f32
    }
    loop.store %s#0, %out[%j] : memref<64xf32>
    loop.store %s#1, %out[%j1] : memref<64xf32>
    loop.store %s#2, %out[%j2] : memref<64xf32>
    loop.store %s#3, %out[%j3] : memref<64xf32>
  }
  loop.return
}
loop.kernel @jammed_rows(%x: memref<64x64xf32>, %sums: memref<64xf32>) {
  loop.parallel (%i) = (0) to (64) step (4) attributes {jam = array<i64: 4>} {
    %zero = arith.constant 0.0 : f32
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %i3 = arith.addi %i, %c3 : index
    %s:4 = loop.for %k = 0 to 64 step 1 iter_args(%a = %zero, %b = %zero, %c = %zero, %d = %zero) -> (f32, f32, f32, f32) {
      %xa = loop.load %x[%i, %k] : memref<64x64xf32>
      %xb = loop.load %x[%i1, %k] : memref<64x64xf32>
      %xc = loop.load %x[%i2, %k] : memref<64x64xf32>
      %xd = loop.load %x[%i3, %k] : memref<64x64xf32>
      %na = arith.addf %a, %xa : f32
      %nb = arith.addf %b, %xb : f32
      %nc = arith.addf %c, %xc : f32
      %nd = arith.addf %d, %xd : f32
      loop.yield %na, %nb, %nc, %nd : f32, f32, f32, f32
    }
    loop.store %s#0, %sums[%i] : memref<64xf32>
    loop.store %s#1, %sums[%i1] : memref<64xf32>
    loop.store %s#2, %sums[%i2] : memref<64xf32>
    loop.store %s#3, %sums[%i3] : memref<64xf32>
    %la = loop.load %sums[%i] : memref<64xf32>
    %lb = loop.load %sums[%i1] : memref<64xf32>
    %lc = loop.load %sums[%i2] : memref<64xf32>
    %ld = loop.load %sums[%i3] : memref<64xf32>
  }
  loop.return
}

// -----

// Vector copies are counted as the vector ops they are, not discounted again:
// 64 x (64 x 2 + 3) = 8384 > 4096.
// CHECK-LABEL: loop.kernel @vector_columns
// CHECK:         attributes {jam = array<i64: 4>, threads = 0 : i64}
loop.kernel @vector_columns(%x: memref<64x256xf32>, %out: memref<256xf32>) {
  loop.parallel (%j) = (0) to (256) step (4) attributes {jam = array<i64: 4>} {
    %zero = arith.constant 0.0 : f32
    %z = vector.broadcast %zero : f32 to vector<4xf32>
    %s = loop.for %k = 0 to 64 step 1 iter_args(%a = %z) -> (vector<4xf32>) {
      %v = loop.load %x[%k, %j] : memref<64x256xf32>, vector<4xf32>
      %n = arith.addf %a, %v : vector<4xf32>
      loop.yield %n : vector<4xf32>
    }
    loop.store %s, %out[%j] : memref<256xf32>, vector<4xf32>
  }
  loop.return
}

// -----

// A runtime bound is estimated from its range, through shifts: rows of a
// merge pass, 4096 >> (%t + 1) of them (at most 2048), each with a
// loop.for over 2 << %t (at most 16) elements: marked. A bound shifted by a
// loaded amount has no range: estimated as 1 row, not marked.
// CHECK-LABEL: loop.kernel @shifted_bounds
// CHECK:         loop.parallel (%{{.*}}) = (0) to (%{{.*}}) step (1) attributes {threads = 0 : i64} {
// CHECK:         loop.parallel (%{{.*}}) = (0) to (%{{.*}}) step (1) {
loop.kernel @shifted_bounds(%x: memref<4096xf32>, %out: memref<4096xf32>, %by: memref<i64>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1 : index
  %length = arith.constant 4096 : index
  %loaded = loop.load %by[] : memref<i64>
  %unknown = arith.index_cast %loaded : i64 to index
  loop.for %t = 0 to 4 step 1 {
    %double = arith.addi %t, %one : index
    %pairs = arith.shrui %length, %double : index
    %run = arith.shli %one, %double : index
    loop.parallel (%p) = (0) to (%pairs) step (1) {
      %s = loop.for %k = 0 to %run step 1 iter_args(%acc = %zero) -> (f32) {
        %v = loop.load %x[%k] : memref<4096xf32>
        %n = arith.addf %acc, %v : f32
        loop.yield %n : f32
      }
      loop.store %s, %out[%p] : memref<4096xf32>
    }
    %few = arith.shrui %length, %unknown : index
    loop.parallel (%p) = (0) to (%few) step (1) {
      %s = loop.for %k = 0 to %run step 1 iter_args(%acc = %zero) -> (f32) {
        %v = loop.load %x[%k] : memref<4096xf32>
        %n = arith.addf %acc, %v : f32
        loop.yield %n : f32
      }
      loop.store %s, %out[%p] : memref<4096xf32>
    }
  }
  loop.return
}

// -----

// A loop.call counts the work it says its routine runs: 64 x 100 = 6400 >=
// 4096, marked; without `work` a call is one op: 64 x 1 < 4096.
// CHECK-LABEL: loop.kernel @routine_rows
// CHECK:         loop.parallel (%{{.*}}) = (0) to (64) step (1) attributes {threads = 0 : i64} {
// CHECK:         loop.parallel (%{{.*}}) = (0) to (64) step (1) {
loop.kernel @routine_rows(%x: memref<64x25xf32>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    loop.call @xlir.top_k32(%i, %x) {work = 100 : i64} : (index, memref<64x25xf32>)
  }
  loop.parallel (%i) = (0) to (64) step (1) {
    loop.call @xlir.top_k32(%i, %x) : (index, memref<64x25xf32>)
  }
  loop.return
}
