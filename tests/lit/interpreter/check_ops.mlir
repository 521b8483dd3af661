// RUN: not xlir-run --check --split-input-file %s | filecheck %s

// check.* ops pass and fail as they should; a failure names the op's place.

// CHECK: PASS @passing_checks
func.func @passing_checks() {
  %a = stablehlo.constant dense<[1.0, 0x7FC00000, 0x7F800000]> : tensor<3xf32>
  %b = stablehlo.constant dense<[1.00001, 0x7FC00000, 0x7F800000]> : tensor<3xf32>
  check.expect_almost_eq %a, %b : tensor<3xf32>
  check.expect_almost_eq_const %a, dense<[1.05, 0x7FC00000, 0x7F800000]> : tensor<3xf32>, tolerance = 1.000000e-01
  %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %d = stablehlo.constant dense<[1.0000001, 2.0]> : tensor<2xf32>
  check.expect_close %c, %d, max_ulp_difference = 1 : tensor<2xf32>, tensor<2xf32>
  %e = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq %e, %e : tensor<2xi32>
  check.expect_eq_const %e, dense<[1, 2]> : tensor<2xi32>
  func.return
}

// -----

// CHECK: FAIL @signed_zero_is_not_equal
// CHECK-NEXT: check_ops.mlir:[[# @LINE + 3]]:3: error: check.expect_eq_const failed (exact): 1 element(s) differ; first at index [0]: got -0.0, expected 0.0
func.func @signed_zero_is_not_equal() {
  %a = stablehlo.constant dense<[-0.0]> : tensor<1xf32>
  check.expect_eq_const %a, dense<[0.0]> : tensor<1xf32>
  func.return
}

// -----

// CHECK: FAIL @ulps
// CHECK-NEXT: error: check.expect_close failed (ULP distance in [0, 1])
func.func @ulps() {
  %c = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %d = stablehlo.constant dense<[1.0000003]> : tensor<1xf32>
  check.expect_close %c, %d, max_ulp_difference = 1 : tensor<1xf32>, tensor<1xf32>
  func.return
}

// -----

// CHECK: SKIP @with_arguments
func.func @with_arguments(%x: tensor<i32>) {
  check.expect_eq_const %x, dense<1> : tensor<i32>
  func.return
}

// CHECK: {{^}}1 passed, 2 failed
