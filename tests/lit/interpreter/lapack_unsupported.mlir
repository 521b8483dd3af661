// RUN: not xlir-run %s --random 2>&1 | filecheck %s

// A LAPACK routine xlir lacks, a flag LAPACK does not define and results of
// the wrong type are each named at their op, all at once.

// CHECK: the interpreter does not support 3 op(s) of this module:
// CHECK-NEXT: lapack_unsupported.mlir:[[# @LINE + 4]]:3: error: 'stablehlo.custom_call': LAPACK routine 'lapack_sgesvd_ffi' is not supported (xlir implements lapack_{s,d}potrf_ffi,
// CHECK: lapack_unsupported.mlir:[[# @LINE + 4]]:3: error: 'stablehlo.custom_call': lapack_spotrf_ffi flag uplo = 'X' is not one of 'L', 'U'
// CHECK: lapack_unsupported.mlir:[[# @LINE + 4]]:3: error: 'stablehlo.custom_call': lapack_sgetrf_ffi gives results (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>), but the op declares (tensor<3x3xf32>, tensor<3xi64>, tensor<i32>)
func.func @main(%a: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3xi64>) {
  %0:2 = stablehlo.custom_call @lapack_sgesvd_ffi(%a) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  %1:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 88 : ui8}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  %2:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi64>, tensor<i32>)
  return %0#0, %1#0, %2#1 : tensor<3x3xf32>, tensor<3x3xf32>, tensor<3xi64>
}
