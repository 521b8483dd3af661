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

// A reduction: the `loop` line names the register it carries the sum in
// after its counter; `endloop` names the register holding the next trip's
// sum, which the carried one takes.
loop.kernel @total(%x: memref<5xf32>, %t: memref<1xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %s = loop.for %i = 0 to 5 step 1 iter_args(%a = %zero) -> (f32) {
    %v = loop.load %x[%i] : memref<5xf32>
    %b = arith.addf %a, %v : f32
    loop.yield %b : f32
  }
  loop.store %s, %t[%c0] : memref<1xf32>
  loop.return
}

// CHECK-NEXT: .kernel total, buffer, buffer
// CHECK-NEXT:     lf [[ZERO:r[0-9]+]], 0.0
// CHECK-NEXT:     li [[C0:r[0-9]+]], 0
// CHECK-NEXT:     mv [[SUM:r[0-9]+]], [[ZERO]]
// CHECK-NEXT:     loop [[I:r[0-9]+]], [[SUM]], 0, 1, 5, 1
// CHECK-NEXT:     ld [[V:r[0-9]+]], [[I]], 0
// CHECK-NEXT:     fadd [[NEXT:r[0-9]+]], [[SUM]], [[V]]
// CHECK-NEXT:     endloop [[NEXT]]
// CHECK-NEXT:     st [[SUM]], [[C0]], 1
// CHECK-NOT:  {{.}}
