// RUN: not xlir-opt -p convert-loop-to-qdsp %s 2>&1 | filecheck %s

// Every op the chip cannot run, in one diagnostic, each at its place (a
// compare with its predicate: Q4 has `fcmp.ogt`, not `fcmp.olt`).
loop.kernel @unsupported(%x: memref<16xf32>, %y: memref<16xf64>, %z: memref<16xf32>) {
  loop.parallel (%i) = (0) to (16) step (1) {
    %v = loop.load %x[%i] : memref<16xf32>
    %a = math.absf %v : f32
    %b = math.absf %a : f32
    %c = math.log %b : f32
    %d = arith.extf %c : f32 to f64
    loop.store %d, %y[%i] : memref<16xf64>
    %lt = arith.cmpf olt, %v, %c : f32
    %gt = arith.cmpf ogt, %v, %c : f32
    %m = arith.select %gt, %v, %c : f32
    loop.store %m, %z[%i] : memref<16xf32>
  }
  loop.return
}

// CHECK:      target 'qdsp' cannot run 6 op(s) of this program:
// CHECK-NEXT: refused.mlir:8:5: error: 'math.absf' has no qdsp instruction
// CHECK-NEXT: refused.mlir:9:5: error: 'math.absf' has no qdsp instruction
// CHECK-NEXT: refused.mlir:10:5: error: 'math.log' has no qdsp instruction
// CHECK-NEXT: refused.mlir:11:5: error: 'arith.extf' has a result of a type other than f32, i32, i1 or index
// CHECK-NEXT: refused.mlir:12:5: error: 'loop.store' on a memref<16xf64>; expected a row-major kernel argument of f32 or i32
// CHECK-NEXT: refused.mlir:13:5: error: 'arith.cmpf olt' has no qdsp instruction
// CHECK-NOT:  error
