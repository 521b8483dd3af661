// RUN: not xlir-opt -p convert-loop-to-qdsp %s 2>&1 | filecheck %s

// Every op the chip cannot run, in one diagnostic: each kind at its first
// use, with how many there are (a compare's kind is its predicate's).
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

// CHECK:      error: target 'qdsp' cannot run 6 op(s) of this program, of 5 kind(s):
// CHECK-NEXT: refused.mlir:8:5: error: 'math.absf': no qdsp instruction (2 in all)
// CHECK-NEXT: refused.mlir:10:5: error: 'math.log': no qdsp instruction (1 in all)
// CHECK-NEXT: refused.mlir:11:5: error: 'arith.extf': a result of a type other than f32, i32, i1 or index (1 in all)
// CHECK-NEXT: refused.mlir:12:5: error: 'loop.store': a memref<16xf64>; expected a row-major kernel argument of f32 or i32 (1 in all)
// CHECK-NEXT: refused.mlir:13:5: error: 'arith.cmpf olt': no qdsp instruction (1 in all)
// CHECK-NOT:  error
