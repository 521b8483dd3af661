// RUN: qdsp-asm %s | filecheck %s

// One line per instruction; the outer loop runs four iterations at a time.
loop.kernel @axpy(%x: memref<10xf32>, %y: memref<10xf32>, %a: f32) {
  loop.parallel (%i) = (0) to (10) step (1) {
    %v = loop.load %x[%i] : memref<10xf32>
    %w = loop.load %y[%i] : memref<10xf32>
    %p = arith.mulf %a, %v : f32
    %s = arith.addf %p, %w : f32
    loop.store %s, %y[%i] : memref<10xf32>
  }
  loop.return
}

// CHECK:      .kernel axpy, buffer, buffer, scalar
// CHECK-NEXT:     argf [[A:r[0-9]+]], 2
// CHECK-NEXT:     loop [[T:r[0-9]+]], 0, 4, 3
// CHECK-NEXT:     lane [[L:r[0-9]+]]
// CHECK-NEXT:     iadd [[I:r[0-9]+]], [[T]], [[L]]
// CHECK-NEXT:     li [[LAST:r[0-9]+]], 9
// CHECK-NEXT:     imin [[I]], [[I]], [[LAST]]
// CHECK-NEXT:     ld [[V:r[0-9]+]], [[I]], 0
// CHECK-NEXT:     ld [[W:r[0-9]+]], [[I]], 1
// CHECK-NEXT:     fmul [[V]], [[A]], [[V]]
// CHECK-NEXT:     fadd [[V]], [[V]], [[W]]
// CHECK-NEXT:     st [[V]], [[I]], 1
// CHECK-NEXT:     endloop
