// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @algorithm_count(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 0, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}
// CHECK: dot_algorithm_invalid.mlir:4:180: error: lhs_component_count must be at least 1, but is 0

// -----

func.func @algorithm_missing_field(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = f32> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}
// CHECK: dot_algorithm_invalid.mlir:12:80: error: #stablehlo.dot_algorithm needs rhs_precision_type, accumulation_type, lhs_component_count, rhs_component_count, num_primitive_operations, allow_imprecise_accumulation
