// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=8 lanes=4},pack-panels{min-bytes=0}' | filecheck %s

// A transposed lhs (`Aᵀ[k, i]`, an image resize's weights) is read at the
// tile's rows plus a constant, the way an rhs is read at its columns: both
// operands could be packed. The larger is: the other is streamed once per
// panel. Here B (8x16) is larger than Aᵀ (8x4), and its panels are packed
// (panels of A's rows left a resize's 6 MiB B streamed from memory by every
// row tile).
// CHECK-LABEL: loop.kernel @at_b(
// CHECK-SAME:    %[[A:[^:]*]]: memref<8x4xf32>, %[[B:[^:]*]]: memref<8x16xf32>, %[[C:[^:]*]]: memref<4x16xf32>, %[[P:[^:]*]]: memref<2x8x8xf32>)
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (16) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           loop.for
// CHECK-NEXT:        loop.load %[[B]]
// CHECK:           loop.parallel (%[[I:.*]]) = (0) to (4) step (2) attributes {jam = array<i64: 2>} {
// CHECK:             loop.load %[[A]]
// CHECK:             loop.load %[[P]]
// CHECK-NOT:         loop.load %[[B]]
// CHECK:           loop.return
loop.kernel @at_b(%a: memref<8x4xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%k, %i] : memref<8x4xf32>
      %y = loop.load %b[%k, %j] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x16xf32>
  }
  loop.return
}

// Where only the transposed lhs can be packed (the rhs is read at a row the
// parallel dimension picks, `B[k, j]` of a batch `j`), A's panels of rows are.
// CHECK-LABEL: loop.kernel @at_only(
// CHECK-SAME:    %[[A:[^:]*]]: memref<8x4xf32>, %[[B:[^:]*]]: memref<16x8x1xf32>, %[[C:[^:]*]]: memref<4x16xf32>, %[[P:[^:]*]]: memref<1x8x4xf32>)
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (4) step (4) attributes {jam = array<i64: 4>} {
// CHECK:           loop.load %[[A]]
// CHECK:           loop.parallel
// CHECK:             loop.load %[[P]]
// CHECK-NOT:         loop.load %[[A]]
// CHECK:           loop.return
loop.kernel @at_only(%a: memref<8x4xf32>, %b: memref<16x8x1xf32>, %c: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %z = arith.constant 0 : index
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%k, %i] : memref<8x4xf32>
      %y = loop.load %b[%j, %k, %z] : memref<16x8x1xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x16xf32>
  }
  loop.return
}

// Aᵀ (8x32) larger than B (8x16): A's panels of rows are packed.
// CHECK-LABEL: loop.kernel @large_at(
// CHECK-SAME:    %[[A:[^:]*]]: memref<8x32xf32>, %[[B:[^:]*]]: memref<8x16xf32>, %[[C:[^:]*]]: memref<32x16xf32>, %[[P:[^:]*]]: memref<16x8x2xf32>)
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (32) step (2) attributes {jam = array<i64: 2>} {
// CHECK:           loop.load %[[A]]
// CHECK:           loop.parallel
// CHECK:             loop.load %[[P]]
// CHECK-NOT:         loop.load %[[A]]
// CHECK:             loop.load %[[B]]
// CHECK:           loop.return
loop.kernel @large_at(%a: memref<8x32xf32>, %b: memref<8x16xf32>, %c: memref<32x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (32, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%k, %i] : memref<8x32xf32>
      %y = loop.load %b[%k, %j] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<32x16xf32>
  }
  loop.return
}
