// RUN: xlir-opt %s -p decompose | filecheck %s

// Plain stablehlo (and chlo.bessel_i1e, which has no decomposition yet) goes
// through unchanged.

// CHECK-LABEL: func.func @plain
// CHECK-NEXT:    %[[A:.*]] = stablehlo.tan %arg0 : tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.atan2 %[[A]], %arg0 : tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = chlo.bessel_i1e %[[B]] : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[C]] : tensor<4xf32>
func.func @plain(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tan %arg0 : tensor<4xf32>
  %1 = stablehlo.atan2 %0, %arg0 : tensor<4xf32>
  %2 = chlo.bessel_i1e %1 : tensor<4xf32> -> tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
