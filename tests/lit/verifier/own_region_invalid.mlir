// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// An operand defined inside the op's own region, after the use: the op is
// not yet built when the parser meets the definition, so the parser patches
// the operand itself, and the verifier reports the use it does not dominate.

loop.kernel @bound_from_inside(%x: memref<16xf32>) {
  %c4 = arith.constant 4 : index
  loop.parallel (%e) = (0) to (%n) step (1) {
    %n = arith.minsi %c4, %e : index
  }
  loop.return
}
// CHECK: own_region_invalid.mlir:9:3: error: 'loop.parallel' op operand #0 does not dominate this use
// CHECK: own_region_invalid.mlir:10:5: note: operand defined here (the result of 'arith.minsi', in a region of this op)
