// RUN: xlir-opt %s --split-input-file -p decompose | filecheck %s

// CHECK-LABEL: func.func @tan
// CHECK-NEXT:    %[[R:.*]] = stablehlo.tan %arg0 : tensor<4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @tan(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.tan %arg0 : tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @atan
// CHECK:         %[[ONE:.*]] = stablehlo.broadcast_in_dim
// CHECK-NEXT:    %[[R:.*]] = stablehlo.atan2 %arg0, %[[ONE]] : tensor<4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @atan(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.atan %arg0 : tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// asin(x) = atan2(x, sqrt((1 - x)(1 + x))); acos swaps the atan2 operands.

// CHECK-LABEL: func.func @asin_acos
// CHECK:         %[[S:.*]] = stablehlo.subtract %{{.*}}, %arg0
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %{{.*}}, %arg0
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %[[S]], %[[A]]
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.sqrt %[[M]]
// CHECK-NEXT:    stablehlo.atan2 %arg0, %[[Q]]
// CHECK:         %[[Q2:.*]] = stablehlo.sqrt
// CHECK-NEXT:    stablehlo.atan2 %[[Q2]], %arg0
// CHECK-NOT:     chlo.
func.func @asin_acos(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = chlo.asin %arg0 : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.acos %arg0 : tensor<4xf32> -> tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// sinh and cosh switch to (h/2)*h, h = exp(|x|/2), above |x| = 20.

// CHECK-LABEL: func.func @sinh_cosh
// CHECK:         stablehlo.exponential_minus_one
// CHECK:         stablehlo.constant dense<2.000000e+01>
// CHECK:         stablehlo.sign %arg0
// CHECK:         stablehlo.exponential
// CHECK:         stablehlo.select
// CHECK-NOT:     chlo.
func.func @sinh_cosh(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = chlo.sinh %arg0 : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.cosh %arg0 : tensor<4xf32> -> tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @inverse_hyperbolic
// CHECK:         stablehlo.log_plus_one
// CHECK:         stablehlo.log_plus_one
// CHECK:         stablehlo.log_plus_one
// CHECK-NOT:     chlo.
func.func @inverse_hyperbolic(%arg0: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) {
  %0 = chlo.asinh %arg0 : tensor<4xf64> -> tensor<4xf64>
  %1 = chlo.acosh %arg0 : tensor<4xf64> -> tensor<4xf64>
  %2 = chlo.atanh %arg0 : tensor<4xf64> -> tensor<4xf64>
  func.return %0, %1, %2 : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
}
