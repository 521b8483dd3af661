// RUN: not xlir-opt -p convert-loop-to-qdsp %s 2>&1 | filecheck %s

// A buffer that is not row-major, and arithmetic on i1 (not modulo 2 on Q4's
// 32-bit lanes), are refused rather than computed wrong.
loop.kernel @strided(%x: memref<4xf32, strided<[2]>>, %y: memref<4xi32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf32, strided<[2]>>
    %t = arith.constant true
    %s = arith.addi %t, %t : i1
    %w = arith.extui %s : i1 to i32
    loop.store %w, %y[%i] : memref<4xi32>
  }
  loop.return
}

// CHECK:      error: target 'qdsp' cannot run 3 op(s) of this program, of 3 kind(s):
// CHECK-NEXT: refused_layouts.mlir:7:5: error: 'loop.load': a memref<4xf32, strided<[2]>>; expected a row-major kernel argument of f32 or i32 (1 in all)
// CHECK:      refused_layouts.mlir:9:5: error: 'arith.addi': i1 arithmetic (1 in all)
// CHECK:      refused_layouts.mlir:10:5: error: 'arith.extui': no qdsp instruction (1 in all)
