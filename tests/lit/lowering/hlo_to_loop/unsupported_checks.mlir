// RUN: not xlir-opt %s -p hlo-opt,hlo-to-loop 2>&1 | filecheck %s

// A program of StableHLO's interpreter suite keeps its `check` assertions
// unless `check-to-outputs` turns them into outputs first: each is reported
// with what to do, not an internal error.

// CHECK: hlo-to-loop cannot lower 2 op(s) of this module:
// CHECK-NEXT: unsupported_checks.mlir:[[# @LINE + 14]]:3: error: 'check.expect_eq_const' is a test assertion: run `check-to-outputs` before `hlo-opt` (xlir-run does), or run the program on the evaluator
// CHECK-NEXT: unsupported_checks.mlir:[[# @LINE + 14]]:3: error: 'check.expect_eq_const' is a test assertion
func.func @while() {
  %i0 = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %i = stablehlo.while(%arg0 = %i0) : tensor<i64>
  cond {
    %cond = stablehlo.compare LT, %arg0, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %cond : tensor<i1>
  } do {
    %next = stablehlo.add %arg0, %one : tensor<i64>
    stablehlo.return %next : tensor<i64>
  }
  check.expect_eq_const %i, dense<10> : tensor<i64>
  check.expect_eq_const %i0, dense<0> : tensor<i64>
  func.return
}
