// RUN: xlir-run --check --split-input-file %s | filecheck %s
// RUN: xlir-opt %s --split-input-file -p simplify | xlir-run --check --split-input-file - | filecheck %s

// The IEEE-exact float rewrites keep every special value bit for bit: the
// same expectations hold before and after `simplify`.

// CHECK: PASS @add_negative_zero
func.func @add_negative_zero() {
  %x = stablehlo.constant dense<[-0.0, 0.0, 0x7FC00000, 0xFF800000, 1.5]> : tensor<5xf32>
  %z = stablehlo.constant dense<-0.0> : tensor<5xf32>
  %0 = stablehlo.add %x, %z : tensor<5xf32>
  check.expect_eq_const %0, dense<[-0.0, 0.0, 0x7FC00000, 0xFF800000, 1.5]> : tensor<5xf32>
  %p = stablehlo.constant dense<0.0> : tensor<5xf32>
  %1 = stablehlo.add %x, %p : tensor<5xf32>
  check.expect_eq_const %1, dense<[0.0, 0.0, 0x7FC00000, 0xFF800000, 1.5]> : tensor<5xf32>
  func.return
}

// -----

// CHECK: PASS @subtract_zero
func.func @subtract_zero() {
  %x = stablehlo.constant dense<[-0.0, 0.0, 0x7F800000]> : tensor<3xf32>
  %p = stablehlo.constant dense<0.0> : tensor<3xf32>
  %0 = stablehlo.subtract %x, %p : tensor<3xf32>
  check.expect_eq_const %0, dense<[-0.0, 0.0, 0x7F800000]> : tensor<3xf32>
  %n = stablehlo.constant dense<-0.0> : tensor<3xf32>
  %1 = stablehlo.subtract %x, %n : tensor<3xf32>
  check.expect_eq_const %1, dense<[0.0, 0.0, 0x7F800000]> : tensor<3xf32>
  func.return
}

// -----

// CHECK: PASS @multiply_by_one_and_zero
func.func @multiply_by_one_and_zero() {
  %x = stablehlo.constant dense<[-0.0, 0x7F800000, 0x7FC00000, -2.0]> : tensor<4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = stablehlo.multiply %x, %one : tensor<4xf32>
  check.expect_eq_const %0, dense<[-0.0, 0x7F800000, 0x7FC00000, -2.0]> : tensor<4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<4xf32>
  %1 = stablehlo.multiply %x, %zero : tensor<4xf32>
  check.expect_eq_const %1, dense<[-0.0, 0x7FC00000, 0x7FC00000, -0.0]> : tensor<4xf32>
  %2 = stablehlo.subtract %x, %x : tensor<4xf32>
  check.expect_eq_const %2, dense<[0.0, 0x7FC00000, 0x7FC00000, 0.0]> : tensor<4xf32>
  func.return
}

// -----

// Division by a power of two, to subnormal results and overflow.
// CHECK: PASS @divide_power_of_two
func.func @divide_power_of_two() {
  %x = stablehlo.constant dense<[3.0, -0.0, 0x7F800000, 1.17549435e-38, 3.40282347e+38, 0x00000003]> : tensor<6xf32>
  %four = stablehlo.constant dense<4.0> : tensor<6xf32>
  %0 = stablehlo.divide %x, %four : tensor<6xf32>
  check.expect_eq_const %0, dense<[0.75, -0.0, 0x7F800000, 0x00200000, 8.50705867e+37, 0x00000001]> : tensor<6xf32>
  %q = stablehlo.constant dense<0.25> : tensor<6xf32>
  %1 = stablehlo.divide %x, %q : tensor<6xf32>
  check.expect_eq_const %1, dense<[12.0, -0.0, 0x7F800000, 4.70197740e-38, 0x7F800000, 0x0000000C]> : tensor<6xf32>
  func.return
}

// -----

// CHECK: PASS @compare_total_order_nan
func.func @compare_total_order_nan() {
  %x = stablehlo.constant dense<[0x7FC00000, -0.0, 1.0]> : tensor<3xf32>
  %0 = stablehlo.compare EQ, %x, %x, TOTALORDER : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %0, dense<true> : tensor<3xi1>
  %1 = stablehlo.compare EQ, %x, %x, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %1, dense<[false, true, true]> : tensor<3xi1>
  func.return
}

// -----

// CHECK: PASS @integer_wrap
func.func @integer_wrap() {
  %x = stablehlo.constant dense<[-128, 127, 0]> : tensor<3xi8>
  %0 = stablehlo.negate %x : tensor<3xi8>
  %1 = stablehlo.negate %0 : tensor<3xi8>
  check.expect_eq_const %1, dense<[-128, 127, 0]> : tensor<3xi8>
  %z = stablehlo.constant dense<0> : tensor<3xi8>
  %2 = stablehlo.multiply %x, %z : tensor<3xi8>
  check.expect_eq_const %2, dense<0> : tensor<3xi8>
  func.return
}
