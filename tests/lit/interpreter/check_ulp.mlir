// RUN: not xlir-run --check --split-input-file %s | filecheck %s

// expect_close counts units in the last place of the element type itself
// (bf16's, float8's; each part of a complex number), not of its host dtype.
// CHECK: PASS @bf16_one_ulp
func.func @bf16_one_ulp() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xbf16>
  %b = stablehlo.constant dense<[1.0078125, 2.0]> : tensor<2xbf16>
  check.expect_close %a, %b, max_ulp_difference = 1 : tensor<2xbf16>, tensor<2xbf16>
  func.return
}

// -----
// CHECK: FAIL @f8_two_ulp
// CHECK-NEXT: error: check.expect_close failed (ULP distance in [0, 1]): 1 element(s) differ; first at index [0]: got 1.0, expected 1.25

func.func @f8_two_ulp() {
  %a = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf8E4M3FN>
  %b = stablehlo.constant dense<[1.25, -2.0]> : tensor<2xf8E4M3FN>
  check.expect_close %a, %b, max_ulp_difference = 1 : tensor<2xf8E4M3FN>, tensor<2xf8E4M3FN>
  func.return
}

// -----
// CHECK: FAIL @complex_ulp
// CHECK-NEXT: error: check.expect_close failed (ULP distance in [0, 0])

func.func @complex_ulp() {
  %a = stablehlo.constant dense<[(1.0, 1.0)]> : tensor<1xcomplex<f32>>
  %b = stablehlo.constant dense<[(1.0, 1.00000012)]> : tensor<1xcomplex<f32>>
  check.expect_close %a, %b, max_ulp_difference = 1 : tensor<1xcomplex<f32>>, tensor<1xcomplex<f32>>
  check.expect_close %a, %b, max_ulp_difference = 0 : tensor<1xcomplex<f32>>, tensor<1xcomplex<f32>>
  func.return
}

// CHECK: {{^}}1 passed, 2 failed
