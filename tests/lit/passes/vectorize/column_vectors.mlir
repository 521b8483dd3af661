// RUN: xlir-opt %s -p 'vectorize{width=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'vectorize{width=8}' --split-input-file | filecheck %s --check-prefix=COSTLY

// Column reductions are jammed by up to 4 vectors (`COLUMN_VECTORS`) side by
// side, so each row is read once for all of them, each column's terms still
// added in order.

// 26 columns: 4 vectors of 4 (16 columns, one pass over the rows), the 10
// left as 2 vectors (8 columns); the last 2 columns stay scalar.
// CHECK-LABEL: loop.kernel @wide_column_sum
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (16) step (16) attributes {jam = array<i64: 16>} {
// CHECK:           loop.for %[[I:[^ ]+]] = 0 to 8 step 1 {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK-COUNT-4:     loop.load %{{.*}}[%[[I]], %{{.*}}] : memref<8x26xf32>, vector<4xf32>
// CHECK-COUNT-4:     arith.addf %{{.*}} : vector<4xf32>
// CHECK:           }
// CHECK-COUNT-4:   loop.store %{{.*}} : memref<26xf32>, vector<4xf32>
// CHECK:         loop.parallel (%{{.*}}) = (16) to (24) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           loop.for {{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK:         loop.parallel (%{{.*}}) = (24) to (26) step (1) {
// CHECK:           loop.for {{.*}} -> (f32) {
loop.kernel @wide_column_sum(%x: memref<8x26xf32>, %out: memref<26xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%j) = (0) to (26) step (1) {
    %s = loop.for %i = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<8x26xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%j] : memref<26xf32>
  }
  loop.return
}

// -----

// Three reductions of each column (sum, min, max) carry 3 accumulators a
// copy: 2 copies keep them within 8 vector registers (`COLUMN_ACCUMULATORS`),
// not 4 copies' 12.
// CHECK-LABEL: loop.kernel @column_sum_min_max
// CHECK:         loop.parallel (%{{.*}}) = (0) to (16) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           loop.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK-NOT:     loop.parallel
// CHECK:         loop.return
loop.kernel @column_sum_min_max(%x: memref<8x16xf32>, %sum: memref<16xf32>, %low: memref<16xf32>, %high: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  loop.parallel (%j) = (0) to (16) step (1) {
    %s, %l, %h = loop.for %i = 0 to 8 step 1 iter_args(%a = %zero, %b = %inf, %c = %ninf) -> (f32, f32, f32) {
      %v = loop.load %x[%i, %j] : memref<8x16xf32>
      %n = arith.addf %a, %v : f32
      %m = arith.minimumf %b, %v : f32
      %k = arith.maximumf %c, %v : f32
      loop.yield %n, %m, %k : f32, f32, f32
    }
    loop.store %s, %sum[%j] : memref<16xf32>
    loop.store %l, %low[%j] : memref<16xf32>
    loop.store %h, %high[%j] : memref<16xf32>
  }
  loop.return
}

// -----

// A costly step (5 tanhs a term, each written out by `expand-math`) is not
// cloned past the row jam's budget (`ROW_JAM_BUDGET`): one vector copy of 8
// (tanh's vector copies take 8 lanes or more), the columns' vectors walked
// one after another.
// COSTLY-LABEL: loop.kernel @column_costly_terms
// COSTLY:         loop.parallel (%{{.*}}) = (0) to (32) step (8) attributes {jam = array<i64: 8>} {
// COSTLY:           loop.for {{.*}} -> (vector<8xf32>) {
// COSTLY-COUNT-5:     math.tanh %{{.*}} : vector<8xf32>
// COSTLY-NOT:         math.tanh
// COSTLY:           }
loop.kernel @column_costly_terms(%x: memref<8x32xf32>, %out: memref<32xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%j) = (0) to (32) step (1) {
    %s = loop.for %i = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<8x32xf32>
      %t1 = math.tanh %v : f32
      %t2 = math.tanh %t1 : f32
      %t3 = math.tanh %t2 : f32
      %t4 = math.tanh %t3 : f32
      %t5 = math.tanh %t4 : f32
      %n = arith.addf %acc, %t5 : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%j] : memref<32xf32>
  }
  loop.return
}
