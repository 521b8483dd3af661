// RUN: xlir-opt %s --split-input-file -p decompose | filecheck %s

// CHECK-LABEL: func.func @lgamma
// CHECK:         stablehlo.round_nearest_even %arg0
// CHECK:         stablehlo.sine
// CHECK:         stablehlo.log
// CHECK:         stablehlo.select
// CHECK-NOT:     chlo.
func.func @lgamma(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = chlo.lgamma %arg0 : tensor<8xf32> -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// digamma is NaN at its poles.

// CHECK-LABEL: func.func @digamma
// CHECK:         stablehlo.tan
// CHECK:         stablehlo.and
// CHECK:         stablehlo.constant dense<0x7ff8000000000000> : tensor<f64>
// CHECK-NOT:     chlo.
func.func @digamma(%arg0: tensor<8xf64>) -> tensor<8xf64> {
  %0 = chlo.digamma %arg0 : tensor<8xf64> -> tensor<8xf64>
  func.return %0 : tensor<8xf64>
}
