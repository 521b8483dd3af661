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
// CHECK: error: 'stablehlo.compare' op compare type FLOAT does not suit i32 elements, which take SIGNED

// -----

// The compare type must match the element type's kind (the spec's C3): XLA
// orders integers by their element type, whatever the compare type says.
func.func @compare_type_signed_on_unsigned(%a: tensor<4xui32>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %a, SIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
// CHECK: elementwise_invalid.mlir:[[# @LINE - 3]]:3: error: 'stablehlo.compare' op compare type SIGNED does not suit ui32 elements, which take UNSIGNED

// -----

func.func @compare_type_unsigned_on_signed(%a: tensor<4xi8>) -> tensor<4xi1> {
  %0 = stablehlo.compare GT, %a, %a, UNSIGNED : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
// CHECK: elementwise_invalid.mlir:[[# @LINE - 3]]:3: error: 'stablehlo.compare' op compare type UNSIGNED does not suit i8 elements, which take SIGNED

// -----

func.func @compare_type_signed_on_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %a, SIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
// CHECK: elementwise_invalid.mlir:[[# @LINE - 3]]:3: error: 'stablehlo.compare' op compare type SIGNED does not suit i1 elements, which take UNSIGNED

// -----

func.func @compare_type_signed_on_float(%a: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %a, SIGNED : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
// CHECK: elementwise_invalid.mlir:[[# @LINE - 3]]:3: error: 'stablehlo.compare' op compare type SIGNED does not suit f32 elements, which take FLOAT or TOTALORDER

// -----

// The types JAX prints are accepted (a compare without a type too).
// CHECK-LABEL: func.func @compare_types_ok
func.func @compare_types_ok(%i: tensor<4xi32>, %u: tensor<4xui16>, %p: tensor<4xi1>, %f: tensor<4xbf16>, %c: tensor<4xcomplex<f32>>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.compare LT, %i, %i, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = stablehlo.compare LT, %u, %u, UNSIGNED : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xi1>
  %2 = stablehlo.compare LT, %p, %p, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = stablehlo.compare LT, %f, %f, TOTALORDER : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
  %4 = stablehlo.compare EQ, %c, %c, FLOAT : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  %5 = stablehlo.compare LT, %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  func.return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

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
