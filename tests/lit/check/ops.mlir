// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @eq
func.func @eq(%a: tensor<3xi64>, %b: tensor<3xi64>) {
  // CHECK: check.expect_eq %{{.*}}, %{{.*}} : tensor<3xi64>
  // GENERIC: "check.expect_eq"(%{{.*}}, %{{.*}}) : (tensor<3xi64>, tensor<3xi64>) -> ()
  check.expect_eq %a, %b : tensor<3xi64>
  // CHECK: check.expect_eq_const %{{.*}}, dense<[-2, 0, 2]> : tensor<3xi64>
  // GENERIC: "check.expect_eq_const"(%{{.*}}) <{value = dense<[-2, 0, 2]> : tensor<3xi64>}> : (tensor<3xi64>) -> ()
  check.expect_eq_const %a, dense<[-2, 0, 2]> : tensor<3xi64>
  // CHECK: check.expect_eq_const %{{.*}}, dense<[1, 2, 3]> : tensor<3xi64> {note = 1 : i64}
  check.expect_eq_const %a, dense<[1, 2, 3]> : tensor<3xi64> {note = 1 : i64}
  func.return
}

// CHECK-LABEL: func.func @almost_eq
func.func @almost_eq(%a: tensor<f64>, %b: tensor<f64>, %z: tensor<2xcomplex<f64>>) {
  // CHECK: check.expect_almost_eq %{{.*}}, %{{.*}} : tensor<f64>
  check.expect_almost_eq %a, %b : tensor<f64>
  // CHECK: check.expect_almost_eq %{{.*}}, %{{.*}}, tolerance = 1.000000e-01 : tensor<f64>
  // GENERIC: "check.expect_almost_eq"(%{{.*}}, %{{.*}}) <{tolerance = 1.000000e-01 : f64}> : (tensor<f64>, tensor<f64>) -> ()
  check.expect_almost_eq %a, %b, tolerance = 0.1 : tensor<f64>
  // CHECK: check.expect_almost_eq_const %{{.*}}, dense<5.000100e+00> : tensor<f64>
  check.expect_almost_eq_const %a, dense<5.0001> : tensor<f64>
  // CHECK: check.expect_almost_eq_const %{{.*}}, dense<5.100000e+00> : tensor<f64>, tolerance = 1.000000e-01
  // GENERIC: "check.expect_almost_eq_const"(%{{.*}}) <{value = dense<5.100000e+00> : tensor<f64>, tolerance = 1.000000e-01 : f64}> : (tensor<f64>) -> ()
  check.expect_almost_eq_const %a, dense<5.1> : tensor<f64> {tolerance = 0.1 : f64}
  // CHECK: check.expect_almost_eq_const %{{.*}}, dense<5.100000e+00> : tensor<f64>, tolerance = 1.000000e-03
  check.expect_almost_eq_const %a, dense<5.1> : tensor<f64>, tolerance = 1.0e-3
  // CHECK: check.expect_almost_eq_const %{{.*}}, dense<[(4.000000e+00,-2.000000e+00), (-2.000000e+00,6.000000e+00)]> : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %z, dense<[(4.0, -2.0), (-2.0, 6.0)]> : tensor<2xcomplex<f64>>
  func.return
}

// CHECK-LABEL: func.func @close
func.func @close(%a: tensor<f16>, %b: tensor<f16>) {
  // CHECK: check.expect_close %{{.*}}, %{{.*}}, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
  // GENERIC: "check.expect_close"(%{{.*}}, %{{.*}}) <{max_ulp_difference = 3 : ui64}> : (tensor<f16>, tensor<f16>) -> ()
  check.expect_close %a, %b, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
  // CHECK: check.expect_close %{{.*}}, %{{.*}}, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<f16>, tensor<f16>
  check.expect_close %a, %b, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<f16>, tensor<f16>
  // CHECK: check.expect_close %{{.*}}, %{{.*}}, max_ulp_difference = 0 : {note} tensor<f16>, tensor<f16>
  check.expect_close %a, %b, max_ulp_difference = 0 : {note} tensor<f16>, tensor<f16>
  // The generic form StableHLO's older test files use: inherent attributes in
  // the attribute dictionary.
  // CHECK: check.expect_close %{{.*}}, %{{.*}}, max_ulp_difference = 4 : tensor<f16>, tensor<f16>
  "check.expect_close"(%a, %b) {max_ulp_difference = 4 : ui64} : (tensor<f16>, tensor<f16>) -> ()
  func.return
}
