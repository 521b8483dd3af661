// RUN: xlir-run --check --split-input-file %s | filecheck %s

// Complex numbers compare and sort as (real, imaginary) pairs in
// lexicographic order (TOTALORDER: IEEE's totalOrder on each part).
// CHECK: PASS @compare_and_sort
func.func @compare_and_sort() {
  %a = stablehlo.constant dense<[(1.0, 2.0), (1.0, 3.0), (2.0, 0.0), (0.0, 5.0), (-0.0, 1.0)]> : tensor<5xcomplex<f64>>
  %b = stablehlo.constant dense<[(1.0, 2.0), (1.0, 2.0), (1.0, 9.0), (1.0, 0.0), (0.0, 1.0)]> : tensor<5xcomplex<f64>>
  %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>) -> tensor<5xi1>
  check.expect_eq_const %lt, dense<[false, false, false, true, false]> : tensor<5xi1>
  %ge = stablehlo.compare GE, %a, %b : (tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>) -> tensor<5xi1>
  check.expect_eq_const %ge, dense<[true, true, true, false, true]> : tensor<5xi1>
  %tlt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>) -> tensor<5xi1>
  check.expect_eq_const %tlt, dense<[false, false, false, true, true]> : tensor<5xi1>
  %s = "stablehlo.sort"(%a) ({
    ^bb0(%x: tensor<complex<f64>>, %y: tensor<complex<f64>>):
      %c = stablehlo.compare GT, %x, %y : (tensor<complex<f64>>, tensor<complex<f64>>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<5xcomplex<f64>>) -> tensor<5xcomplex<f64>>
  check.expect_eq_const %s, dense<[(2.0, 0.0), (1.0, 3.0), (1.0, 2.0), (0.0, 5.0), (-0.0, 1.0)]> : tensor<5xcomplex<f64>>
  %t = "stablehlo.sort"(%a) ({
    ^bb0(%x: tensor<complex<f64>>, %y: tensor<complex<f64>>):
      %c = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<complex<f64>>, tensor<complex<f64>>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<5xcomplex<f64>>) -> tensor<5xcomplex<f64>>
  check.expect_eq_const %t, dense<[(-0.0, 1.0), (0.0, 5.0), (1.0, 2.0), (1.0, 3.0), (2.0, 0.0)]> : tensor<5xcomplex<f64>>
  func.return
}

// CHECK: {{^}}1 passed, 0 failed
