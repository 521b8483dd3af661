// RUN: xlir-opt %s --split-input-file -p decompose | filecheck %s
// RUN: xlir-run --check --split-input-file --target interpreter,cpu %s | filecheck %s --check-prefix=RAN

// One dot_general per group over all rows, each kept on its group's rows
// (row index in [start, start + size), the sizes read at run time), the
// parts added up.

// CHECK-LABEL: func.func @groups(%lhs: tensor<5x2xf32>, %rhs: tensor<2x2x3xf32>, %sizes: tensor<2xi32>) -> tensor<5x3xf32> {
// CHECK-NEXT:    %[[ROWS:.+]] = stablehlo.iota dim = 0 : tensor<5x3xi64>
// CHECK-NEXT:    %[[SIZES:.+]] = stablehlo.convert %sizes : (tensor<2xi32>) -> tensor<2xi64>
// CHECK:         stablehlo.slice %[[SIZES]] [0:1]
// CHECK:         stablehlo.compare GE, %[[ROWS]],
// CHECK:         stablehlo.compare LT, %[[ROWS]],
// CHECK:         %[[R0:.+]] = stablehlo.slice %rhs [0:1, 0:2, 0:3]
// CHECK-NEXT:    %[[M0:.+]] = stablehlo.reshape %[[R0]] : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[D0:.+]] = stablehlo.dot_general %lhs, %[[M0]], contracting_dims = [1] x [0]
// CHECK-NEXT:    %[[K0:.+]] = stablehlo.select {{.+}}, %[[D0]],
// CHECK:         stablehlo.slice %[[SIZES]] [1:2]
// CHECK:         %[[D1:.+]] = stablehlo.dot_general %lhs,
// CHECK-NEXT:    %[[K1:.+]] = stablehlo.select {{.+}}, %[[D1]],
// CHECK-NEXT:    %[[SUM:.+]] = stablehlo.add %[[K0]], %[[K1]]
// CHECK-NEXT:    func.return %[[SUM]]
func.func @groups(%lhs: tensor<5x2xf32>, %rhs: tensor<2x2x3xf32>, %sizes: tensor<2xi32>) -> tensor<5x3xf32> {
  %r = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<5x2xf32>, tensor<2x2x3xf32>, tensor<2xi32>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}

// -----

// Rows 0-1 use the first rhs, row 2 the second, rows 3-4 none (zeros).
// RAN: == target interpreter ==
// RAN-NEXT: PASS @short_groups
// RAN: == target cpu ==
// RAN-NEXT: PASS @short_groups
func.func @short_groups() {
  %lhs = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 1.0]]> : tensor<5x2xf32>
  %rhs = stablehlo.constant dense<[[[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], [[2.0, 0.0, 0.0], [0.0, 0.0, 3.0]]]> : tensor<2x2x3xf32>
  %sizes = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
  %r = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<5x2xf32>, tensor<2x2x3xf32>, tensor<2xi32>) -> tensor<5x3xf32>
  check.expect_eq_const %r, dense<[[1.0, 2.0, 3.0], [3.0, 4.0, 7.0], [10.0, 0.0, 18.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]> : tensor<5x3xf32>
  func.return
}
