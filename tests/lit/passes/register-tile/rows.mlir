// RUN: xlir-opt %s -p 'register-tile{mr=4 nr=4 lanes=4}' --split-input-file | filecheck %s

// A tile's rows divide the nest's rows where a number above half of `mr`
// does: 6 rows are two tiles of 3, not a tile of 4 and two single rows.
// CHECK-LABEL: loop.kernel @six_rows
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (6, 8) step (3, 4) attributes {jam = array<i64: 3, 4>} {
// CHECK-NOT:     loop.parallel
// CHECK:         loop.return
loop.kernel @six_rows(%a: memref<6x8xf32>, %b: memref<8x8xf32>, %c: memref<6x8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (6, 8) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<6x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<6x8xf32>
  }
  loop.return
}

// -----

// Fewer rows than `mr`: one tile of all of them. Five rows, which nothing
// above 2 divides: tiles of 4 and a single-row remainder.
// CHECK-LABEL: loop.kernel @three_rows
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (3, 8) step (3, 4) attributes {jam = array<i64: 3, 4>} {
// CHECK-NOT:     loop.parallel
// CHECK-LABEL: loop.kernel @five_rows
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 8) step (4, 4) attributes {jam = array<i64: 4, 4>} {
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (4, 0) to (5, 8) step (1, 4) attributes {jam = array<i64: 1, 4>} {
loop.kernel @three_rows(%a: memref<3x8xf32>, %b: memref<8x8xf32>, %c: memref<3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (3, 8) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<3x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<3x8xf32>
  }
  loop.return
}
loop.kernel @five_rows(%a: memref<5x8xf32>, %b: memref<8x8xf32>, %c: memref<5x8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (5, 8) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<5x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<5x8xf32>
  }
  loop.return
}
