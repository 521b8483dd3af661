// RUN: xlir-run %s --target cpu --function both 2>&1 | filecheck %s --check-prefix=BOTH
// RUN: xlir-run %s --target cpu --function constant 2>&1 | filecheck %s --check-prefix=CONSTANT

// bf16 in host code: a bf16 constant (a global of its bits) returned twice
// beside another output (one result is copied, 2 bytes an element), and a
// constant output; the executable hands them back as `ml_dtypes.bfloat16`.

// BOTH: out0: tensor<1x2xbf16> = {{\[\[}}1.5 -2]]
// BOTH: out1: tensor<1x2xbf16> = {{\[\[}}1.5 -2]]
// BOTH: out2: tensor<2xi32> = [2 4]
func.func @both() -> (tensor<1x2xbf16>, tensor<1x2xbf16>, tensor<2xi32>) {
  %c = stablehlo.constant dense<[[1.5, -2.0]]> : tensor<1x2xbf16>
  %i = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = stablehlo.add %i, %i : tensor<2xi32>
  return %c, %c, %0 : tensor<1x2xbf16>, tensor<1x2xbf16>, tensor<2xi32>
}

// 3e38 is bf16 3.00406e+38 (0x7F62), not float32's 3e38.
// CONSTANT: out0: tensor<5x1xbf16> = {{\[\[}}3.00406e+38] [3.00406e+38] [3.00406e+38] [3.00406e+38] [3.00406e+38]]
func.func @constant() -> tensor<5x1xbf16> {
  %0 = stablehlo.constant dense<3.000000e+38> : tensor<5x1xbf16>
  return %0 : tensor<5x1xbf16>
}
