// RUN: not xlir-opt %s -p hlo-opt,hlo-to-loop 2>&1 | filecheck %s

// The loop level has real numbers only: complex values that reach it (a
// pipeline without split-complex) are named, with what to run.

// CHECK: hlo-to-loop cannot lower 2 op(s) of this module:
// CHECK-NEXT: unsupported_complex.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.multiply' on complex values: the loop level has real numbers only; run `split-complex` before `fuse` (the cpu target's pipeline does)
// CHECK-NEXT: unsupported_complex.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.abs' on complex values
func.func @main(%a: tensor<4xcomplex<f32>>, %b: tensor<4xcomplex<f32>>) -> (tensor<4xcomplex<f32>>, tensor<4xf32>) {
  %0 = stablehlo.multiply %a, %b : tensor<4xcomplex<f32>>
  %1 = stablehlo.abs %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  return %0, %1 : tensor<4xcomplex<f32>>, tensor<4xf32>
}
