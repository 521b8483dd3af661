// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @eq_types(%a: tensor<3xi64>, %b: tensor<3xi32>) {
  "check.expect_eq"(%a, %b) : (tensor<3xi64>, tensor<3xi32>) -> ()
  func.return
}
// CHECK: ops_invalid.mlir:4:3: error: 'check.expect_eq' op operands must have the same type, but got tensor<3xi64> and tensor<3xi32>

// -----

func.func @eq_const_type(%a: tensor<3xi64>) {
  "check.expect_eq_const"(%a) <{value = dense<[1, 2]> : tensor<2xi64>}> : (tensor<3xi64>) -> ()
  func.return
}
// CHECK: ops_invalid.mlir:12:3: error: 'check.expect_eq_const' op constant type tensor<2xi64> must equal the operand type tensor<3xi64>

// -----

func.func @eq_const_pretty(%a: tensor<3xi64>) {
  check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi64>
  func.return
}
// CHECK: ops_invalid.mlir:20:25: error: operand is used with type tensor<2xi64>, but has been previously used or defined with type tensor<3xi64>

// -----

func.func @almost_eq_const_type(%a: tensor<2xf32>) {
  "check.expect_almost_eq_const"(%a) <{value = dense<1.0> : tensor<2xf64>}> : (tensor<2xf32>) -> ()
  func.return
}
// CHECK: ops_invalid.mlir:28:3: error: 'check.expect_almost_eq_const' op constant type tensor<2xf64> must equal the operand type tensor<2xf32>

// -----

func.func @almost_eq_const_int(%a: tensor<2xi32>) {
  check.expect_almost_eq_const %a, dense<1> : tensor<2xi32>
  func.return
}
// CHECK: ops_invalid.mlir:36:3: error: 'check.expect_almost_eq_const' op operand must have float or complex elements, but has i32

// -----

func.func @almost_eq_const_tolerance(%a: tensor<2xf32>) {
  check.expect_almost_eq_const %a, dense<1.0> : tensor<2xf32>, tolerance = -1.0
  func.return
}
// CHECK: ops_invalid.mlir:44:3: error: 'check.expect_almost_eq_const' op tolerance must be finite and non-negative, got -1.0

// -----

func.func @almost_eq_tolerance_type(%a: tensor<2xf32>) {
  "check.expect_almost_eq"(%a, %a) <{tolerance = 1.0 : f32}> : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}
// CHECK: ops_invalid.mlir:52:3: error: 'check.expect_almost_eq' op tolerance must be an f64 attribute, but has type f32

// -----

func.func @almost_eq_types(%a: tensor<2xf32>, %b: tensor<2xf64>) {
  "check.expect_almost_eq"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> ()
  func.return
}
// CHECK: ops_invalid.mlir:60:3: error: 'check.expect_almost_eq' op operands must have the same type, but got tensor<2xf32> and tensor<2xf64>

// -----

func.func @almost_eq_int(%a: tensor<2xi32>) {
  check.expect_almost_eq %a, %a : tensor<2xi32>
  func.return
}
// CHECK: ops_invalid.mlir:68:3: error: 'check.expect_almost_eq' op operands must have float or complex elements, but has i32

// -----

func.func @close_types(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  check.expect_close %a, %b, max_ulp_difference = 1 : tensor<2xf32>, tensor<3xf32>
  func.return
}
// CHECK: ops_invalid.mlir:76:3: error: 'check.expect_close' op actual and expected must have the same type, but got tensor<2xf32> and tensor<3xf32>

// -----

func.func @close_int(%a: tensor<2xi32>) {
  check.expect_close %a, %a, max_ulp_difference = 1 : tensor<2xi32>, tensor<2xi32>
  func.return
}
// CHECK: ops_invalid.mlir:84:3: error: 'check.expect_close' op operands must have float or complex elements, but has i32

// -----

func.func @close_range(%a: tensor<2xf32>) {
  check.expect_close %a, %a, max_ulp_difference = 1, min_ulp_difference = 2 : tensor<2xf32>, tensor<2xf32>
  func.return
}
// CHECK: ops_invalid.mlir:92:3: error: 'check.expect_close' op min_ulp_difference 2 must not exceed max_ulp_difference 1

// -----

func.func @close_negative(%a: tensor<2xf32>) {
  "check.expect_close"(%a, %a) <{max_ulp_difference = -1 : i64}> : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}
// CHECK: ops_invalid.mlir:100:3: error: 'check.expect_close' op max_ulp_difference must be non-negative, got -1

// -----

func.func @close_missing_max(%a: tensor<2xf32>) {
  check.expect_close %a, %a : tensor<2xf32>, tensor<2xf32>
  func.return
}
// CHECK: ops_invalid.mlir:108:29: error: {{.*}}','
