// RUN: xlir-opt %s -p 'vectorize{width=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'vectorize{width=4 reassociate=true}' --split-input-file | filecheck %s --check-prefix=FAST
// RUN: not xlir-opt %s -p 'vectorize{width=-2}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: vectorize: width must be non-negative (0: from vector-bits), got -2

// A column sum: jammed along j (the reduction reads x[i, j] with unit
// stride in j) by as many whole vectors of 4 as the columns have, up to 4,
// as vector copies: per row, a vector load and add into each copy's vector
// accumulator (one pass over the rows, independent chains of adds); the 2
// columns left are a 2-lane copy.
// CHECK-LABEL: loop.kernel @column_sum
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[J4:.*]] = arith.addi %[[J]], %[[C4]] : index
// CHECK-NEXT:      %[[Z:.*]] = vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK-NEXT:      %[[S:[0-9]+]], %[[S4:[0-9]+]] = loop.for %[[I:[^ ]+]] = 0 to 16 step 1 iter_args(%[[A:.*]] = %[[Z]], %[[A4:.*]] = %[[Z]]) -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:        %[[V:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : memref<16x10xf32>, vector<4xf32>
// CHECK-NEXT:        %[[V4:.*]] = loop.load %{{.*}}[%[[I]], %[[J4]]] : memref<16x10xf32>, vector<4xf32>
// CHECK-NEXT:        %[[N:.*]] = arith.addf %[[A]], %[[V]] : vector<4xf32>
// CHECK-NEXT:        %[[N4:.*]] = arith.addf %[[A4]], %[[V4]] : vector<4xf32>
// CHECK-NEXT:        loop.yield %[[N]], %[[N4]] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %[[S]], %{{.*}}[%[[J]]] : memref<10xf32>, vector<4xf32>
// CHECK-NEXT:      loop.store %[[S4]], %{{.*}}[%[[J4]]] : memref<10xf32>, vector<4xf32>
// CHECK:         loop.parallel (%{{.*}}) = (8) to (10) step (2) attributes {jam = array<i64: 2>} {
// CHECK:           loop.for {{.*}} -> (vector<2xf32>)
loop.kernel @column_sum(%x: memref<16x10xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%j) = (0) to (10) step (1) {
    %s = loop.for %i = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<16x10xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%j] : memref<10xf32>
  }
  loop.return
}

// -----

// A row max is left to LLVM's loop vectorizer, which reorders maximumf
// (associative and commutative exactly) by itself; split by hand, LLVM
// vectorized across the copies with strided gathers. Neither split nor
// row-jammed, in either pipeline.
// CHECK-LABEL: loop.kernel @row_max
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 10 step 1 iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK-NOT:     jam
// CHECK:         loop.return
// FAST-LABEL: loop.kernel @row_max
// FAST:         loop.for %{{.*}} = 0 to 10 step 1 iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// FAST-NOT:     jam
// FAST:         loop.return
loop.kernel @row_max(%x: memref<3x10xf32>, %out: memref<3xf32>) {
  %low = arith.constant 0xFF800000 : f32
  loop.parallel (%i) = (0) to (3) step (1) {
    %s = loop.for %j = 0 to 10 step 1 iter_args(%acc = %low) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<3x10xf32>
      %n = arith.maximumf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<3xf32>
  }
  loop.return
}

// -----

// A row sum of exponentials (softmax's), storing each: reassociating the sum
// is left to the fast pipeline; there the partial sums start at -0.0 and the
// stores stay in program order, copy by copy.
// CHECK-LABEL: loop.kernel @row_sum
// CHECK:         loop.parallel (%{{.*}}) = (0) to (2) step (2) attributes {jam = array<i64: 2>}
// CHECK:           loop.for %{{.*}} = 0 to 16 step 1 iter_args({{.*}}) -> (f32, f32)
// CHECK-NOT:     loop.for
// FAST-LABEL: loop.kernel @row_sum
// FAST:         %[[Z:.*]] = arith.constant -0.000000e+00 : f32
// FAST-NEXT:    loop.for %{{.*}} = 0 to 16 step 4 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]]) -> (f32, f32, f32, f32) {
// FAST-NEXT:      loop.load
// FAST-NEXT:      math.exp
// FAST-NEXT:      loop.store
// FAST-NEXT:      arith.addf
// FAST:         }
// FAST-NEXT:    arith.addf
// FAST-NEXT:    arith.addf
// FAST-NEXT:    arith.addf
// FAST-NEXT:    loop.store
loop.kernel @row_sum(%x: memref<2x16xf32>, %e: memref<2x16xf32>, %out: memref<2xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (2) step (1) {
    %s = loop.for %j = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<2x16xf32>
      %w = math.exp %v : f32
      loop.store %w, %e[%i, %j] : memref<2x16xf32>
      %n = arith.addf %acc, %w : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<2xf32>
  }
  loop.return
}

// -----

// Not split, even reassociating: a nest jammed already (left as it is), a
// running max that is also stored (a scan), and sums that are too short to
// split (fewer than 2 x 4 iterations, and too few for rows as 4 lanes), of
// dynamic length, or read with a stride. The last four get 8 rows jammed
// instead, each row's loop still stepping by 1.
// CHECK-LABEL: loop.kernel @not_split
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (2) attributes {jam = array<i64: 2>}
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 8 step 1 iter_args(%{{[^,]*}}) -> (f32) {
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>}
// CHECK:           loop.for %{{.*}} = 0 to 16 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-8:     loop.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x16xf32>
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>}
// CHECK:           loop.for %{{.*}} = 0 to 3 step 1
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>}
// CHECK:           loop.for %{{.*}} = 0 to %{{.*}} step 1
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>}
// CHECK:           loop.for %{{.*}} = 0 to 8 step 1
// CHECK-NOT:     step 4
// CHECK:         loop.return
// FAST-LABEL: loop.kernel @not_split
// FAST-NOT:     step 4
// FAST:         loop.return
loop.kernel @not_split(%x: memref<8x16xf32>, %scan: memref<8x16xf32>, %out: memref<8xf32>, %n: index) {
  %low = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2 : index
  loop.parallel (%j) = (0) to (8) step (2) attributes {jam = array<i64: 2>} {
    %s = loop.for %i = 0 to 8 step 1 iter_args(%acc = %low) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<8x16xf32>
      %m = arith.maximumf %acc, %v : f32
      loop.yield %m : f32
    }
    loop.store %s, %out[%j] : memref<8xf32>
  }
  loop.parallel (%i) = (0) to (8) step (1) {
    %s = loop.for %j = 0 to 16 step 1 iter_args(%acc = %low) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<8x16xf32>
      %m = arith.maximumf %acc, %v : f32
      loop.store %m, %scan[%i, %j] : memref<8x16xf32>
      loop.yield %m : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.parallel (%i) = (0) to (8) step (1) {
    %s = loop.for %j = 0 to 3 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<8x16xf32>
      %m = arith.addf %acc, %v : f32
      loop.yield %m : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.parallel (%i) = (0) to (8) step (1) {
    %s = loop.for %j = 0 to %n step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<8x16xf32>
      %m = arith.addf %acc, %v : f32
      loop.yield %m : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.parallel (%i) = (0) to (8) step (1) {
    %s = loop.for %j = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %j2 = arith.muli %j, %two : index
      %v = loop.load %x[%i, %j2] : memref<8x16xf32>
      %m = arith.addf %acc, %v : f32
      loop.yield %m : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// A column sum with a costly epilogue (a tanh per column): jammed by 2
// vectors of 4, the vectors of sums stored to the output, then the epilogue
// once in a nest over the 8 columns (and once for the 2-column remainder).
// CHECK-LABEL: loop.kernel @column_tanh
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           %[[S0:[0-9]+]], %[[S1:[0-9]+]] = loop.for
// CHECK-NOT:       math.tanh
// CHECK:           loop.store %[[S0]], %[[OUT:.*]][%[[J]]] : memref<10xf32>, vector<4xf32>
// CHECK-NEXT:      loop.store %[[S1]], %[[OUT]][%{{.*}}] : memref<10xf32>, vector<4xf32>
// CHECK-NEXT:      loop.parallel (%[[D:.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:        %[[E:.*]] = arith.addi %[[J]], %[[D]] : index
// CHECK-NEXT:        %[[S:.*]] = loop.load %[[OUT]][%[[E]]] : memref<10xf32>
// CHECK-NEXT:        %[[T:.*]] = math.tanh %[[S]] : f32
// CHECK-NEXT:        loop.store %[[T]], %[[OUT]][%[[E]]] : memref<10xf32>
// CHECK:         loop.parallel (%{{.*}}) = (8) to (10) step (2) attributes {jam = array<i64: 2>} {
// CHECK:           loop.parallel (%{{.*}}) = (0) to (2) step (1) {
// CHECK-NEXT:        arith.addi
// CHECK-NEXT:        loop.load
// CHECK-NEXT:        math.tanh
// CHECK-NOT:     math.tanh
// CHECK:         loop.return
loop.kernel @column_tanh(%x: memref<16x10xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%j) = (0) to (10) step (1) {
    %s = loop.for %i = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<16x10xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    %t = math.tanh %s : f32
    loop.store %t, %out[%j] : memref<10xf32>
  }
  loop.return
}

// -----

// In-order row sums (exact), a cheap step: the rows are 4 lanes
// (row_lanes.mlir), each lane adding its row's elements in order, a 4 x 4
// tile transposed per step; the 2 rows left are 2 scalar rows jammed.
// CHECK-LABEL: loop.kernel @row_sums_in_order
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK:           loop.for %[[J:[^ ]+]] = 0 to 32 step 4 iter_args({{.*}}) -> (vector<4xf32>) {
// CHECK-NEXT:        loop.load %{{.*}}[%[[I]], %[[J]]] : memref<10x32xf32>, vector<4xf32>
// CHECK-COUNT-3:     loop.load %{{.*}}[%{{.*}}, %[[J]]] : memref<10x32xf32>, vector<4xf32>
// CHECK-COUNT-8:     vector.shuffle
// CHECK-COUNT-4:     arith.addf
// CHECK-NEXT:        loop.yield
// CHECK:         loop.parallel (%{{.*}}) = (8) to (10) step (2) attributes {jam = array<i64: 2>} {
// CHECK:           loop.for %{{.*}} = 0 to 32 step 1 iter_args(%{{[^,]*}}, %{{[^,]*}}) -> (f32, f32) {
// FAST-LABEL: loop.kernel @row_sums_in_order
// FAST-NOT:     jam
// FAST:         loop.for %{{.*}} = 0 to 32 step 4
loop.kernel @row_sums_in_order(%x: memref<10x32xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (10) step (1) {
    %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<10x32xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<10xf32>
  }
  loop.return
}

// -----

// In-order sums of four buffers' rows: 4 loads a row each step, so 4 rows
// jammed (ROW_JAM_LOADS, 16 a step), not 8; with two buffers, 8 rows (each
// read with a stride, so that they are not lanes: row_lanes.mlir).
// CHECK-LABEL: loop.kernel @four_loads_rows
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK:           loop.for %{{.*}} = 0 to 32 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32) {
// CHECK-COUNT-16:    loop.load
// CHECK-LABEL: loop.kernel @two_loads_rows
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           loop.for %{{.*}} = 0 to 32 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-16:    loop.load
loop.kernel @four_loads_rows(%a: memref<8x32xf32>, %b: memref<8x32xf32>, %c: memref<8x32xf32>, %d: memref<8x32xf32>, %out: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %va = loop.load %a[%i, %j] : memref<8x32xf32>
      %vb = loop.load %b[%i, %j] : memref<8x32xf32>
      %vc = loop.load %c[%i, %j] : memref<8x32xf32>
      %vd = loop.load %d[%i, %j] : memref<8x32xf32>
      %n1 = arith.addf %acc, %va : f32
      %n2 = arith.addf %n1, %vb : f32
      %n3 = arith.addf %n2, %vc : f32
      %n4 = arith.addf %n3, %vd : f32
      loop.yield %n4 : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.return
}
loop.kernel @two_loads_rows(%a: memref<8x64xf32>, %b: memref<8x64xf32>, %out: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2 : index
  loop.parallel (%i) = (0) to (8) step (1) {
    %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %j2 = arith.muli %j, %two : index
      %va = loop.load %a[%i, %j2] : memref<8x64xf32>
      %vb = loop.load %b[%i, %j2] : memref<8x64xf32>
      %n1 = arith.addf %acc, %va : f32
      %n2 = arith.addf %n1, %vb : f32
      loop.yield %n2 : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// Softmax's row: exponentials written by an inner nest, then summed in
// order. The sum's step is cheap, so the rows become the 4 lanes of one
// vector copy (row_lanes.py); the inner nest runs once for the tile's rows,
// the row's offset its outer dimension, as scalar code (not one clone per
// row: each would be one more loop for LLVM to vectorize), before the one
// loop that sums them all, a transposed 4 x 4 tile a step.
// CHECK-LABEL: loop.kernel @softmax_rows
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK:           loop.parallel (%[[DI:.*]], %[[J:.*]]) = (0, 0) to (4, 64) step (1, 1) {
// CHECK-NEXT:        %[[ROW:.*]] = arith.addi %[[I]], %[[DI]] : index
// CHECK-NEXT:        %[[V:.*]] = loop.load %x[%[[ROW]], %[[J]]]
// CHECK-NEXT:        %[[W:.*]] = math.exp %[[V]] : f32
// CHECK-NEXT:        loop.store %[[W]], %e[%[[ROW]], %[[J]]]
// CHECK-NEXT:      }
// CHECK-NOT:       math.exp
// CHECK:           loop.for %{{.*}} = 0 to 64 step 4 iter_args({{.*}}) -> (vector<4xf32>) {
// CHECK-COUNT-8:     vector.shuffle
// CHECK-COUNT-4:     arith.addf %{{.*}} : vector<4xf32>
// CHECK:           loop.store %{{.*}}, %out[%[[I]]] : memref<8xf32>, vector<4xf32>
// CHECK:         loop.return
loop.kernel @softmax_rows(%x: memref<8x64xf32>, %e: memref<8x64xf32>, %out: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    loop.parallel (%j) = (0) to (64) step (1) {
      %v = loop.load %x[%i, %j] : memref<8x64xf32>
      %w = math.exp %v : f32
      loop.store %w, %e[%i, %j] : memref<8x64xf32>
    }
    %s = loop.for %j = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
      %w = loop.load %e[%i, %j] : memref<8x64xf32>
      %n = arith.addf %acc, %w : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// Softmax-like rows, 10 of them, whose sum's step loads three buffers (not
// a cheap step: scalar rows, not lanes), costing 68 (an exp counts 64), so
// ROW_JAM_BUDGET (320) allows 4 rows, not 8: 4 rows a tile would leave 2
// for a remainder nest, one more copy of the body, so 5 rows are jammed
// instead (5 divides 10), with no remainder. With 9 rows neither 4 nor 5
// divides: 4 rows and a remainder nest.
// CHECK-LABEL: loop.kernel @softmax_ten_rows
// CHECK:         loop.parallel (%{{.*}}) = (0) to (10) step (5) attributes {jam = array<i64: 5>} {
// CHECK:           loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (5, 64) step (1, 1) {
// CHECK-NOT:     loop.parallel (%{{.*}}) = (10)
// CHECK-LABEL: loop.kernel @softmax_nine_rows
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK:           loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 64) step (1, 1) {
// CHECK:         loop.parallel (%{{.*}}) = (8) to (9) step (1) {
loop.kernel @softmax_ten_rows(%x: memref<10x64xf32>, %y: memref<10x64xf32>, %e: memref<10x64xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (10) step (1) {
    loop.parallel (%j) = (0) to (64) step (1) {
      %v = loop.load %x[%i, %j] : memref<10x64xf32>
      %w = math.exp %v : f32
      loop.store %w, %e[%i, %j] : memref<10x64xf32>
    }
    %s = loop.for %j = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
      %w = loop.load %e[%i, %j] : memref<10x64xf32>
      %v = loop.load %x[%i, %j] : memref<10x64xf32>
      %b = loop.load %y[%i, %j] : memref<10x64xf32>
      %n = arith.addf %acc, %w : f32
      %n2 = arith.addf %n, %v : f32
      %n3 = arith.addf %n2, %b : f32
      loop.yield %n3 : f32
    }
    loop.store %s, %out[%i] : memref<10xf32>
  }
  loop.return
}
loop.kernel @softmax_nine_rows(%x: memref<9x64xf32>, %y: memref<9x64xf32>, %e: memref<9x64xf32>, %out: memref<9xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (9) step (1) {
    loop.parallel (%j) = (0) to (64) step (1) {
      %v = loop.load %x[%i, %j] : memref<9x64xf32>
      %w = math.exp %v : f32
      loop.store %w, %e[%i, %j] : memref<9x64xf32>
    }
    %s = loop.for %j = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
      %w = loop.load %e[%i, %j] : memref<9x64xf32>
      %v = loop.load %x[%i, %j] : memref<9x64xf32>
      %b = loop.load %y[%i, %j] : memref<9x64xf32>
      %n = arith.addf %acc, %w : f32
      %n2 = arith.addf %n, %v : f32
      %n3 = arith.addf %n2, %b : f32
      loop.yield %n3 : f32
    }
    loop.store %s, %out[%i] : memref<9xf32>
  }
  loop.return
}

// -----

// Softmax with its row's maximum: the inner nest uses the row's maximum,
// loaded before it, which differs between the rows (the lanes); the merged
// nest loads it again at its row (LLVM hoists it out of the inner loop), as
// the only launch passes distinct buffers, and the lanes' own load, now
// unused, is gone.
// CHECK-LABEL: loop.kernel @softmax_max_rows
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK-NOT:       loop.load %max
// CHECK:           loop.parallel (%[[DI:.*]], %[[J:.*]]) = (0, 0) to (4, 64) step (1, 1) {
// CHECK-NEXT:        %[[ROW:.*]] = arith.addi %[[I]], %[[DI]] : index
// CHECK-NEXT:        %[[M:.*]] = loop.load %max[%[[ROW]]]
// CHECK-NEXT:        %[[V:.*]] = loop.load %x[%[[ROW]], %[[J]]]
// CHECK-NEXT:        %[[D:.*]] = arith.subf %[[V]], %[[M]] : f32
// CHECK-NEXT:        math.exp %[[D]] : f32
// CHECK-NOT:       loop.load %max
// CHECK:           loop.for {{.*}} -> (vector<4xf32>) {
loop.kernel @softmax_max_rows(%x: memref<8x64xf32>, %max: memref<8xf32>, %e: memref<8x64xf32>, %out: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    %m = loop.load %max[%i] : memref<8xf32>
    loop.parallel (%j) = (0) to (64) step (1) {
      %v = loop.load %x[%i, %j] : memref<8x64xf32>
      %d = arith.subf %v, %m : f32
      %w = math.exp %d : f32
      loop.store %w, %e[%i, %j] : memref<8x64xf32>
    }
    %s = loop.for %j = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
      %w = loop.load %e[%i, %j] : memref<8x64xf32>
      %n = arith.addf %acc, %w : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.return
}
func.func @launches_max_rows(%x: memref<8x64xf32>, %max: memref<8xf32>) -> memref<8xf32> {
  %stream = device.default_stream
  %e = device.alloc : memref<8x64xf32>
  %out = device.alloc : memref<8xf32>
  device.launch @softmax_max_rows(%x, %max, %e, %out) on %stream : memref<8x64xf32>, memref<8xf32>, memref<8x64xf32>, memref<8xf32>
  device.synchronize %stream
  device.free %e : memref<8x64xf32>
  func.return %out : memref<8xf32>
}

// -----

// The same, but the row's maximum is overwritten between its load and the
// inner nest: loading it again there would read the new value, so each row
// keeps its own clone of the inner nest.
// CHECK-LABEL: loop.kernel @softmax_overwritten_max
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK-COUNT-4:   loop.parallel (%{{.*}}) = (0) to (64) step (1) {
// CHECK:           loop.for {{.*}} -> (f32, f32, f32, f32) {
loop.kernel @softmax_overwritten_max(%x: memref<8x64xf32>, %max: memref<8xf32>, %e: memref<8x64xf32>, %out: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    %m = loop.load %max[%i] : memref<8xf32>
    loop.store %zero, %max[%i] : memref<8xf32>
    loop.parallel (%j) = (0) to (64) step (1) {
      %v = loop.load %x[%i, %j] : memref<8x64xf32>
      %d = arith.subf %v, %m : f32
      %w = math.exp %d : f32
      loop.store %w, %e[%i, %j] : memref<8x64xf32>
    }
    %s = loop.for %j = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
      %w = loop.load %e[%i, %j] : memref<8x64xf32>
      %n = arith.addf %acc, %w : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// An inner nest that is jammed itself (vectorized first), using a row's
// value loaded before it: merged for the jammed rows all the same, its jam
// attribute given a factor of 1 for the rows' dimension.
// CHECK-LABEL: loop.kernel @jammed_inner_merged
// CHECK:         loop.parallel (%[[K:.*]]) = (0) to (4) step (4) attributes {jam = array<i64: 4>} {
// CHECK:           loop.parallel (%[[DK:.*]], %{{.*}}) = (0, 0) to (4, 8) step (1, 8) attributes {jam = array<i64: 1, 8>} {
// CHECK-NEXT:        %[[ROW:.*]] = arith.addi %[[K]], %[[DK]] : index
// CHECK-NEXT:        loop.load %bias[%[[ROW]]]
// CHECK:             loop.for {{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK:           loop.for {{.*}} -> (f32, f32, f32, f32) {
loop.kernel @jammed_inner_merged(%x: memref<4x16x8xf32>, %bias: memref<4xf32>, %out: memref<4x8xf32>, %tot: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%k) = (0) to (4) step (1) {
    %b = loop.load %bias[%k] : memref<4xf32>
    loop.parallel (%j) = (0) to (8) step (1) {
      %s = loop.for %i = 0 to 16 step 1 iter_args(%acc = %b) -> (f32) {
        %v = loop.load %x[%k, %i, %j] : memref<4x16x8xf32>
        %n = arith.addf %acc, %v : f32
        loop.yield %n : f32
      }
      loop.store %s, %out[%k, %j] : memref<4x8xf32>
    }
    %t = loop.for %i = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%k, %i, %i] : memref<4x16x8xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %t, %tot[%k] : memref<4xf32>
  }
  loop.return
}
func.func @launches_jammed_inner_merged(%x: memref<4x16x8xf32>, %bias: memref<4xf32>) -> memref<4x8xf32> {
  %stream = device.default_stream
  %out = device.alloc : memref<4x8xf32>
  %tot = device.alloc : memref<4xf32>
  device.launch @jammed_inner_merged(%x, %bias, %out, %tot) on %stream : memref<4x16x8xf32>, memref<4xf32>, memref<4x8xf32>, memref<4xf32>
  device.synchronize %stream
  device.free %tot : memref<4xf32>
  func.return %out : memref<4x8xf32>
}

// -----

// A reduction nest inside a nest that is row-jammed itself: the inner nest
// is vectorized first (jammed by 2 vectors of 4 along j), then the outer one
// is jammed, cloning the inner one, which is not visited again.
// CHECK-LABEL: loop.kernel @nested_reductions
// CHECK:         loop.parallel (%{{.*}}) = (0) to (4) step (4) attributes {jam = array<i64: 4>} {
// CHECK:           loop.for {{.*}} -> (f32, f32, f32, f32) {
// CHECK:           loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK:             loop.for {{.*}} -> (vector<4xf32>, vector<4xf32>) {
loop.kernel @nested_reductions(%x: memref<4x16x10xf32>, %out: memref<4x10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%k) = (0) to (4) step (1) {
    %t = loop.for %i = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%k, %i, %i] : memref<4x16x10xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.parallel (%j) = (0) to (10) step (1) {
      %s = loop.for %i = 0 to 16 step 1 iter_args(%acc = %t) -> (f32) {
        %v = loop.load %x[%k, %i, %j] : memref<4x16x10xf32>
        %n = arith.addf %acc, %v : f32
        loop.yield %n : f32
      }
      loop.store %s, %out[%k, %j] : memref<4x10xf32>
    }
  }
  loop.return
}

// -----

// A row count known only at run time (1 << %t, at most 8 rows) is jammed
// too: the whole tiles of 8 rows end at n - n rem 8, computed before the
// nest, and a remainder nest runs from there to n. (The rows are read with
// a stride, so that they are not lanes: row_lanes.mlir.)
// CHECK-LABEL: loop.kernel @row_sums_runtime_count
// CHECK:         %[[N:.*]] = arith.shli
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[REM:.*]] = arith.remsi %[[N]], %[[EIGHT]] : index
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.subi %[[N]], %[[REM]] : index
// CHECK-NEXT:    loop.parallel (%{{.*}}) = (0) to (%[[SPLIT]]) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           loop.for %{{.*}} = 0 to 32 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK:         loop.parallel (%{{.*}}) = (%[[SPLIT]]) to (%[[N]]) step (1) {
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 32 step 1 iter_args(%{{[^,]*}}) -> (f32) {
loop.kernel @row_sums_runtime_count(%x: memref<10x64xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1 : index
  %two = arith.constant 2 : index
  loop.for %t = 0 to 4 step 1 {
    %n = arith.shli %one, %t : index
    loop.parallel (%i) = (0) to (%n) step (1) {
      %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
        %j2 = arith.muli %j, %two : index
        %v = loop.load %x[%i, %j2] : memref<10x64xf32>
        %n2 = arith.addf %acc, %v : f32
        loop.yield %n2 : f32
      }
      loop.store %s, %out[%i] : memref<10xf32>
    }
  }
  loop.return
}

// -----

// Not jammed: a runtime lower bound, and a runtime upper bound whose range
// is unknown (a loaded index; an index cast of a loaded integer has its
// source width's range).
// CHECK-LABEL: loop.kernel @row_sums_unknown_bounds
// CHECK-NOT:     jam
// CHECK:         loop.return
loop.kernel @row_sums_unknown_bounds(%x: memref<10x32xf32>, %out: memref<10xf32>, %count: memref<index>) {
  %zero = arith.constant 0.0 : f32
  %n = loop.load %count[] : memref<index>
  loop.parallel (%i) = (%n) to (10) step (1) {
    %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<10x32xf32>
      %n2 = arith.addf %acc, %v : f32
      loop.yield %n2 : f32
    }
    loop.store %s, %out[%i] : memref<10xf32>
  }
  loop.parallel (%i) = (0) to (%n) step (1) {
    %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<10x32xf32>
      %n2 = arith.addf %acc, %v : f32
      loop.yield %n2 : f32
    }
    loop.store %s, %out[%i] : memref<10xf32>
  }
  loop.return
}
