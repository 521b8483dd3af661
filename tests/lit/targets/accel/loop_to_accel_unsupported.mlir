// RUN: not xlir-opt %s -p loop-to-accel 2>&1 | filecheck %s

// XA-1 has no f64 and no 64-bit integer instructions yet: every op that
// needs one is listed in one diagnostic, before anything is changed.

// CHECK: loop-to-accel cannot lower 4 op(s) for target 'accel':
// CHECK-NEXT: loop_to_accel_unsupported.mlir:[[# @LINE + 7]]:5: error: 'loop.load' uses a buffer of f64 (XA-1 has none)
// CHECK-NEXT: loop_to_accel_unsupported.mlir:[[# @LINE + 7]]:5: error: 'arith.mulf' computes on f64 (XA-1 has no such type)
// CHECK-NEXT: loop_to_accel_unsupported.mlir:[[# @LINE + 7]]:5: error: 'loop.store' computes on f64 (XA-1 has no such type)
// CHECK-NEXT: loop_to_accel_unsupported.mlir:23:1: error: 'loop.kernel' has a buffer of memref<0x2xf64> (XA-1 has none)
// CHECK-NOT: error
loop.kernel @square(%x: memref<4xf64>, %y: memref<4xf64>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf64>
    %w = arith.mulf %v, %v : f64
    loop.store %w, %y[%i] : memref<4xf64>
  }
  loop.return
}

// A kernel of no ops (an empty tensor's convert) still has an f64 buffer
// (the fuzzer: an assertion in the layout instead of this diagnostic).
loop.kernel @empty(%x: memref<0x2xf64>, %y: memref<0x2xbf16>) {
  loop.return
}
