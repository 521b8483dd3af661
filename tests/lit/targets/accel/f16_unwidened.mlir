// RUN: not xlir-opt %s -p loop-to-accel 2>&1 | filecheck %s

// f16 arithmetic must go through `widen-floats` (f32 ops, each rounded by
// `truncf`), and an f16 bitcast has no lowering (its bits are not the
// container's): both are listed.
// CHECK: loop-to-accel cannot lower 2 op(s) for target 'accel':
// CHECK-NEXT: f16_unwidened.mlir:[[# @LINE + 6]]:5: error: 'arith.mulf' computes on f16, which widen-floats leaves to f32
// CHECK-NEXT: f16_unwidened.mlir:[[# @LINE + 6]]:5: error: 'arith.bitcast' takes the bits of f16, which XA-1 holds as f32 containers
// CHECK-NOT: error
loop.kernel @square(%x: memref<4xf16>, %y: memref<4xi16>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf16>
    %w = arith.mulf %v, %v : f16
    %b = arith.bitcast %w : f16 to i16
    loop.store %b, %y[%i] : memref<4xi16>
  }
  loop.return
}
