// RUN: xlir-opt %s -p split-divided --split-input-file | filecheck %s

// Heads put back side by side (a transpose then a reshape): the merged
// index %i is divided by 64, so it becomes (%h, %d) in (4, 64), and the
// load's indices are those dimensions themselves: unit stride along %d.
// CHECK-LABEL: loop.kernel @heads
// CHECK:         loop.parallel (%[[B:.*]], %[[R:.*]], %[[H:.*]], %[[D:.*]]) = (0, 0, 0, 0) to (4, 128, 4, 64) step (1, 1, 1, 1) {
// CHECK-NEXT:      %[[C:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[H]], %[[C]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.addi %[[M]], %[[D]] : index
// CHECK-NEXT:      %[[V:.*]] = loop.load %{{.*}}[%[[B]], %[[H]], %[[R]], %[[D]]] : memref<4x4x128x64xf32>
// CHECK-NEXT:      loop.store %[[V]], %{{.*}}[%[[B]], %[[R]], %[[I]]] : memref<4x128x256xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     arith.divui
// CHECK-NOT:     arith.remui
loop.kernel @heads(%x: memref<4x4x128x64xf32>, %y: memref<4x128x256xf32>) {
  %c64 = arith.constant 64 : index
  loop.parallel (%b, %r, %i) = (0, 0, 0) to (4, 128, 256) step (1, 1, 1) {
    %h = arith.divui %i, %c64 : index
    %d = arith.remui %i, %c64 : index
    %v = loop.load %x[%b, %h, %r, %d] : memref<4x4x128x64xf32>
    loop.store %v, %y[%b, %r, %i] : memref<4x128x256xf32>
  }
  loop.return
}

// -----

// An image's pixels and channels flattened: divisors 768 and 3 of 6144
// chain, so the dimension becomes (8, 256, 3), and the division by 3 and
// the remainder by 256 of its quotient fold to the middle dimension.
// CHECK-LABEL: loop.kernel @pixels
// CHECK:         loop.parallel (%[[R:.*]], %[[A:.*]], %[[P:.*]], %[[C:.*]]) = (0, 0, 0, 0) to (8, 8, 256, 3) step (1, 1, 1, 1) {
// CHECK-NOT:       arith.divui
// CHECK-NOT:       arith.remui
// CHECK:           loop.load %{{.*}}[%[[A]], %[[R]], %[[P]], %[[C]]] : memref<8x8x256x3xui8>
loop.kernel @pixels(%x: memref<8x8x256x3xui8>, %y: memref<8x6144xui8>) {
  %c768 = arith.constant 768 : index
  %c3 = arith.constant 3 : index
  %c256 = arith.constant 256 : index
  loop.parallel (%r, %i) = (0, 0) to (8, 6144) step (1, 1) {
    %a = arith.divui %i, %c768 : index
    %q = arith.divui %i, %c3 : index
    %p = arith.remui %q, %c256 : index
    %c = arith.remui %i, %c3 : index
    %v = loop.load %x[%a, %r, %p, %c] : memref<8x8x256x3xui8>
    loop.store %v, %y[%r, %i] : memref<8x6144xui8>
  }
  loop.return
}

// -----

// Divisors that do not chain (4 and 6 of 24), a divisor that does not
// divide the extent (5 of 256), a nest with a loop inside, and a
// remainder that indexes a load's first dimension (a transpose's column:
// split, the inner loop would not read with unit stride) are left as
// they are.
// CHECK-LABEL: loop.kernel @kept
// CHECK:         loop.parallel (%{{.*}}) = (0) to (24) step (1) {
// CHECK:         loop.parallel (%{{.*}}) = (0) to (256) step (1) {
// CHECK:         loop.parallel (%{{.*}}) = (0) to (256) step (1) {
// CHECK-NEXT:      loop.for
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (8, 256) step (1, 1) {
// CHECK-NEXT:      arith.divui
// CHECK-NEXT:      arith.remui
loop.kernel @kept(%x: memref<24xf32>, %y: memref<256xf32>, %z: memref<4x64xf32>, %w: memref<64x4x8xf32>, %out: memref<8x256xf32>) {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (24) step (1) {
    %a = arith.divui %i, %c4 : index
    %b = arith.remui %i, %c6 : index
    %s = arith.addi %a, %b : index
    %v = loop.load %x[%s] : memref<24xf32>
    loop.store %v, %x[%i] : memref<24xf32>
  }
  loop.parallel (%i) = (0) to (256) step (1) {
    %a = arith.remui %i, %c5 : index
    %v = loop.load %y[%a] : memref<256xf32>
    loop.store %v, %y[%i] : memref<256xf32>
  }
  loop.parallel (%i) = (0) to (256) step (1) {
    %s = loop.for %k = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
      %h = arith.divui %i, %c64 : index
      %d = arith.remui %i, %c64 : index
      %v = loop.load %z[%h, %d] : memref<4x64xf32>
      %t = arith.addf %acc, %v : f32
      loop.yield %t : f32
    }
    loop.store %s, %y[%i] : memref<256xf32>
  }
  loop.parallel (%r, %i) = (0, 0) to (8, 256) step (1, 1) {
    %h = arith.divui %i, %c64 : index
    %d = arith.remui %i, %c64 : index
    %v = loop.load %w[%d, %h, %r] : memref<64x4x8xf32>
    loop.store %v, %out[%r, %i] : memref<8x256xf32>
  }
  loop.return
}
