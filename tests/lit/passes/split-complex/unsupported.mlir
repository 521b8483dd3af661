// RUN: not xlir-opt %s -p split-complex 2>&1 | filecheck %s

// Every op on complex values without a split is listed at once; a use of
// such an op's complex result is not reported again.

// CHECK: split-complex cannot split 2 op(s) on complex values:
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.bitcast_convert' on complex values has no split into parts yet
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.custom_call' on complex values has no split into parts yet
func.func @main(%a: tensor<complex<f64>>) -> (tensor<2xcomplex<f32>>, tensor<complex<f64>>) {
  %0 = stablehlo.bitcast_convert %a : (tensor<complex<f64>>) -> tensor<2xcomplex<f32>>
  %1 = stablehlo.custom_call @foo(%a) : (tensor<complex<f64>>) -> tensor<complex<f64>>
  %2 = stablehlo.add %1, %1 : tensor<complex<f64>>
  return %0, %2 : tensor<2xcomplex<f32>>, tensor<complex<f64>>
}
