// RUN: xlir-opt %s -p 'vectorize{width=8}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'vectorize{width=8},block-sums' --split-input-file | xlir-opt --split-input-file | filecheck %s --check-prefix=ROUND

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

// Left as scalar rows: a cheap step (its loads, not its adds, bound it), a
// row read with a stride, a row shorter than the lanes, and exponentials
// also stored along the row (no vector copy). The costly ones get 4 rows
// (`ROW_JAM_BUDGET`).
// CHECK-LABEL: loop.kernel @scalar_rows
// CHECK-NOT:     vector
// CHECK-COUNT-4: loop.parallel (%{{.*}}) = (0) to (16) step ({{[48]}}) attributes {jam = array<i64: {{[48]}}>}
// CHECK-NOT:     vector
// CHECK:         loop.return
loop.kernel @scalar_rows(%x: memref<16x32xf32>, %e: memref<16x32xf32>, %out: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2 : index
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<16x32xf32>
      %n = arith.addf %acc, %v : f32
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
