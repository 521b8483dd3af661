// RUN: not xlir-opt %s -p loop-to-llvm 2>&1 | filecheck %s

// A math function on a vector (a register tile's GELU that expand-math did
// not write out) has no function to call: a diagnostic, not a crash.

// CHECK: loop-to-llvm cannot lower 1 op(s) of this module for target 'cpu':
// CHECK-NEXT: unsupported_vector_math.mlir:[[# @LINE + 4]]:3: error: 'math.tanh' calls a math function on vector<4xf32>, which target 'cpu' calls on scalars only (the expand-math pass writes it out as vector code)
loop.kernel @k(%a: memref<8xf32>) {
  %i = arith.constant 0 : index
  %x = loop.load %a[%i] : memref<8xf32>, vector<4xf32>
  %y = math.tanh %x : vector<4xf32>
  loop.store %y, %a[%i] : memref<8xf32>, vector<4xf32>
  loop.return
}
