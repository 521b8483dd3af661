// RUN: not xlir-opt -p convert-loop-to-qdsp %s 2>&1 | filecheck %s

// What Q4 would compute wrong is refused instead: a buffer that is not
// row-major, integer arithmetic (its lanes compute addresses only, not
// i1's modulo 2) and a scalar argument other than f32.
loop.kernel @strided(%x: memref<4xf32, strided<[2]>>, %y: memref<4xi32>, %n: i32) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf32, strided<[2]>>
    %n4 = arith.index_cast %n : i32 to index
    %t = arith.constant true
    %s = arith.addi %t, %t : i1
    %w = arith.extui %s : i1 to i32
    loop.store %w, %y[%i] : memref<4xi32>
  }
  loop.return
}

// CHECK:      target 'qdsp' cannot run 4 op(s) of this program:
// CHECK-NEXT: refused_layouts.mlir:6:1: error: 'loop.kernel' takes an argument of i32
// CHECK-NEXT: refused_layouts.mlir:8:5: error: 'loop.load' on a memref<4xf32, strided<[2]>>; expected a row-major kernel argument of f32 or i32
// CHECK-NEXT: refused_layouts.mlir:11:5: error: 'arith.addi' has no qdsp instruction
// CHECK-NEXT: refused_layouts.mlir:12:5: error: 'arith.extui' has no qdsp instruction
// CHECK-NOT:  error
