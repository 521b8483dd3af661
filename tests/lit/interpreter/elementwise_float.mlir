// RUN: xlir-run --check --split-input-file %s | filecheck %s

// Float elementwise ops with IEEE edge cases: NaN, ±inf, -0.0, rank 0, empty.

// CHECK: PASS @add_sub_mul_div
func.func @add_sub_mul_div() {
  %a = stablehlo.constant dense<[1.0, -0.0, 0x7F800000, 0x7F800000, 1.0, 0x7FC00000]> : tensor<6xf32>
  %b = stablehlo.constant dense<[2.0, 0.0, 0xFF800000, 1.0, 0.0, 1.0]> : tensor<6xf32>
  %0 = stablehlo.add %a, %b : tensor<6xf32>
  check.expect_eq_const %0, dense<[3.0, 0.0, 0x7FC00000, 0x7F800000, 1.0, 0x7FC00000]> : tensor<6xf32>
  %1 = stablehlo.subtract %a, %b : tensor<6xf32>
  check.expect_eq_const %1, dense<[-1.0, -0.0, 0x7F800000, 0x7F800000, 1.0, 0x7FC00000]> : tensor<6xf32>
  %2 = stablehlo.multiply %a, %b : tensor<6xf32>
  check.expect_eq_const %2, dense<[2.0, -0.0, 0xFF800000, 0x7F800000, 0.0, 0x7FC00000]> : tensor<6xf32>
  %3 = stablehlo.divide %a, %b : tensor<6xf32>
  check.expect_eq_const %3, dense<[0.5, 0x7FC00000, 0x7FC00000, 0x7F800000, 0x7F800000, 0x7FC00000]> : tensor<6xf32>
  func.return
}

// -----

// CHECK: PASS @max_min_nan_and_signed_zero
func.func @max_min_nan_and_signed_zero() {
  %a = stablehlo.constant dense<[1.0, 0x7FC00000, -0.0, 0.0, -0.0, 0xFF800000]> : tensor<6xf32>
  %b = stablehlo.constant dense<[2.0, 1.0, 0.0, -0.0, -0.0, 3.0]> : tensor<6xf32>
  %0 = stablehlo.maximum %a, %b : tensor<6xf32>
  check.expect_eq_const %0, dense<[2.0, 0x7FC00000, 0.0, 0.0, -0.0, 3.0]> : tensor<6xf32>
  %1 = stablehlo.minimum %a, %b : tensor<6xf32>
  check.expect_eq_const %1, dense<[1.0, 0x7FC00000, -0.0, -0.0, -0.0, 0xFF800000]> : tensor<6xf32>
  func.return
}

// -----

// CHECK: PASS @unary_math
func.func @unary_math() {
  %x = stablehlo.constant dense<[0.0, 1.0, 4.0, -1.0]> : tensor<4xf64>
  %0 = stablehlo.sqrt %x : tensor<4xf64>
  check.expect_eq_const %0, dense<[0.0, 1.0, 2.0, 0x7FF8000000000000]> : tensor<4xf64>
  %1 = stablehlo.rsqrt %x : tensor<4xf64>
  check.expect_eq_const %1, dense<[0x7FF0000000000000, 1.0, 0.5, 0x7FF8000000000000]> : tensor<4xf64>
  %2 = stablehlo.exponential %x : tensor<4xf64>
  check.expect_almost_eq_const %2, dense<[1.0, 2.718281828459045, 54.598150033144236, 0.36787944117144233]> : tensor<4xf64>
  %3 = stablehlo.log %x : tensor<4xf64>
  check.expect_almost_eq_const %3, dense<[0xFFF0000000000000, 0.0, 1.3862943611198906, 0x7FF8000000000000]> : tensor<4xf64>
  %4 = stablehlo.log_plus_one %x : tensor<4xf64>
  check.expect_almost_eq_const %4, dense<[0.0, 0.6931471805599453, 1.6094379124341003, 0xFFF0000000000000]> : tensor<4xf64>
  %5 = stablehlo.exponential_minus_one %x : tensor<4xf64>
  check.expect_almost_eq_const %5, dense<[0.0, 1.718281828459045, 53.598150033144236, -0.6321205588285577]> : tensor<4xf64>
  %6 = stablehlo.cbrt %x : tensor<4xf64>
  check.expect_almost_eq_const %6, dense<[0.0, 1.0, 1.5874010519681994, -1.0]> : tensor<4xf64>
  %7 = stablehlo.tanh %x : tensor<4xf64>
  check.expect_almost_eq_const %7, dense<[0.0, 0.7615941559557649, 0.999329299739067, -0.7615941559557649]> : tensor<4xf64>
  %8 = stablehlo.logistic %x : tensor<4xf64>
  check.expect_almost_eq_const %8, dense<[0.5, 0.7310585786300049, 0.9820137900379085, 0.2689414213699951]> : tensor<4xf64>
  %9 = stablehlo.sine %x : tensor<4xf64>
  check.expect_almost_eq_const %9, dense<[0.0, 0.8414709848078965, -0.7568024953079282, -0.8414709848078965]> : tensor<4xf64>
  %10 = stablehlo.cosine %x : tensor<4xf64>
  check.expect_almost_eq_const %10, dense<[1.0, 0.5403023058681398, -0.6536436208636119, 0.5403023058681398]> : tensor<4xf64>
  %11 = stablehlo.tan %x : tensor<4xf64>
  check.expect_almost_eq_const %11, dense<[0.0, 1.5574077246549023, 1.1578212823495775, -1.5574077246549023]> : tensor<4xf64>
  func.return
}

// -----

// CHECK: PASS @rounding
func.func @rounding() {
  %x = stablehlo.constant dense<[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49999997, -0.0]> : tensor<8xf32>
  %0 = stablehlo.round_nearest_even %x : tensor<8xf32>
  check.expect_eq_const %0, dense<[-2.0, -2.0, -0.0, 0.0, 2.0, 2.0, 0.0, -0.0]> : tensor<8xf32>
  %1 = stablehlo.round_nearest_afz %x : tensor<8xf32>
  check.expect_eq_const %1, dense<[-3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 0.0, -0.0]> : tensor<8xf32>
  %2 = stablehlo.floor %x : tensor<8xf32>
  check.expect_eq_const %2, dense<[-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 0.0, -0.0]> : tensor<8xf32>
  %3 = stablehlo.ceil %x : tensor<8xf32>
  check.expect_eq_const %3, dense<[-2.0, -1.0, -0.0, 1.0, 2.0, 3.0, 1.0, -0.0]> : tensor<8xf32>
  func.return
}

// -----

// CHECK: PASS @sign_abs_negate
func.func @sign_abs_negate() {
  %x = stablehlo.constant dense<[-2.0, -0.0, 0.0, 3.0, 0x7FC00000, 0xFF800000]> : tensor<6xf32>
  %0 = stablehlo.sign %x : tensor<6xf32>
  check.expect_eq_const %0, dense<[-1.0, -0.0, 0.0, 1.0, 0x7FC00000, -1.0]> : tensor<6xf32>
  %1 = stablehlo.abs %x : tensor<6xf32>
  check.expect_eq_const %1, dense<[2.0, 0.0, 0.0, 3.0, 0x7FC00000, 0x7F800000]> : tensor<6xf32>
  %2 = stablehlo.negate %x : tensor<6xf32>
  check.expect_eq_const %2, dense<[2.0, 0.0, -0.0, -3.0, 0x7FC00000, 0x7F800000]> : tensor<6xf32>
  func.return
}

// -----

// CHECK: PASS @power_remainder_atan2
func.func @power_remainder_atan2() {
  %a = stablehlo.constant dense<[2.0, -7.5, 0.0, 1.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[10.0, 2.0, -1.0, 0x7FC00000]> : tensor<4xf32>
  %0 = stablehlo.power %a, %b : tensor<4xf32>
  check.expect_eq_const %0, dense<[1024.0, 56.25, 0x7F800000, 1.0]> : tensor<4xf32>
  %1 = stablehlo.remainder %a, %b : tensor<4xf32>
  check.expect_eq_const %1, dense<[2.0, -1.5, 0.0, 0x7FC00000]> : tensor<4xf32>
  %2 = stablehlo.atan2 %a, %b : tensor<4xf32>
  check.expect_almost_eq_const %2, dense<[0.19739556, -1.3101939, 3.1415927, 0x7FC00000]> : tensor<4xf32>
  func.return
}

// -----

// CHECK: PASS @is_finite_clamp_select
func.func @is_finite_clamp_select() {
  %x = stablehlo.constant dense<[1.0, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<4xf32>
  %0 = stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %0, dense<[true, false, false, false]> : tensor<4xi1>
  %lo = stablehlo.constant dense<-1.0> : tensor<f32>
  %hi = stablehlo.constant dense<2.0> : tensor<f32>
  %1 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %1, dense<[1.0, 2.0, -1.0, 0x7FC00000]> : tensor<4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<4xf32>
  %2 = stablehlo.select %0, %x, %z : tensor<4xi1>, tensor<4xf32>
  check.expect_eq_const %2, dense<[1.0, 0.0, 0.0, 0.0]> : tensor<4xf32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %3 = stablehlo.select %t, %x, %z : tensor<i1>, tensor<4xf32>
  check.expect_eq_const %3, dense<[1.0, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<4xf32>
  func.return
}

// -----

// CHECK: PASS @rank0_and_empty
func.func @rank0_and_empty() {
  %a = stablehlo.constant dense<1.5> : tensor<f32>
  %0 = stablehlo.multiply %a, %a : tensor<f32>
  check.expect_eq_const %0, dense<2.25> : tensor<f32>
  %e = stablehlo.constant dense<> : tensor<0xf32>
  %1 = stablehlo.add %e, %e : tensor<0xf32>
  check.expect_eq_const %1, dense<> : tensor<0xf32>
  %f = stablehlo.constant dense<> : tensor<2x0xf32>
  %2 = stablehlo.exponential %f : tensor<2x0xf32>
  check.expect_eq %2, %f : tensor<2x0xf32>
  func.return
}

// -----

// CHECK: PASS @f16_and_bf16
func.func @f16_and_bf16() {
  %a = stablehlo.constant dense<[1.0, 65504.0, 0.1]> : tensor<3xf16>
  %0 = stablehlo.add %a, %a : tensor<3xf16>
  check.expect_eq_const %0, dense<[2.0, 0x7C00, 0.2]> : tensor<3xf16>
  // 1 + 2^-8 is halfway between two bf16 values: ties round to even (1.0)
  %b = stablehlo.constant dense<[1.0, 256.0]> : tensor<2xbf16>
  %c = stablehlo.constant dense<[0.00390625, 1.0]> : tensor<2xbf16>
  %1 = stablehlo.add %b, %c : tensor<2xbf16>
  check.expect_eq_const %1, dense<[1.0, 256.0]> : tensor<2xbf16>
  %d = stablehlo.constant dense<[0.01171875, 3.0]> : tensor<2xbf16>
  %2 = stablehlo.add %b, %d : tensor<2xbf16>
  check.expect_eq_const %2, dense<[1.015625, 259.0]> : tensor<2xbf16>
  %3 = stablehlo.sqrt %b : tensor<2xbf16>
  check.expect_eq_const %3, dense<[1.0, 16.0]> : tensor<2xbf16>
  func.return
}

// CHECK: {{^}}9 passed, 0 failed
