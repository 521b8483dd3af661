// RUN: xlir-opt -p convert-loop-to-qdsp,qdsp-allocate-registers -t asm %s | filecheck %s

// One line per instruction; the outer loop runs four iterations at a time,
// one in each lane.
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
// CHECK-NEXT:     loop [[I:r[0-9]+]], 0, 1, 10, 4
// CHECK-NEXT:     ld [[V:r[0-9]+]], [[I]], 0
// CHECK-NEXT:     ld [[W:r[0-9]+]], [[I]], 1
// CHECK-NEXT:     fmul [[V]], [[A]], [[V]]
// CHECK-NEXT:     fadd [[V]], [[V]], [[W]]
// CHECK-NEXT:     st [[V]], [[I]], 1
// CHECK-NEXT:     endloop
// CHECK-NOT:  {{.}}
