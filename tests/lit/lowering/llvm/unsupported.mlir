// RUN: not xlir-opt %s -p loop-to-llvm 2>&1 | filecheck %s

// Every op or type the cpu target's lowering cannot handle is listed at
// once, with its location and the target's name, before anything changes.

// CHECK: loop-to-llvm cannot lower 4 op(s) of this module for target 'cpu':
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 8]]:7: error: 'math.acos' has no lowering for target 'cpu'
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 8]]:7: error: 'arith.truncf' computes on bf16, which target 'cpu' holds only in memory (the widen-floats pass computes on it in f32)
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 8]]:7: error: 'arith.extf' computes on bf16, which target 'cpu' holds only in memory (the widen-floats pass computes on it in f32)
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 8]]:7: error: 'arith.extf' has a value of type f80, which the target does not support
builtin.module {
  loop.kernel @k(%a: memref<4xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %x = loop.load %a[%i] : memref<4xf32>
      %y = math.acos %x : f32
      %z = arith.truncf %y : f32 to bf16
      %w = arith.extf %z : bf16 to f32
      %v = arith.extf %w : f32 to f80
      loop.store %w, %a[%i] : memref<4xf32>
    }
    loop.return
  }
}
