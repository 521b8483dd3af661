// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @shape_mismatch(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: elementwise_invalid.mlir:4:3: error: 'stablehlo.add' op operand #1 has shape [5] but the result has shape [4]

// -----

func.func @float_only(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.exponential %a : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}
// CHECK: elementwise_invalid.mlir:12:3: error: 'stablehlo.exponential' op operand must have float or complex elements, but has i32

// -----

func.func @compare_type(%a: tensor<4xi32>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %a, FLOAT : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
// CHECK: error: 'stablehlo.compare' op compare type FLOAT needs float operands, but they have i32 elements

// -----

func.func @select_pred(%p: tensor<4xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.select %p, %a, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: error: 'stablehlo.select' op predicate must have i1 elements, but has f32

// -----

func.func @bad_direction(%a: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.compare XX, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
// CHECK: error: {{.*}}EQ{{.*}}
