// RUN: xlir-opt %s -p 'vectorize{width=8}' --split-input-file | filecheck %s

// A row sum whose step, before the add, is elementwise in its load, a row's
// value from outside the loop (its mean) and constants (a bf16 rounding's,
// as widen-floats writes it): the rows become lanes, the step's row-wise ops
// run on the row vectors before the one transpose, the constants as
// broadcasts and the mean as each row's lane broadcast.
// CHECK-LABEL: loop.kernel @centered_rounded_sums
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           %[[M:.*]] = loop.load %{{.*}}[%[[I]]] : memref<10xf32>, vector<8xf32>
// CHECK:           loop.for %{{.*}} = 0 to 16 step 8 iter_args(%[[A:[^ ]+]] = %{{.*}}) -> (vector<8xf32>) {
// CHECK-COUNT-8:     loop.load %{{.*}} : memref<10x20xf32>, vector<8xf32>
// CHECK-NEXT:        vector.shuffle %[[M]], %[[M]] [0, 0, 0, 0, 0, 0, 0, 0]
// CHECK-COUNT-7:     vector.shuffle %[[M]], %[[M]]
// CHECK:             vector.broadcast %{{.*}} : i32 to vector<8xi32>
// CHECK:             vector.broadcast %{{.*}} : i32 to vector<8xi32>
// CHECK-COUNT-8:     arith.subf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-COUNT-8:     arith.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
// CHECK-COUNT-8:     arith.addi %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-COUNT-8:     arith.andi %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-COUNT-8:     arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK-COUNT-24:    vector.shuffle
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[A]], %{{.*}} : vector<8xf32>
// CHECK-COUNT-7:     arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NEXT:        loop.yield
loop.kernel @centered_rounded_sums(%x: memref<10x20xf32>, %mean: memref<10xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (10) step (1) {
    %m = loop.load %mean[%i] : memref<10xf32>
    %s = loop.for %j = 0 to 20 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<10x20xf32>
      %d = arith.subf %v, %m : f32
      %b = arith.bitcast %d : f32 to i32
      %c = arith.constant 32767 : i32
      %e = arith.addi %b, %c : i32
      %k = arith.constant -65536 : i32
      %r = arith.andi %e, %k : i32
      %t = arith.bitcast %r : i32 to f32
      %n = arith.addf %acc, %t : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<10xf32>
  }
  loop.return
}

// -----

// More than 16 (`LOOPED_STEP_OPS`) row-wise ops of a bf16 load (a narrow
// float's step: its row-wise ops do not count against a cheap step's 16)
// run once, in a loop over the tile's 8 rows carrying the rows rotated by
// one and the results so far, the newest last; then one tile is transposed
// and added column by column.
// CHECK-LABEL: loop.kernel @long_rowwise_steps
// CHECK:         loop.for %{{.*}} = 0 to 16 step 8 iter_args(%[[A:[^ ]+]] = %{{.*}}) -> (vector<8xf32>) {
// CHECK-COUNT-8:   loop.load %{{.*}} : memref<10x20xbf16>, vector<8xbf16>
// CHECK:           %[[H:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK:           %[[Z:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 8 step 1 iter_args(%[[X0:[0-9]+]] = %{{[0-9]+}}, %[[X1:[0-9]+]] = %{{[0-9]+}}, {{.*}} = %[[Z]]) -> ({{.*}}) {
// CHECK-NEXT:        %[[P0:.*]] = arith.extf %[[X0]] : vector<8xbf16> to vector<8xf32>
// CHECK-NEXT:        %[[P1:.*]] = arith.mulf %[[P0]], %[[H]] : vector<8xf32>
// CHECK-COUNT-15:    arith.mulf
// CHECK-NEXT:        %[[P17:.*]] = arith.mulf %{{.*}}, %[[H]] : vector<8xf32>
// CHECK-NEXT:        loop.yield %[[X1]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[X0]], {{.*}}, %[[P17]] : {{.*}}
// CHECK-NEXT:      }
// CHECK-COUNT-24:  vector.shuffle
// CHECK-NEXT:      arith.addf %[[A]], %{{.*}} : vector<8xf32>
// CHECK-NOT:       arith.mulf
// CHECK:           loop.yield
loop.kernel @long_rowwise_steps(%x: memref<10x20xbf16>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (10) step (1) {
    %s = loop.for %j = 0 to 20 step 1 iter_args(%acc = %zero) -> (f32) {
      %b0 = loop.load %x[%i, %j] : memref<10x20xbf16>
      %p0 = arith.extf %b0 : bf16 to f32
      %h = arith.constant 0.5 : f32
      %p1 = arith.mulf %p0, %h : f32
      %p2 = arith.mulf %p1, %h : f32
      %p3 = arith.mulf %p2, %h : f32
      %p4 = arith.mulf %p3, %h : f32
      %p5 = arith.mulf %p4, %h : f32
      %p6 = arith.mulf %p5, %h : f32
      %p7 = arith.mulf %p6, %h : f32
      %p8 = arith.mulf %p7, %h : f32
      %p9 = arith.mulf %p8, %h : f32
      %p10 = arith.mulf %p9, %h : f32
      %p11 = arith.mulf %p10, %h : f32
      %p12 = arith.mulf %p11, %h : f32
      %p13 = arith.mulf %p12, %h : f32
      %p14 = arith.mulf %p13, %h : f32
      %p15 = arith.mulf %p14, %h : f32
      %p16 = arith.mulf %p15, %h : f32
      %p17 = arith.mulf %p16, %h : f32
      %n = arith.addf %acc, %p17 : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<10xf32>
  }
  loop.return
}

// -----

// Negative: the same steps scaled by the column's index are not row-wise
// past the load (the step depends on the column), so each step is 19 ops,
// more than a cheap step's 16: the rows stay 8 jammed scalar rows.
// CHECK-LABEL: loop.kernel @column_dependent_steps
// CHECK:         loop.parallel (%{{.*}}) = (0) to (8) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           loop.for %{{.*}} = 0 to 20 step 1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NOT:       vector.shuffle
// CHECK:         loop.return
loop.kernel @column_dependent_steps(%x: memref<10x20xf32>, %out: memref<10xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (10) step (1) {
    %s = loop.for %j = 0 to 20 step 1 iter_args(%acc = %zero) -> (f32) {
      %p0 = loop.load %x[%i, %j] : memref<10x20xf32>
      %ji = arith.index_cast %j : index to i32
      %h = arith.sitofp %ji : i32 to f32
      %p1 = arith.mulf %p0, %h : f32
      %p2 = arith.mulf %p1, %h : f32
      %p3 = arith.mulf %p2, %h : f32
      %p4 = arith.mulf %p3, %h : f32
      %p5 = arith.mulf %p4, %h : f32
      %p6 = arith.mulf %p5, %h : f32
      %p7 = arith.mulf %p6, %h : f32
      %p8 = arith.mulf %p7, %h : f32
      %p9 = arith.mulf %p8, %h : f32
      %p10 = arith.mulf %p9, %h : f32
      %p11 = arith.mulf %p10, %h : f32
      %p12 = arith.mulf %p11, %h : f32
      %p13 = arith.mulf %p12, %h : f32
      %p14 = arith.mulf %p13, %h : f32
      %p15 = arith.mulf %p14, %h : f32
      %p16 = arith.mulf %p15, %h : f32
      %p17 = arith.mulf %p16, %h : f32
      %n = arith.addf %acc, %p17 : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<10xf32>
  }
  loop.return
}
