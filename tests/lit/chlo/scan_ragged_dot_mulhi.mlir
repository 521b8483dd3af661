// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @binary_and_square
func.func @binary_and_square(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<3xui8>) -> tensor<4xf32> {
  // CHECK: chlo.square %{{.*}} : tensor<4xf32> -> tensor<4xf32>
  %0 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: chlo.next_after %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // GENERIC: "chlo.next_after"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = chlo.next_after %0, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK: chlo.mulhi %{{.*}}, %{{.*}} : tensor<3xui8>, tensor<3xui8> -> tensor<3xui8>
  %2 = chlo.mulhi %i, %i : tensor<3xui8>, tensor<3xui8> -> tensor<3xui8>
  func.return %1 : tensor<4xf32>
}

// CHECK-LABEL: func.func @scan
func.func @scan(%x: tensor<2x3xi32>, %init: tensor<2xi32>) -> tensor<2x3xi32> {
  // CHECK: %{{.*}}, %{{.*}} = chlo.scan(%{{.*}}) inits(%{{.*}}) dimension=1 attributes {is_reverse = true} {
  // CHECK: } : (tensor<2x3xi32>, tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>)
  // GENERIC: "chlo.scan"(%{{.*}}, %{{.*}}) <{dimension = 1 : i64, is_reverse = true, operandSegmentSizes = array<i32: 1, 1>}>
  %0:2 = chlo.scan(%x) inits(%init) dimension=1 attributes {is_reverse = true} {
  ^bb0(%a: tensor<2xi32>, %b: tensor<2xi32>):
    %s = stablehlo.add %a, %b : tensor<2xi32>
    stablehlo.return %s, %s : tensor<2xi32>, tensor<2xi32>
  } : (tensor<2x3xi32>, tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>)
  func.return %0#0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @ragged_dot
func.func @ragged_dot(%lhs: tensor<11x5xf32>, %rhs: tensor<3x5x7xf32>, %sizes: tensor<3xi64>) -> tensor<11x7xf32> {
  // CHECK: "chlo.ragged_dot"(%{{.*}}, %{{.*}}, %{{.*}}) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>, precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]}>
  %r = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [],
      rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1],
      rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0],
      rhs_group_dimensions = [0]
    >,
    precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]
  } : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  func.return %r : tensor<11x7xf32>
}
