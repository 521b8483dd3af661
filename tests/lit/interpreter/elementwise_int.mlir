// RUN: xlir-run --check --split-input-file %s | filecheck %s

// Integer elementwise ops: wrap-around, division and remainder edge cases,
// shifts past the bit width, bit counting, unsigned types, booleans.

// CHECK: PASS @wrap_around
func.func @wrap_around() {
  %a = stablehlo.constant dense<[2147483647, -2147483648, 100000]> : tensor<3xi32>
  %b = stablehlo.constant dense<[1, -1, 100000]> : tensor<3xi32>
  %0 = stablehlo.add %a, %b : tensor<3xi32>
  check.expect_eq_const %0, dense<[-2147483648, 2147483647, 200000]> : tensor<3xi32>
  %1 = stablehlo.multiply %a, %b : tensor<3xi32>
  check.expect_eq_const %1, dense<[2147483647, -2147483648, 1410065408]> : tensor<3xi32>
  %2 = stablehlo.negate %a : tensor<3xi32>
  check.expect_eq_const %2, dense<[-2147483647, -2147483648, -100000]> : tensor<3xi32>
  %3 = stablehlo.abs %a : tensor<3xi32>
  check.expect_eq_const %3, dense<[2147483647, -2147483648, 100000]> : tensor<3xi32>
  %u = stablehlo.constant dense<[0, 255]> : tensor<2xui8>
  %one = stablehlo.constant dense<[1, 1]> : tensor<2xui8>
  %4 = stablehlo.subtract %u, %one : tensor<2xui8>
  check.expect_eq_const %4, dense<[255, 254]> : tensor<2xui8>
  %5 = stablehlo.add %u, %one : tensor<2xui8>
  check.expect_eq_const %5, dense<[1, 0]> : tensor<2xui8>
  func.return
}

// -----

// CHECK: PASS @divide_remainder
func.func @divide_remainder() {
  %a = stablehlo.constant dense<[7, -7, 7, -7, 5, -2147483648, -2147483648]> : tensor<7xi32>
  %b = stablehlo.constant dense<[2, 2, -2, -2, 0, -1, 0]> : tensor<7xi32>
  %0 = stablehlo.divide %a, %b : tensor<7xi32>
  check.expect_eq_const %0, dense<[3, -3, -3, 3, -1, -2147483648, -1]> : tensor<7xi32>
  %1 = stablehlo.remainder %a, %b : tensor<7xi32>
  check.expect_eq_const %1, dense<[1, -1, 1, -1, 5, 0, -2147483648]> : tensor<7xi32>
  %u = stablehlo.constant dense<[7, 200]> : tensor<2xui8>
  %v = stablehlo.constant dense<[2, 0]> : tensor<2xui8>
  %2 = stablehlo.divide %u, %v : tensor<2xui8>
  check.expect_eq_const %2, dense<[3, 255]> : tensor<2xui8>
  %3 = stablehlo.remainder %u, %v : tensor<2xui8>
  check.expect_eq_const %3, dense<[1, 200]> : tensor<2xui8>
  func.return
}

// -----

// CHECK: PASS @shifts
func.func @shifts() {
  %a = stablehlo.constant dense<[1, -8, -8, 5, -1]> : tensor<5xi32>
  %s = stablehlo.constant dense<[31, 1, 32, 40, -1]> : tensor<5xi32>
  %0 = stablehlo.shift_left %a, %s : tensor<5xi32>
  check.expect_eq_const %0, dense<[-2147483648, -16, 0, 0, 0]> : tensor<5xi32>
  %1 = stablehlo.shift_right_arithmetic %a, %s : tensor<5xi32>
  check.expect_eq_const %1, dense<[0, -4, -1, 0, -1]> : tensor<5xi32>
  %2 = stablehlo.shift_right_logical %a, %s : tensor<5xi32>
  check.expect_eq_const %2, dense<[0, 2147483644, 0, 0, 0]> : tensor<5xi32>
  func.return
}

// -----

// CHECK: PASS @bits
func.func @bits() {
  %a = stablehlo.constant dense<[0, 1, -1, 255, 1024]> : tensor<5xi32>
  %0 = stablehlo.popcnt %a : tensor<5xi32>
  check.expect_eq_const %0, dense<[0, 1, 32, 8, 1]> : tensor<5xi32>
  %1 = stablehlo.count_leading_zeros %a : tensor<5xi32>
  check.expect_eq_const %1, dense<[32, 31, 0, 24, 21]> : tensor<5xi32>
  %2 = stablehlo.not %a : tensor<5xi32>
  check.expect_eq_const %2, dense<[-1, -2, 0, -256, -1025]> : tensor<5xi32>
  %b = stablehlo.constant dense<[12, 10, 6, 3, 0]> : tensor<5xi32>
  %3 = stablehlo.and %a, %b : tensor<5xi32>
  check.expect_eq_const %3, dense<[0, 0, 6, 3, 0]> : tensor<5xi32>
  %4 = stablehlo.or %a, %b : tensor<5xi32>
  check.expect_eq_const %4, dense<[12, 11, -1, 255, 1024]> : tensor<5xi32>
  %5 = stablehlo.xor %a, %b : tensor<5xi32>
  check.expect_eq_const %5, dense<[12, 11, -7, 252, 1024]> : tensor<5xi32>
  %c = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %6 = stablehlo.count_leading_zeros %c : tensor<2xi64>
  check.expect_eq_const %6, dense<[63, 64]> : tensor<2xi64>
  func.return
}

// -----

// CHECK: PASS @booleans
func.func @booleans() {
  %a = stablehlo.constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %0 = stablehlo.and %a, %b : tensor<4xi1>
  check.expect_eq_const %0, dense<[true, false, false, false]> : tensor<4xi1>
  %1 = stablehlo.or %a, %b : tensor<4xi1>
  check.expect_eq_const %1, dense<[true, true, true, false]> : tensor<4xi1>
  %2 = stablehlo.xor %a, %b : tensor<4xi1>
  check.expect_eq_const %2, dense<[false, true, true, false]> : tensor<4xi1>
  %3 = stablehlo.not %a : tensor<4xi1>
  check.expect_eq_const %3, dense<[false, false, true, true]> : tensor<4xi1>
  func.return
}

// -----

// CHECK: PASS @int_min_max_sign_power_clamp
func.func @int_min_max_sign_power_clamp() {
  %a = stablehlo.constant dense<[-3, 0, 5, 2]> : tensor<4xi8>
  %b = stablehlo.constant dense<[2, -1, 3, 7]> : tensor<4xi8>
  %0 = stablehlo.maximum %a, %b : tensor<4xi8>
  check.expect_eq_const %0, dense<[2, 0, 5, 7]> : tensor<4xi8>
  %1 = stablehlo.minimum %a, %b : tensor<4xi8>
  check.expect_eq_const %1, dense<[-3, -1, 3, 2]> : tensor<4xi8>
  %2 = stablehlo.sign %a : tensor<4xi8>
  check.expect_eq_const %2, dense<[-1, 0, 1, 1]> : tensor<4xi8>
  %3 = stablehlo.power %a, %b : tensor<4xi8>
  check.expect_eq_const %3, dense<[9, 0, 125, -128]> : tensor<4xi8>
  %c = stablehlo.constant dense<[1, -1, -1, 2]> : tensor<4xi32>
  %e = stablehlo.constant dense<[-3, -3, -2, -1]> : tensor<4xi32>
  %4 = stablehlo.power %c, %e : tensor<4xi32>
  check.expect_eq_const %4, dense<[1, -1, 1, 0]> : tensor<4xi32>
  %lo = stablehlo.constant dense<0> : tensor<i8>
  %hi = stablehlo.constant dense<4> : tensor<i8>
  %5 = stablehlo.clamp %lo, %a, %hi : (tensor<i8>, tensor<4xi8>, tensor<i8>) -> tensor<4xi8>
  check.expect_eq_const %5, dense<[0, 0, 4, 2]> : tensor<4xi8>
  func.return
}

// CHECK: {{^}}6 passed, 0 failed
