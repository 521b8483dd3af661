// RUN: not xlir-opt %s -p loop-to-accel 2>&1 | filecheck %s

// XA-1 has no f64 and no 64-bit integer instructions yet: every op that
// needs one is listed in one diagnostic, before anything is changed.

// CHECK: loop-to-accel cannot lower 3 op(s) for target 'accel':
// CHECK-NEXT: loop_to_accel_unsupported.mlir:[[# @LINE + 6]]:5: error: 'loop.load' uses a buffer of f64 (XA-1 has none)
// CHECK-NEXT: loop_to_accel_unsupported.mlir:[[# @LINE + 6]]:5: error: 'arith.mulf' computes on f64 (XA-1 has no such type)
// CHECK-NEXT: loop_to_accel_unsupported.mlir:[[# @LINE + 6]]:5: error: 'loop.store' computes on f64 (XA-1 has no such type)
// CHECK-NOT: error
loop.kernel @square(%x: memref<4xf64>, %y: memref<4xf64>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf64>
    %w = arith.mulf %v, %v : f64
    loop.store %w, %y[%i] : memref<4xf64>
  }
  loop.return
}
