// RUN: xlir-opt %s -p 'refine-shapes{types="tensor<3x8xf32>"}' | filecheck %s

// Static ops with dynamic sizes take the sizes their refined operands give
// (StableHLO's shape rules): reshape's one unknown size from the element
// count, broadcast_in_dim's from the operand, the rest from each op's rule.
// The verifier accepts the dynamic forms (reshape, pad, slice).

// CHECK-LABEL: func.func @main(%arg0: tensor<3x8xf32>)
// CHECK-NEXT:    stablehlo.reshape %arg0 : (tensor<3x8xf32>) -> tensor<24xf32>
// CHECK-NEXT:    stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x8xf32>) -> tensor<3x8x2xf32>
// CHECK-NEXT:    stablehlo.dot_general %arg0, %arg0, contracting_dims = [1] x [1] : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    stablehlo.convert %arg0 : (tensor<3x8xf32>) -> tensor<3x8xi32>
// CHECK-NEXT:    stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT:    stablehlo.select %{{.*}}, %arg0, %arg0 : tensor<i1>, tensor<3x8xf32>
// CHECK-NEXT:    stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<3x8xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    "stablehlo.sort"(%arg0)
// CHECK:         }) : (tensor<3x8xf32>) -> tensor<3x8xf32>
// CHECK-NEXT:    stablehlo.pad %arg0, %{{.*}}, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<3x8xf32>, tensor<f32>) -> tensor<6x8xf32>
// CHECK-NEXT:    stablehlo.slice %arg0 [0:2, 0:8] : (tensor<3x8xf32>) -> tensor<2x8xf32>
func.func @main(%arg0: tensor<?x8xf32>) -> (tensor<?xf32>, tensor<?x8x2xf32>, tensor<?x?xf32>, tensor<?x8xi32>, tensor<?x8xf32>, tensor<?xf32>, tensor<?x8xf32>, tensor<?x8xf32>, tensor<2x8xf32>) {
  %0 = stablehlo.reshape %arg0 : (tensor<?x8xf32>) -> tensor<?xf32>
  %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<?x8xf32>) -> tensor<?x8x2xf32>
  %2 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [1] x [1] : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x?xf32>
  %3 = stablehlo.convert %arg0 : (tensor<?x8xf32>) -> tensor<?x8xi32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %4 = stablehlo.select %t, %arg0, %arg0 : tensor<i1>, tensor<?x8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %5 = stablehlo.reduce(%arg0 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x8xf32>, tensor<f32>) -> tensor<?xf32>
  %6 = "stablehlo.sort"(%arg0) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %7 = stablehlo.pad %arg0, %zero, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
  %8 = stablehlo.slice %arg0 [0:2, 0:8] : (tensor<?x8xf32>) -> tensor<2x8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<?xf32>, tensor<?x8x2xf32>, tensor<?x?xf32>, tensor<?x8xi32>, tensor<?x8xf32>, tensor<?xf32>, tensor<?x8xf32>, tensor<?x8xf32>, tensor<2x8xf32>
}
