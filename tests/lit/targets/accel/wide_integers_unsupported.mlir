// RUN: not xlir-opt %s -p loop-to-accel 2>&1 | filecheck %s

// The i64 ops XA-1 has no emulation for (divisions, conversions to and
// from floats) are listed, and only those: the kernel's other i64 ops
// would be emulated.
// CHECK: loop-to-accel cannot lower 2 op(s) for target 'accel':
// CHECK-NEXT: wide_integers_unsupported.mlir:[[# @LINE + 7]]:5: error: 'arith.divsi' computes on i64, which XA-1 emulates only in add, subtract, multiply, bitwise ops, shifts, compares, select, min/max, absolute values, bit counts, integer casts, loads, stores and reshapes
// CHECK-NEXT: wide_integers_unsupported.mlir:[[# @LINE + 7]]:5: error: 'arith.sitofp' computes on i64, which XA-1 emulates only in add, subtract, multiply, bitwise ops, shifts, compares, select, min/max, absolute values, bit counts, integer casts, loads, stores and reshapes
// CHECK-NOT: error
loop.kernel @divide(%x: memref<4xi64>, %y: memref<4xi64>, %f: memref<4xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %a = loop.load %x[%i] : memref<4xi64>
    %b = arith.addi %a, %a : i64
    %c = arith.divsi %b, %a : i64
    %d = arith.sitofp %c : i64 to f32
    loop.store %c, %y[%i] : memref<4xi64>
    loop.store %d, %f[%i] : memref<4xf32>
  }
  loop.return
}
