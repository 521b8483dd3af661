// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @mulhi_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.mulhi %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: scan_ragged_dot_mulhi_invalid.mlir:4:3: error: 'chlo.mulhi' op operand must have integer elements, but has f32

// -----

func.func @next_after_types(%x: tensor<4xf32>, %y: tensor<4xf64>) -> tensor<4xf32> {
  %0 = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf64> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: scan_ragged_dot_mulhi_invalid.mlir:12:3: error: 'chlo.next_after' op operands and result must have one type, but have tensor<4xf32>, tensor<4xf64> and tensor<4xf32>

// -----

func.func @square_bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  %0 = chlo.square %x : tensor<4xi1> -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
// CHECK: scan_ragged_dot_mulhi_invalid.mlir:20:3: error: 'chlo.square' op operand must have float or complex or integer elements, but has i1

// -----

func.func @scan_body(%x: tensor<4xi32>, %init: tensor<i32>) -> tensor<4xi32> {
  %0:2 = chlo.scan(%x) inits(%init) dimension=0 {
  ^bb0(%a: tensor<4xi32>, %b: tensor<i32>):
    stablehlo.return %b, %b : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return %0#0 : tensor<4xi32>
}
// CHECK: scan_ragged_dot_mulhi_invalid.mlir:28:3: error: 'chlo.scan' op body takes (tensor<4xi32>, tensor<i32>) but must take (tensor<i32>, tensor<i32>)

// -----

func.func @scan_dimension(%x: tensor<4xi32>, %init: tensor<i32>) -> tensor<4xi32> {
  %0:2 = chlo.scan(%x) inits(%init) dimension=1 {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b, %b : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return %0#0 : tensor<4xi32>
}
// CHECK: scan_ragged_dot_mulhi_invalid.mlir:39:3: error: 'chlo.scan' op dimension 1 is out of range for input tensor<4xi32>

// -----

func.func @ragged_dot_result(%lhs: tensor<11x5xf32>, %rhs: tensor<3x5x7xf32>, %sizes: tensor<3xi64>) -> tensor<11x5xf32> {
  %r = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x5xf32>
  func.return %r : tensor<11x5xf32>
}
// CHECK: scan_ragged_dot_mulhi_invalid.mlir:50:3: error: 'chlo.ragged_dot' op result shape [11, 5] must be [11, 7]

// -----

func.func @ragged_dot_groups(%lhs: tensor<11x5xf32>, %rhs: tensor<3x5x7xf32>, %sizes: tensor<2xi64>) -> tensor<11x7xf32> {
  %r = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<2xi64>) -> tensor<11x7xf32>
  func.return %r : tensor<11x7xf32>
}
// CHECK: scan_ragged_dot_mulhi_invalid.mlir:60:3: error: 'chlo.ragged_dot' op rhs group dimension must have one entry per group (2), but rhs has shape [3, 5, 7] and group dimensions [0]

// -----

// A dimension past the operand's rank (a mutant's 128).
func.func @ragged_dot_dimension_out_of_range(%lhs: tensor<11x5xf32>, %rhs: tensor<3x5x7xf32>, %sizes: tensor<3xi64>) -> tensor<11x7xf32> {
  %r = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [128]>
  } : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  func.return %r : tensor<11x7xf32>
}
// CHECK: scan_ragged_dot_mulhi_invalid.mlir:71:3: error: 'chlo.ragged_dot' op rhs_group_dimensions holds 128, but the operand has rank 3
