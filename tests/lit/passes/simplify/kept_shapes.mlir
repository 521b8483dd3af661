// RUN: xlir-opt %s --split-input-file -p simplify | filecheck %s

// What simplify's tuple and dimension-size rules leave alone (no values to
// run, so apart from shape_chains.mlir, whose functions
// tests/unit/test_simplify_numerics.py runs before and after).

// A tuple that comes from outside stays.
// CHECK-LABEL: func.func @element_of_argument
func.func @element_of_argument(%t: tuple<tensor<2xf32>>) -> tensor<2xf32> {
  // CHECK-NEXT: %0 = stablehlo.get_tuple_element %t[0]
  %0 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// The size of a dynamic dimension is known only at run time.
// CHECK-LABEL: func.func @dynamic_size
func.func @dynamic_size(%y: tensor<?xf32>) -> tensor<i32> {
  // CHECK-NEXT: %0 = stablehlo.get_dimension_size %y, dim = 0
  %0 = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
