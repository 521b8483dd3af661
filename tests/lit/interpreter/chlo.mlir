// RUN: xlir-run --check --split-input-file %s | filecheck %s

// CHECK: PASS @erf_family
func.func @erf_family() {
  %x = stablehlo.constant dense<[-1.0, 0.0, 0.5, 2.0]> : tensor<4xf32>
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %0, dense<[-0.8427007929497149, 0.0, 0.5204998778130465, 0.9953222650189527]> : tensor<4xf32>, tolerance = 1.000000e-06
  %1 = chlo.erfc %x : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %1, dense<[1.842700792949715, 1.0, 0.4795001221869535, 0.004677734981047266]> : tensor<4xf32>, tolerance = 1.000000e-06
  %2 = chlo.erf_inv %0 : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %2, dense<[-1.0, 0.0, 0.5, 2.0]> : tensor<4xf32>, tolerance = 1.000000e-03
  %e = stablehlo.constant dense<[1.0, -1.0, 1.5, 0.0]> : tensor<4xf64>
  %3 = chlo.erf_inv %e : tensor<4xf64> -> tensor<4xf64>
  check.expect_eq_const %3, dense<[0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0.0]> : tensor<4xf64>
  func.return
}

// -----

// CHECK: PASS @gamma_family
func.func @gamma_family() {
  %x = stablehlo.constant dense<[0.5, 1.0, 3.0, 10.0]> : tensor<4xf64>
  %0 = chlo.lgamma %x : tensor<4xf64> -> tensor<4xf64>
  check.expect_almost_eq_const %0, dense<[0.5723649429247001, 0.0, 0.6931471805599453, 12.801827480081469]> : tensor<4xf64>, tolerance = 1.000000e-10
  %1 = chlo.digamma %x : tensor<4xf64> -> tensor<4xf64>
  check.expect_almost_eq_const %1, dense<[-1.9635100260214235, -0.5772156649015329, 0.9227843350984671, 2.251752589066721]> : tensor<4xf64>, tolerance = 1.000000e-10
  %2 = chlo.bessel_i1e %x : tensor<4xf64> -> tensor<4xf64>
  check.expect_almost_eq_const %2, dense<[0.15642080318487, 0.20791041534970844, 0.19682671329730082, 0.1212626813844555]> : tensor<4xf64>, tolerance = 1.000000e-08
  func.return
}

// -----

// CHECK: PASS @trig_and_inf
func.func @trig_and_inf() {
  %x = stablehlo.constant dense<[0.0, 0.5, -0.5]> : tensor<3xf32>
  %0 = chlo.asin %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %0, dense<[0.0, 0.5235988, -0.5235988]> : tensor<3xf32>
  %1 = chlo.acos %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %1, dense<[1.5707964, 1.0471976, 2.0943952]> : tensor<3xf32>
  %2 = chlo.atan %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %2, dense<[0.0, 0.4636476, -0.4636476]> : tensor<3xf32>
  %3 = chlo.sinh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %3, dense<[0.0, 0.5210953, -0.5210953]> : tensor<3xf32>
  %4 = chlo.cosh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %4, dense<[1.0, 1.1276259, 1.1276259]> : tensor<3xf32>
  %5 = chlo.atanh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %5, dense<[0.0, 0.5493061, -0.5493061]> : tensor<3xf32>
  %6 = chlo.asinh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %6, dense<[0.0, 0.4812118, -0.4812118]> : tensor<3xf32>
  %y = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %7 = chlo.acosh %y : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %7, dense<[0.0, 1.3169579, 1.7627472]> : tensor<3xf32>
  %8 = chlo.tan %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %8, dense<[0.0, 0.5463025, -0.5463025]> : tensor<3xf32>
  %z = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 1.0]> : tensor<4xf32>
  %9 = chlo.is_inf %z : tensor<4xf32> -> tensor<4xi1>
  check.expect_eq_const %9, dense<[true, true, false, false]> : tensor<4xi1>
  %10 = chlo.is_pos_inf %z : tensor<4xf32> -> tensor<4xi1>
  check.expect_eq_const %10, dense<[true, false, false, false]> : tensor<4xi1>
  %11 = chlo.is_neg_inf %z : tensor<4xf32> -> tensor<4xi1>
  check.expect_eq_const %11, dense<[false, true, false, false]> : tensor<4xi1>
  func.return
}

// -----

// CHECK: PASS @top_k
func.func @top_k() {
  %x = stablehlo.constant dense<[[1.0, 5.0, 3.0, 5.0], [0x7FC00000, 0.0, -1.0, 2.0]]> : tensor<2x4xf32>
  %v, %i = chlo.top_k(%x, k = 2) : tensor<2x4xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  check.expect_eq_const %v, dense<[[5.0, 5.0], [0x7FC00000, 2.0]]> : tensor<2x2xf32>
  check.expect_eq_const %i, dense<[[1, 3], [0, 3]]> : tensor<2x2xi32>
  func.return
}

// -----

// The trigonometric and hyperbolic chlo ops take complex numbers too.
// CHECK: PASS @complex_inverses
func.func @complex_inverses() {
  %z = stablehlo.constant dense<[(0.5, 0.25), (2.0, -1.0)]> : tensor<2xcomplex<f64>>
  %a = chlo.acos %z : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  %c = stablehlo.cosine %a : tensor<2xcomplex<f64>>
  check.expect_almost_eq %c, %z : tensor<2xcomplex<f64>>
  %s = chlo.sinh %z : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  %as = chlo.asinh %s : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  check.expect_almost_eq %as, %z : tensor<2xcomplex<f64>>
  func.return
}

// CHECK: {{^}}5 passed, 0 failed
