// RUN: not xlir-opt %s -p loop-to-accel 2>&1 | filecheck %s

// bf16 arithmetic must go through `widen-floats` (f32 ops rounded to bf16
// by integer code, as the accel pipeline runs it): computed on the
// containers as it is, it would be f32 arithmetic, rounded once at the
// store, not per op.
// CHECK: loop-to-accel cannot lower 1 op(s) for target 'accel':
// CHECK-NEXT: bf16_unwidened.mlir:[[# @LINE + 5]]:5: error: 'arith.mulf' computes on bf16, which widen-floats leaves to f32
// CHECK-NOT: error
loop.kernel @square(%x: memref<4xbf16>, %y: memref<4xbf16>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xbf16>
    %w = arith.mulf %v, %v : bf16
    loop.store %w, %y[%i] : memref<4xbf16>
  }
  loop.return
}
