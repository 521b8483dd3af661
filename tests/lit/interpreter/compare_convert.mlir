// RUN: xlir-run --check --split-input-file %s | filecheck %s

// compare (FLOAT, TOTALORDER, SIGNED, UNSIGNED), convert, bitcast_convert.

// CHECK: PASS @compare_float
func.func @compare_float() {
  %a = stablehlo.constant dense<[1.0, 0x7FC00000, -0.0, 2.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[2.0, 0x7FC00000, 0.0, 2.0]> : tensor<4xf32>
  %0 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %0, dense<[true, false, false, false]> : tensor<4xi1>
  %1 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %1, dense<[false, false, true, true]> : tensor<4xi1>
  %2 = stablehlo.compare NE, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %2, dense<[true, true, false, false]> : tensor<4xi1>
  %3 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %3, dense<[true, false, true, false]> : tensor<4xi1>
  %4 = stablehlo.compare EQ, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %4, dense<[false, true, false, true]> : tensor<4xi1>
  %5 = stablehlo.compare GE, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %5, dense<[false, false, true, true]> : tensor<4xi1>
  func.return
}

// -----

// CHECK: PASS @compare_int
func.func @compare_int() {
  %a = stablehlo.constant dense<[-1, 0, 5]> : tensor<3xi32>
  %b = stablehlo.constant dense<[1, 0, 3]> : tensor<3xi32>
  %0 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  check.expect_eq_const %0, dense<[true, false, false]> : tensor<3xi1>
  %1 = stablehlo.compare LT, %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  check.expect_eq_const %1, dense<[true, false, false]> : tensor<3xi1>
  %2 = stablehlo.compare LE, %a, %b, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  check.expect_eq_const %2, dense<[true, true, false]> : tensor<3xi1>
  %u = stablehlo.constant dense<[200, 1]> : tensor<2xui8>
  %v = stablehlo.constant dense<[100, 2]> : tensor<2xui8>
  %3 = stablehlo.compare GT, %u, %v, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  check.expect_eq_const %3, dense<[true, false]> : tensor<2xi1>
  func.return
}

// -----

// CHECK: PASS @convert_float_to_int
func.func @convert_float_to_int() {
  %x = stablehlo.constant dense<[2.7, -2.7, 1.0e10, -1.0e10, 0x7FC00000, -0.5]> : tensor<6xf32>
  %0 = stablehlo.convert %x : (tensor<6xf32>) -> tensor<6xi32>
  check.expect_eq_const %0, dense<[2, -2, 2147483647, -2147483648, 0, 0]> : tensor<6xi32>
  %1 = stablehlo.convert %x : (tensor<6xf32>) -> tensor<6xui8>
  check.expect_eq_const %1, dense<[2, 0, 255, 0, 0, 0]> : tensor<6xui8>
  %2 = stablehlo.convert %x : (tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %2, dense<[true, true, true, true, true, true]> : tensor<6xi1>
  func.return
}

// -----

// CHECK: PASS @convert_int_and_bool
func.func @convert_int_and_bool() {
  %a = stablehlo.constant dense<[300, -1, 0]> : tensor<3xi32>
  %0 = stablehlo.convert %a : (tensor<3xi32>) -> tensor<3xi8>
  check.expect_eq_const %0, dense<[44, -1, 0]> : tensor<3xi8>
  %1 = stablehlo.convert %a : (tensor<3xi32>) -> tensor<3xui16>
  check.expect_eq_const %1, dense<[300, 65535, 0]> : tensor<3xui16>
  %2 = stablehlo.convert %a : (tensor<3xi32>) -> tensor<3xi1>
  check.expect_eq_const %2, dense<[true, true, false]> : tensor<3xi1>
  %3 = stablehlo.convert %2 : (tensor<3xi1>) -> tensor<3xf32>
  check.expect_eq_const %3, dense<[1.0, 1.0, 0.0]> : tensor<3xf32>
  %4 = stablehlo.convert %a : (tensor<3xi32>) -> tensor<3xf64>
  check.expect_eq_const %4, dense<[300.0, -1.0, 0.0]> : tensor<3xf64>
  %big = stablehlo.constant dense<16777217> : tensor<i32>
  %5 = stablehlo.convert %big : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %5, dense<16777216.0> : tensor<f32>
  func.return
}

// -----

// CHECK: PASS @convert_floats
func.func @convert_floats() {
  %x = stablehlo.constant dense<[1.00390625, 1.01171875, 70000.0, 0x7FC00000]> : tensor<4xf32>
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
  check.expect_eq_const %0, dense<[1.0, 1.015625, 70144.0, 0x7FC0]> : tensor<4xbf16>
  %1 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf16>
  check.expect_eq_const %1, dense<[1.00390625, 1.01171875, 0x7C00, 0x7E00]> : tensor<4xf16>
  %2 = stablehlo.convert %0 : (tensor<4xbf16>) -> tensor<4xf64>
  check.expect_eq_const %2, dense<[1.0, 1.015625, 70144.0, 0x7FF8000000000000]> : tensor<4xf64>
  func.return
}

// -----

// CHECK: PASS @bitcast_convert
func.func @bitcast_convert() {
  %x = stablehlo.constant dense<[1.0, -0.0]> : tensor<2xf32>
  %0 = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2xi32>
  check.expect_eq_const %0, dense<[1065353216, -2147483648]> : tensor<2xi32>
  %1 = stablehlo.bitcast_convert %0 : (tensor<2xi32>) -> tensor<2xf32>
  check.expect_eq_const %1, dense<[1.0, -0.0]> : tensor<2xf32>
  // width-changing: the least significant part comes first
  %2 = stablehlo.bitcast_convert %0 : (tensor<2xi32>) -> tensor<2x2xui16>
  check.expect_eq_const %2, dense<[[0, 16256], [0, 32768]]> : tensor<2x2xui16>
  %3 = stablehlo.bitcast_convert %2 : (tensor<2x2xui16>) -> tensor<2xf32>
  check.expect_eq_const %3, dense<[1.0, -0.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xbf16>
  %4 = stablehlo.bitcast_convert %b : (tensor<2xbf16>) -> tensor<2xi16>
  check.expect_eq_const %4, dense<[16256, -16384]> : tensor<2xi16>
  %5 = stablehlo.bitcast_convert %4 : (tensor<2xi16>) -> tensor<2xbf16>
  check.expect_eq_const %5, dense<[1.0, -2.0]> : tensor<2xbf16>
  func.return
}

// -----

// Floats saturate to 2- and 4-bit integers (NaN gives 0); integers wrap.
// CHECK: PASS @convert_narrow_integers
func.func @convert_narrow_integers() {
  %x = stablehlo.constant dense<[100.0, -100.0, 3.7, -3.7, 0x7FC00000]> : tensor<5xf32>
  %a = stablehlo.convert %x : (tensor<5xf32>) -> tensor<5xi4>
  check.expect_eq_const %a, dense<[7, -8, 3, -3, 0]> : tensor<5xi4>
  %b = stablehlo.convert %x : (tensor<5xf32>) -> tensor<5xui2>
  check.expect_eq_const %b, dense<[3, 0, 3, 0, 0]> : tensor<5xui2>
  %i = stablehlo.constant dense<[9, -9]> : tensor<2xi32>
  %c = stablehlo.convert %i : (tensor<2xi32>) -> tensor<2xi4>
  check.expect_eq_const %c, dense<[-7, 7]> : tensor<2xi4>
  func.return
}

// CHECK: {{^}}7 passed, 0 failed
