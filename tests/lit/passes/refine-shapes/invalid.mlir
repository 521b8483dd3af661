// RUN: xlir-opt %s --split-input-file --verify-diagnostics -p 'refine-shapes{types="tensor<0x8xf32>"}' | filecheck %s

// What cannot be refined is an error at the op, saying why.

// JAX's assertion that a dimension variable is at least 1 fails for an
// empty batch: its message, with {0} replaced by the value.
func.func @main(%arg0: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Expected value >= 1 for dimension variable 'b'. Obtained dimension variables: 'b' = {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  return %arg0 : tensor<?x8xf32>
}
// CHECK: invalid.mlir:11:3: error: refine-shapes: shape assertion failed: Expected value >= 1 for dimension variable 'b'. Obtained dimension variables: 'b' = 0

// -----

// A shape computed from the data cannot be known at compile time.
func.func @main(%arg0: tensor<?x8xf32>) -> tensor<?xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%arg0 init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<?x8xf32>, tensor<f32>) -> tensor<f32>
  %size = stablehlo.convert %sum : (tensor<f32>) -> tensor<i64>
  %shape = stablehlo.reshape %size : (tensor<i64>) -> tensor<1xi64>
  %0 = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
// CHECK: invalid.mlir:24:3: error: refine-shapes: 'stablehlo.dynamic_iota' cannot be refined: its output_shape operand is computed from the data at run time, not from the argument shapes

// -----

// A shape assertion on data cannot be checked at compile time.
func.func @main(%arg0: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%arg0 init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<?x8xf32>, tensor<f32>) -> tensor<f32>
  %flag = stablehlo.compare GE, %sum, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%flag) {error_message = "never", has_side_effect = true} : (tensor<i1>) -> ()
  return %arg0 : tensor<?x8xf32>
}
// CHECK: invalid.mlir:36:3: error: refine-shapes: the shape assertion depends on the data, not on the argument shapes, so it cannot be checked at compile time

// -----

// A static size the given type contradicts.
func.func @main(%arg0: tensor<?x7xf32>) -> tensor<?x7xf32> {
  return %arg0 : tensor<?x7xf32>
}
// CHECK: invalid.mlir:44:1: error: refine-shapes: argument #0 of @main has type tensor<?x7xf32>, which the static type tensor<0x8xf32> does not refine

// -----

// An op whose declared static size the refined operands contradict: the
// verifier after the pass names it.
func.func @main(%arg0: tensor<?x8xf32>) -> tensor<4x2xf32> {
  %w = stablehlo.constant dense<1.0> : tensor<8x2xf32>
  %0 = stablehlo.dot_general %arg0, %w, contracting_dims = [1] x [0] : (tensor<?x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
// CHECK: invalid.mlir:55:3: error: 'stablehlo.dot_general' op result shape [4, 2] does not match the inferred shape [0, 2]
// CHECK-NEXT: note: the IR after pass 'refine-shapes'

// -----

// Without static argument types there is nothing to refine to.
func.func @other(%arg0: tensor<?x8xf32>) -> tensor<?x8xf32> {
  return %arg0 : tensor<?x8xf32>
}
// CHECK: error: refine-shapes: there is no function @main with a body to refine
