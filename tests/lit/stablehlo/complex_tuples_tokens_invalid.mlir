// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @complex_parts_mismatch(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.complex %a, %b : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}
// CHECK: complex_tuples_tokens_invalid.mlir:4:3: error: 'stablehlo.complex' op operands must both have f32 or both f64 elements, but have f32 and f64

// -----

func.func @real_result(%a: tensor<2xcomplex<f64>>) -> tensor<2xf32> {
  %0 = stablehlo.real %a : (tensor<2xcomplex<f64>>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK: complex_tuples_tokens_invalid.mlir:12:3: error: 'stablehlo.real' op result must have f64 elements, but has f32

// -----

func.func @abs_complex_result(%a: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  %0 = stablehlo.abs %a : tensor<2xcomplex<f64>>
  func.return %0 : tensor<2xcomplex<f64>>
}
// CHECK: complex_tuples_tokens_invalid.mlir:20:3: error: 'stablehlo.abs' op result must have f64 elements for a complex<f64> operand, but has complex<f64>

// -----

func.func @reduce_precision_format(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.reduce_precision %a, format = f5m10 : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK: complex_tuples_tokens_invalid.mlir:28:48: error: expected a format eXmY (such as e5m10), found 'f5m10'

// -----

func.func @reduce_precision_int(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.reduce_precision %a, format = e5m10 : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}
// CHECK: complex_tuples_tokens_invalid.mlir:36:3: error: 'stablehlo.reduce_precision' op operand must have float elements, but has i32

// -----

func.func @tuple_type(%a: tensor<2xf32>) -> tuple<tensor<2xf64>> {
  %0 = "stablehlo.tuple"(%a) : (tensor<2xf32>) -> tuple<tensor<2xf64>>
  func.return %0 : tuple<tensor<2xf64>>
}
// CHECK: complex_tuples_tokens_invalid.mlir:44:3: error: 'stablehlo.tuple' op result type tuple<tensor<2xf64>> must be the tuple of the operand types (tensor<2xf32>)

// -----

func.func @tuple_index(%t: tuple<tensor<2xf32>>) -> tensor<2xf32> {
  %0 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK: complex_tuples_tokens_invalid.mlir:52:3: error: 'stablehlo.get_tuple_element' op index 1 is out of range for a tuple of 1 element(s)

// -----

func.func @if_pred(%p: tensor<2xi1>, %x: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<f32>
  }, {
    stablehlo.return %x : tensor<f32>
  }) : (tensor<2xi1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK: complex_tuples_tokens_invalid.mlir:60:3: error: 'stablehlo.if' op pred must be a rank-0 tensor of i1, but has type tensor<2xi1>

// -----

func.func @if_branch(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<i32>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<f32>
  }, {
    stablehlo.return %y : tensor<i32>
  }) : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK: complex_tuples_tokens_invalid.mlir:72:3: error: 'stablehlo.if' op false branch returns (tensor<i32>) but must return (tensor<f32>)

// -----

func.func @map_dimensions(%a: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %r = "stablehlo.map"(%a) ({
    ^bb0(%x: tensor<i64>):
      stablehlo.return %x : tensor<i64>
  }) {dimensions = array<i64: 1, 0>} : (tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %r : tensor<2x2xi64>
}
// CHECK: complex_tuples_tokens_invalid.mlir:84:3: error: 'stablehlo.map' op dimensions must be [0, 1] (every dimension in order), but are [1, 0]

// -----

func.func @after_all_type(%a: tensor<f32>) -> !stablehlo.token {
  %0 = stablehlo.after_all : tensor<f32>
  func.return %0 : !stablehlo.token
}
// CHECK: complex_tuples_tokens_invalid.mlir:95:30: error: expected !stablehlo.token, found tensor<f32>
