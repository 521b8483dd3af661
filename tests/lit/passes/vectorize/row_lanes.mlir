// RUN: xlir-opt %s -p 'vectorize{width=8}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'vectorize{width=8},block-sums' --split-input-file | xlir-opt --split-input-file | filecheck %s --check-prefix=ROUND
// RUN: xlir-opt %s -p 'vectorize{width=16}' --split-input-file | filecheck %s --check-prefix=WIDE

// A row sum of exponentials kept in order: its rows become the lanes of one
// vector copy (8 rows), and the row loop, stepping by 8, loads each 8 x 8
// tile as 8 row vectors transposed by 3 rounds of 8 shuffles; the step runs
// once, in a loop over the 8 columns that carries them rotated by one. The 4
// columns left run the old body on lane-by-lane loads; the 2 rows left are
// jammed as scalar rows.
// CHECK-LABEL: loop.kernel @exp_sums
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           %[[MAIN:[0-9]+]] = loop.for %[[J:[^ ]+]] = 0 to 16 step 8 iter_args(%[[A:[^ ]+]] = %{{.*}}) -> (vector<8xf32>) {
// CHECK-NEXT:        %[[R0:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : memref<10x20xf32>, vector<8xf32>
// CHECK-COUNT-7:     loop.load %{{.*}}[%{{.*}}, %[[J]]] : memref<10x20xf32>, vector<8xf32>
// CHECK-COUNT-24:    vector.shuffle
// CHECK-NOT:         vector.shuffle
// CHECK:             %{{.*}}, %[[LAST:[0-9]+]] = loop.for %{{.*}} = 0 to 8 step 1 iter_args(%[[C0:[^ ]+]] = %{{.*}}, %[[C1:[^ ]+]] = %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[C7:[^ ]+]] = %{{.*}}, %[[ACC:[^ ]+]] = %[[A]]) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK-NEXT:          %[[E:.*]] = math.exp %[[C0]] : vector<8xf32>
// CHECK-NEXT:          %[[N:.*]] = arith.addf %[[ACC]], %[[E]] : vector<8xf32>
// CHECK-NEXT:          loop.yield %[[C1]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[C7]], %[[C0]], %[[N]] : vector<8xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:        loop.yield %[[LAST]] : vector<8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %{{.*}} = loop.for %{{.*}} = 16 to 20 step 1 iter_args(%{{.*}} = %[[MAIN]]) -> (vector<8xf32>) {
// CHECK-COUNT-7:     vector.insert
// CHECK:           loop.store %{{.*}}, %{{.*}}[%[[I]]] : memref<10xf32>, vector<8xf32>
// CHECK:         loop.parallel (%{{.*}}) = (8) to (10) step (2) attributes {jam = array<i64: 2>} {
// CHECK:           loop.for %{{.*}} = 0 to 20 step 1 iter_args({{.*}}) -> (f32, f32) {
// ROUND-LABEL: loop.kernel @exp_sums
// ROUND:         vector.shuffle
loop.kernel @exp_sums(%x: memref<10x20xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (10) step (1) {
    %s = loop.for %j = 0 to 20 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<10x20xf32>
      %e = math.exp %v : f32
      %n = arith.addf %acc, %e : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<10xf32>
  }
  loop.return
}

// -----

// A row dot, a cheap step: its rows become 8 lanes (at most 8: `CHEAP_LANES`,
// also where the vector holds 16), the products are taken on the row vectors
// before the transpose, so one tile is transposed (3 rounds of 8 shuffles),
// and the 8 adds of a tile are written out in column order, each lane its
// row's own order.
// CHECK-LABEL: loop.kernel @row_dots
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           %[[MAIN:[0-9]+]] = loop.for %[[J:[^ ]+]] = 0 to 16 step 8 iter_args(%[[A:[^ ]+]] = %{{.*}}) -> (vector<8xf32>) {
// CHECK-COUNT-8:     loop.load %{{.*}}[%{{.*}}, %[[J]]] : memref<10x20xf32>, vector<8xf32>
// CHECK-COUNT-8:     loop.load %{{.*}}[%{{.*}}, %[[J]]] : memref<10x20xf32>, vector<8xf32>
// CHECK-COUNT-8:     arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-COUNT-24:    vector.shuffle
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[A]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:        %[[S1:.*]] = arith.addf %[[S]], %{{.*}} : vector<8xf32>
// CHECK-COUNT-6:     arith.addf
// CHECK-NEXT:        loop.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      %{{.*}} = loop.for %{{.*}} = 16 to 20 step 1 iter_args(%{{.*}} = %[[MAIN]]) -> (vector<8xf32>) {
// CHECK:         loop.parallel (%{{.*}}) = (8) to (10) step (2) attributes {jam = array<i64: 2>} {
// WIDE-LABEL: loop.kernel @row_dots
// WIDE:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// WIDE-NOT:     vector<16xf32>
// WIDE:         loop.return
// ROUND-LABEL: loop.kernel @row_dots
// ROUND:         vector.shuffle
loop.kernel @row_dots(%a: memref<10x20xf32>, %b: memref<10x20xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (10) step (1) {
    %s = loop.for %j = 0 to 20 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %j] : memref<10x20xf32>
      %y = loop.load %b[%i, %j] : memref<10x20xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<10xf32>
  }
  loop.return
}

// -----

// A row max (exact in any order) beside a row sum: the sum makes the rows
// lanes; the max loop transposes nothing: each row's differences (taken on
// the row vectors) go into partial maxima of their own, and after the loop
// 3 rounds (4 + 2 + 1 pairs, 2 shuffles and a max each) give lane l row l's
// maximum, then combined with the loop's initial value.
// CHECK-LABEL: loop.kernel @row_max_then_sum
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           %[[INIT:.*]] = vector.broadcast %low : f32 to vector<8xf32>
// CHECK:           %[[P:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK:           loop.for %{{.*}} = 0 to 16 step 8 iter_args(%{{.*}} = %[[P]], {{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK-NOT:         vector.shuffle
// CHECK-COUNT-8:     arith.subf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-COUNT-8:     arith.maximumf
// CHECK-NEXT:        loop.yield
// CHECK-NEXT:      }
// CHECK-COUNT-14:  vector.shuffle %{{.*}}, %{{.*}} [{{.*}}] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:      %[[LANES:.*]] = arith.maximumf
// CHECK-NEXT:      %[[MAX:.*]] = arith.maximumf %[[INIT]], %[[LANES]] : vector<8xf32>
// CHECK-NEXT:      loop.for %{{.*}} = 16 to 20 step 1 iter_args(%{{.*}} = %[[MAX]]) -> (vector<8xf32>) {
// CHECK:           vector.shuffle
// CHECK:           arith.addf
// CHECK:         loop.return
loop.kernel @row_max_then_sum(%a: memref<8x20xf32>, %b: memref<8x20xf32>, %out: memref<8xf32>) {
  %low = arith.constant 0xFF800000 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    %m = loop.for %j = 0 to 20 step 1 iter_args(%acc = %low) -> (f32) {
      %x = loop.load %a[%i, %j] : memref<8x20xf32>
      %y = loop.load %b[%i, %j] : memref<8x20xf32>
      %d = arith.subf %x, %y : f32
      %n = arith.maximumf %acc, %d : f32
      loop.yield %n : f32
    }
    %s = loop.for %j = 0 to 20 step 1 iter_args(%acc = %m) -> (f32) {
      %x = loop.load %a[%i, %j] : memref<8x20xf32>
      %n = arith.addf %acc, %x : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// Left as scalar rows: cheap steps of three loads (`CHEAP_STEP_LOADS`) and
// of 18 ops (`CHEAP_STEP_OPS`), a row read with a stride, a row shorter
// than the lanes, and exponentials also stored along the row (no vector
// copy). The three loads get 5 rows (`ROW_JAM_LOADS`), the costly ones 4
// (`ROW_JAM_BUDGET`).
// CHECK-LABEL: loop.kernel @scalar_rows
// CHECK-NOT:     vector
// CHECK:         loop.parallel (%{{.*}}) = (0) to (15) step (5) attributes {jam = array<i64: 5>}
// CHECK-NOT:     vector
// CHECK-COUNT-4: loop.parallel (%{{.*}}) = (0) to (16) step ({{[48]}}) attributes {jam = array<i64: {{[48]}}>}
// CHECK-NOT:     vector
// CHECK:         loop.return
loop.kernel @scalar_rows(%x: memref<16x32xf32>, %e: memref<16x32xf32>, %y: memref<16x32xf32>, %out: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2 : index
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %u = loop.load %x[%i, %j] : memref<16x32xf32>
      %v = loop.load %e[%i, %j] : memref<16x32xf32>
      %w = loop.load %y[%i, %j] : memref<16x32xf32>
      %uv = arith.mulf %u, %v : f32
      %uvw = arith.mulf %uv, %w : f32
      %n = arith.addf %acc, %uvw : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<16xf32>
  }
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<16x32xf32>
      %a1 = arith.mulf %v, %v : f32
      %a2 = arith.addf %a1, %v : f32
      %a3 = arith.mulf %a2, %v : f32
      %a4 = arith.addf %a3, %v : f32
      %a5 = arith.mulf %a4, %v : f32
      %a6 = arith.addf %a5, %v : f32
      %a7 = arith.mulf %a6, %v : f32
      %a8 = arith.addf %a7, %v : f32
      %a9 = arith.mulf %a8, %v : f32
      %a10 = arith.addf %a9, %v : f32
      %a11 = arith.mulf %a10, %v : f32
      %a12 = arith.addf %a11, %v : f32
      %a13 = arith.mulf %a12, %v : f32
      %a14 = arith.addf %a13, %v : f32
      %a15 = arith.mulf %a14, %v : f32
      %n = arith.addf %acc, %a15 : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<16xf32>
  }
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %j = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
      %j2 = arith.muli %j, %two : index
      %v = loop.load %x[%i, %j2] : memref<16x32xf32>
      %w = math.exp %v : f32
      %n = arith.addf %acc, %w : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<16xf32>
  }
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %j = 0 to 5 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<16x32xf32>
      %w = math.exp %v : f32
      %n = arith.addf %acc, %w : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<16xf32>
  }
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<16x32xf32>
      %w = math.exp %v : f32
      loop.store %w, %e[%i, %j] : memref<16x32xf32>
      %n = arith.addf %acc, %w : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<16xf32>
  }
  loop.return
}

// -----

// A step too big to run in a loop over the columns (`_looped`), whose costly
// part (a hash's bits to float and two logarithms, then the add of a load:
// random categorical's Gumbel noise) depends on the loads and on values that
// do not change along the row loop alone: it runs on the rows, on half
// tiles. The row loop steps by 4 (half the 8 lanes); row l of a step's tile
// is rows l and l + 4, 4 columns each, loaded as one vector per load, so the
// part is written out 4 times (not 8, once per column) and only its result is
// transposed, by the last 2 of 3 rounds (8 shuffles). The argmax then takes
// the 4 columns in order; the 2 columns left run the old body.
// CHECK-LABEL: loop.kernel @gumbel_argmax
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           %[[MAIN:[0-9]+]], %{{.*}} = loop.for %[[J:[^ ]+]] = 0 to 16 step 4 iter_args(%[[B:[^ ]+]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<8xf32>, vector<8xi32>) {
// CHECK:             %[[L0:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : memref<8x18xi32>, vector<4xi32>
// CHECK-NEXT:        %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:        %[[I4:.*]] = arith.addi %[[I]], %[[FOUR]] : index
// CHECK-NEXT:        %[[L4:.*]] = loop.load %{{.*}}[%[[I4]], %[[J]]] : memref<8x18xi32>, vector<4xi32>
// CHECK-NEXT:        %{{.*}} = vector.shuffle %[[L0]], %[[L4]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xi32>, vector<4xi32>
// CHECK-COUNT-2:     math.log %{{.*}} : vector<8xf32>
// CHECK:             %[[Y0:.*]] = arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-COUNT-6:     math.log %{{.*}} : vector<8xf32>
// CHECK-NOT:         math.log
// CHECK:             %[[T:.*]] = vector.shuffle %[[Y0]], %{{.*}} [0, 1, 8, 9, 4, 5, 12, 13] : vector<8xf32>, vector<8xf32>
// CHECK-COUNT-3:     vector.shuffle
// CHECK-NEXT:        %[[C0:.*]] = vector.shuffle %[[T]], %{{.*}} [0, 8, 2, 10, 4, 12, 6, 14] : vector<8xf32>, vector<8xf32>
// CHECK-COUNT-3:     vector.shuffle
// CHECK-NOT:         vector.shuffle
// CHECK:             arith.cmpf ogt, %[[B]], %[[C0]] : vector<8xf32>
// CHECK-COUNT-3:     arith.cmpf ogt
// CHECK-NOT:         math.log
// CHECK:             loop.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      %{{.*}}, %{{.*}} = loop.for %{{.*}} = 16 to 18 step 1 iter_args(%{{.*}} = %[[MAIN]], %{{.*}} = %{{.*}}) -> (vector<8xf32>, vector<8xi32>) {
// CHECK-COUNT-2:     math.log %{{.*}} : vector<8xf32>
// CHECK-NOT:         math.log
// CHECK:           loop.store
loop.kernel @gumbel_argmax(%h0: memref<8x18xi32>, %h1: memref<8x18xi32>, %x: memref<8x18xf32>, %out: memref<8xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %nine = arith.constant 9 : i32
  %bits = arith.constant 1065353216 : i32
  %one = arith.constant 1.0 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    %m, %k = loop.for %j = 0 to 18 step 1 iter_args(%best = %ninf, %at = %zero) -> (f32, i32) {
      %a = loop.load %h0[%i, %j] : memref<8x18xi32>
      %b = loop.load %h1[%i, %j] : memref<8x18xi32>
      %r = arith.xori %a, %b : i32
      %s = arith.shrui %r, %nine : i32
      %o = arith.ori %s, %bits : i32
      %f = arith.bitcast %o : i32 to f32
      %u = arith.subf %f, %one : f32
      %l = math.log %u : f32
      %n = arith.negf %l : f32
      %l2 = math.log %n : f32
      %g = arith.negf %l2 : f32
      %v = loop.load %x[%i, %j] : memref<8x18xf32>
      %y = arith.addf %g, %v : f32
      %jj = arith.index_cast %j : index to i32
      %gt = arith.cmpf ogt, %best, %y : f32
      %nan = arith.cmpf une, %best, %best : f32
      %keep = arith.ori %gt, %nan : i1
      %eq = arith.cmpf oeq, %best, %y : f32
      %lt = arith.cmpi slt, %at, %jj : i32
      %tie = arith.andi %eq, %lt : i1
      %keepi = arith.ori %keep, %tie : i1
      %nb = arith.select %keep, %best, %y : f32
      %na = arith.select %keepi, %at, %jj : i32
      loop.yield %nb, %na : f32, i32
    }
    loop.store %k, %out[%i] : memref<8xi32>
  }
  loop.return
}

// -----

// The same step, but its first logarithm takes the column's index: the costly
// part does not depend on the loads alone, so the step is written out once per
// column of full tiles as before (8 columns, 16 logarithms, three tiles).
// CHECK-LABEL: loop.kernel @indexed_logs
// CHECK:         loop.for %{{.*}} = 0 to 16 step 8 iter_args
// CHECK-COUNT-72:    vector.shuffle
// CHECK-NOT:         vector.shuffle
// CHECK-COUNT-16:    math.log %{{.*}} : vector<8xf32>
// CHECK-NOT:         math.log
// CHECK:             loop.yield
loop.kernel @indexed_logs(%h0: memref<8x18xi32>, %h1: memref<8x18xi32>, %x: memref<8x18xf32>, %out: memref<8xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %nine = arith.constant 9 : i32
  %bits = arith.constant 1065353216 : i32
  %one = arith.constant 1.0 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    %m, %k = loop.for %j = 0 to 18 step 1 iter_args(%best = %ninf, %at = %zero) -> (f32, i32) {
      %a = loop.load %h0[%i, %j] : memref<8x18xi32>
      %b = loop.load %h1[%i, %j] : memref<8x18xi32>
      %r = arith.xori %a, %b : i32
      %s = arith.shrui %r, %nine : i32
      %o = arith.ori %s, %bits : i32
      %f = arith.bitcast %o : i32 to f32
      %u = arith.subf %f, %one : f32
      %jf = arith.index_cast %j : index to i32
      %jw = arith.sitofp %jf : i32 to f32
      %uj = arith.addf %u, %jw : f32
      %l = math.log %uj : f32
      %n = arith.negf %l : f32
      %l2 = math.log %n : f32
      %g = arith.negf %l2 : f32
      %v = loop.load %x[%i, %j] : memref<8x18xf32>
      %y = arith.addf %g, %v : f32
      %jj = arith.index_cast %j : index to i32
      %gt = arith.cmpf ogt, %best, %y : f32
      %nan = arith.cmpf une, %best, %best : f32
      %keep = arith.ori %gt, %nan : i1
      %eq = arith.cmpf oeq, %best, %y : f32
      %lt = arith.cmpi slt, %at, %jj : i32
      %tie = arith.andi %eq, %lt : i1
      %keepi = arith.ori %keep, %tie : i1
      %nb = arith.select %keep, %best, %y : f32
      %na = arith.select %keepi, %at, %jj : i32
      loop.yield %nb, %na : f32, i32
    }
    loop.store %k, %out[%i] : memref<8xi32>
  }
  loop.return
}
