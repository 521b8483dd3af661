// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=8 lanes=4},pack-panels{min-bytes=0}' | filecheck %s

// The panels are of the contraction's rhs, not of an operand only the
// epilogue reads: a row scale read at the tile's rows (the first jammed
// dimension) was taken for the rhs of panels of rows, and the rhs itself
// was left unpacked (an int8 matmul with per-row and per-column scales).
// CHECK-LABEL: loop.kernel @scaled_matmul(
// CHECK-SAME:    %[[A:[^:]*]]: memref<4x8xf32>, %[[B:[^:]*]]: memref<8x16xf32>, %[[R:[^:]*]]: memref<4xf32>, %[[S:[^:]*]]: memref<16xf32>, %[[C:[^:]*]]: memref<4x16xf32>, %[[P:[^:]*]]: memref<2x8x8xf32>)
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (16) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           loop.for
// CHECK-NEXT:        loop.load %[[B]]
// CHECK:           loop.parallel (%[[I:.*]]) = (0) to (4) step (2) attributes {jam = array<i64: 2>} {
// CHECK:             loop.load %[[P]]
// CHECK-NOT:         loop.load %[[B]]
// CHECK:             loop.load %[[R]][%[[I]]] : memref<4xf32>
// CHECK:             loop.load %[[S]][%[[J]]] : memref<16xf32>, vector<4xf32>
loop.kernel @scaled_matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %rows: memref<4xf32>, %columns: memref<16xf32>, %c: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %r = loop.load %rows[%i] : memref<4xf32>
    %t = arith.mulf %s, %r : f32
    %u = loop.load %columns[%j] : memref<16xf32>
    %v = arith.mulf %t, %u : f32
    loop.store %v, %c[%i, %j] : memref<4x16xf32>
  }
  loop.return
}
