// RUN: xlir-run --check --split-input-file %s | filecheck %s

// CHECK: PASS @cholesky
func.func @cholesky() {
  %a = stablehlo.constant dense<[[4.0, 12.0, -16.0], [12.0, 37.0, -43.0], [-16.0, -43.0, 98.0]]> : tensor<3x3xf64>
  %l = stablehlo.cholesky %a, lower = true : tensor<3x3xf64>
  check.expect_almost_eq_const %l, dense<[[2.0, 0.0, 0.0], [6.0, 1.0, 0.0], [-8.0, 5.0, 3.0]]> : tensor<3x3xf64>
  %u = stablehlo.cholesky %a : tensor<3x3xf64>
  check.expect_almost_eq_const %u, dense<[[2.0, 6.0, -8.0], [0.0, 1.0, 5.0], [0.0, 0.0, 3.0]]> : tensor<3x3xf64>
  func.return
}

// -----

// CHECK: PASS @cholesky_complex_batched
func.func @cholesky_complex_batched() {
  %a = stablehlo.constant dense<[[[(4.0, 0.0), (2.0, 2.0)], [(2.0, -2.0), (6.0, 0.0)]], [[(1.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (9.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  %l = stablehlo.cholesky %a, lower = true : tensor<2x2x2xcomplex<f64>>
  check.expect_almost_eq_const %l, dense<[[[(2.0, 0.0), (0.0, 0.0)], [(1.0, -1.0), (2.0, 0.0)]], [[(1.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (3.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  func.return
}

// -----

// CHECK: PASS @batch_norm
func.func @batch_norm() {
  %x = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf64>
  %one = stablehlo.constant dense<1.0> : tensor<2xf64>
  %out, %mean, %var = "stablehlo.batch_norm_training"(%x, %one, %one) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  check.expect_almost_eq_const %out, dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf64>
  check.expect_almost_eq_const %mean, dense<[2.0, 3.0]> : tensor<2xf64>
  check.expect_almost_eq_const %var, dense<[1.0, 1.0]> : tensor<2xf64>
  %inf = "stablehlo.batch_norm_inference"(%x, %one, %one, %mean, %var) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) -> tensor<2x2x2xf64>
  check.expect_almost_eq_const %inf, dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf64>
  %g = stablehlo.constant dense<0.1> : tensor<2x2x2xf64>
  %gx, %gs, %go = "stablehlo.batch_norm_grad"(%x, %one, %mean, %var, %g) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2x2x2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  check.expect_almost_eq_const %gx, dense<0.0> : tensor<2x2x2xf64>
  check.expect_almost_eq_const %gs, dense<0.0> : tensor<2xf64>
  check.expect_almost_eq_const %go, dense<0.4> : tensor<2xf64>
  func.return
}

// CHECK: {{^}}3 passed, 0 failed
