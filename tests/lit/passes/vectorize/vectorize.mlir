// RUN: xlir-opt %s -p 'vectorize{width=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'vectorize{width=4 reassociate=true}' --split-input-file | filecheck %s --check-prefix=FAST
// RUN: not xlir-opt %s -p 'vectorize{width=-2}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: vectorize: width must be non-negative (0: from vector-bits), got -2

// A column sum: jammed by 4 along j (the reduction reads x[i, j] with unit
// stride in j) as one vector copy: a vector accumulator, a vector load and
// add per row; the 2 columns left are a 2-lane copy.
// CHECK-LABEL: loop.kernel @column_sum
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK-NEXT:      %[[Z:.*]] = vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK-NEXT:      %[[S:[0-9]+]] = loop.for %[[I:[^ ]+]] = 0 to 16 step 1 iter_args(%[[A:.*]] = %[[Z]]) -> (vector<4xf32>) {
// CHECK-NEXT:        %[[V:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : memref<16x10xf32>, vector<4xf32>
// CHECK-NEXT:        %[[N:.*]] = arith.addf %[[A]], %[[V]] : vector<4xf32>
// CHECK-NEXT:        loop.yield %[[N]] : vector<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %[[S]], %{{.*}}[%[[J]]] : memref<10xf32>, vector<4xf32>
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
// split (fewer than 2 x 4 iterations), of dynamic length, or read with a
// stride. The last four get 8 rows jammed instead, each row's loop still
// stepping by 1.
// CHECK-LABEL: loop.kernel @not_split
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (2) attributes {jam = array<i64: 2>}
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 8 step 1 iter_args(%{{[^,]*}}) -> (f32) {
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>}
// CHECK:           loop.for %{{.*}} = 0 to 16 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-8:     loop.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x16xf32>
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>}
// CHECK:           loop.for %{{.*}} = 0 to 6 step 1
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
    %s = loop.for %j = 0 to 6 step 1 iter_args(%acc = %zero) -> (f32) {
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

// A column sum with a costly epilogue (a tanh per column): jammed by 4, the
// vector of sums stored to the output, then the epilogue once in a nest over
// the 4 columns (and once for the 2-column remainder).
// CHECK-LABEL: loop.kernel @column_tanh
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK:           %[[S0:[0-9]+]] = loop.for
// CHECK-NOT:       math.tanh
// CHECK:           loop.store %[[S0]], %[[OUT:.*]][%[[J]]] : memref<10xf32>, vector<4xf32>
// CHECK-NEXT:      loop.parallel (%[[D:.*]]) = (0) to (4) step (1) {
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

// In-order row sums (exact): 8 rows jammed, 8 independent adds per step,
// each row's elements added in order; the 2 rows left keep the old body.
// CHECK-LABEL: loop.kernel @row_sums_in_order
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           loop.for %[[J:[^ ]+]] = 0 to 32 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT:        loop.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-COUNT-7:     loop.load %{{.*}}[%{{.*}}, %[[J]]]
// CHECK-COUNT-8:     arith.addf
// CHECK-NEXT:        loop.yield
// CHECK:         loop.parallel (%{{.*}}) = (8) to (10) step (1) {
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 32 step 1 iter_args(%{{[^,]*}}) -> (f32) {
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

// Softmax's row: exponentials written by an inner nest, then summed in
// order. Each jammed row gets its own copy of the inner nest, before the
// one loop that sums them all; the body costs 67 (an exp counts 64), so
// ROW_JAM_BUDGET (320) allows 4 rows, not 8.
// CHECK-LABEL: loop.kernel @softmax_rows
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK-COUNT-4:   math.exp
// CHECK-NOT:       math.exp
// CHECK:           loop.for %{{.*}} = 0 to 64 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32) {
// CHECK-COUNT-4:     arith.addf
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

// The same rows, 10 of them: 4 rows a tile would leave 2 for a remainder
// nest, one more copy of the body, so 5 rows are jammed instead (5 divides
// 10), with no remainder. With 9 rows neither 4 nor 5 divides: 4 rows and a
// remainder nest.
// CHECK-LABEL: loop.kernel @softmax_ten_rows
// CHECK:         loop.parallel (%{{.*}}) = (0) to (10) step (5) attributes {jam = array<i64: 5>} {
// CHECK-COUNT-5:   math.exp
// CHECK-NOT:     loop.parallel (%{{.*}}) = (10)
// CHECK-LABEL: loop.kernel @softmax_nine_rows
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK-COUNT-4:   math.exp
// CHECK:         loop.parallel (%{{.*}}) = (8) to (9) step (1) {
loop.kernel @softmax_ten_rows(%x: memref<10x64xf32>, %e: memref<10x64xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (10) step (1) {
    loop.parallel (%j) = (0) to (64) step (1) {
      %v = loop.load %x[%i, %j] : memref<10x64xf32>
      %w = math.exp %v : f32
      loop.store %w, %e[%i, %j] : memref<10x64xf32>
    }
    %s = loop.for %j = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
      %w = loop.load %e[%i, %j] : memref<10x64xf32>
      %n = arith.addf %acc, %w : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<10xf32>
  }
  loop.return
}
loop.kernel @softmax_nine_rows(%x: memref<9x64xf32>, %e: memref<9x64xf32>, %out: memref<9xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (9) step (1) {
    loop.parallel (%j) = (0) to (64) step (1) {
      %v = loop.load %x[%i, %j] : memref<9x64xf32>
      %w = math.exp %v : f32
      loop.store %w, %e[%i, %j] : memref<9x64xf32>
    }
    %s = loop.for %j = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
      %w = loop.load %e[%i, %j] : memref<9x64xf32>
      %n = arith.addf %acc, %w : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<9xf32>
  }
  loop.return
}

// -----

// A reduction nest inside a nest that is row-jammed itself: the inner nest
// is vectorized first (jammed by 4 along j), then the outer one is jammed,
// cloning the inner one, which is not visited again.
// CHECK-LABEL: loop.kernel @nested_reductions
// CHECK:         loop.parallel (%{{.*}}) = (0) to (4) step (4) attributes {jam = array<i64: 4>} {
// CHECK:           loop.for {{.*}} -> (f32, f32, f32, f32) {
// CHECK:           loop.parallel (%{{.*}}) = (0) to (8) step (4) attributes {jam = array<i64: 4>} {
// CHECK:             loop.for {{.*}} -> (vector<4xf32>) {
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
// nest, and a remainder nest runs from there to n.
// CHECK-LABEL: loop.kernel @row_sums_runtime_count
// CHECK:         %[[N:.*]] = arith.shli
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[REM:.*]] = arith.remsi %[[N]], %[[EIGHT]] : index
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.subi %[[N]], %[[REM]] : index
// CHECK-NEXT:    loop.parallel (%{{.*}}) = (0) to (%[[SPLIT]]) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           loop.for %{{.*}} = 0 to 32 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK:         loop.parallel (%{{.*}}) = (%[[SPLIT]]) to (%[[N]]) step (1) {
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 32 step 1 iter_args(%{{[^,]*}}) -> (f32) {
loop.kernel @row_sums_runtime_count(%x: memref<10x32xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1 : index
  loop.for %t = 0 to 4 step 1 {
    %n = arith.shli %one, %t : index
    loop.parallel (%i) = (0) to (%n) step (1) {
      %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
        %v = loop.load %x[%i, %j] : memref<10x32xf32>
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
