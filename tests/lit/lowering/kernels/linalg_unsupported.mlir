// RUN: not xlir-opt %s -p assign-buffers,hlo-to-loop 2>&1 | filecheck %s

// A custom call with no kernel is named at its op with the others, never a
// crash: a LAPACK routine xlir does not know (complex Cholesky) and a custom
// call that is not LAPACK's.

// CHECK: hlo-to-loop cannot lower 2 op(s) of this module:
// CHECK-NEXT: linalg_unsupported.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.custom_call' LAPACK routine 'lapack_cpotrf_ffi' is not supported
// CHECK: linalg_unsupported.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.custom_call' custom call target 'my_kernel' is not supported on this target
func.func @main(%a: tensor<3x3xf32>) -> (tensor<i32>, tensor<3x3xf32>) {
  %1:2 = stablehlo.custom_call @lapack_cpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  %2 = stablehlo.custom_call @my_kernel(%a) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %1#1, %2 : tensor<i32>, tensor<3x3xf32>
}
