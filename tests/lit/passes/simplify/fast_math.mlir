// RUN: xlir-opt %s --split-input-file -p 'simplify{fast-math=true}' | filecheck %s
// RUN: xlir-opt %s --split-input-file -p simplify | filecheck %s --check-prefix=IEEE

// The rewrites `fast-math` allows, each wrong for some -0.0, ±inf or NaN
// input; without the option every op stays.

// CHECK-LABEL: func.func @add_positive_zero
// IEEE-LABEL: func.func @add_positive_zero
func.func @add_positive_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NOT: stablehlo.add
  // CHECK: func.return %x
  // IEEE: stablehlo.add
  %z = stablehlo.constant dense<0.0> : tensor<4xf32>
  %0 = stablehlo.add %x, %z : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @subtract_negative_zero
// IEEE-LABEL: func.func @subtract_negative_zero
func.func @subtract_negative_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: func.return %x
  // IEEE: stablehlo.subtract
  %z = stablehlo.constant dense<-0.0> : tensor<4xf32>
  %0 = stablehlo.subtract %x, %z : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @multiply_zero
// IEEE-LABEL: func.func @multiply_zero
func.func @multiply_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK:      %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
  // CHECK-NEXT: func.return %[[Z]]
  // IEEE: stablehlo.multiply
  %z = stablehlo.constant dense<0.0> : tensor<4xf32>
  %0 = stablehlo.multiply %z, %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @subtract_self
// IEEE-LABEL: func.func @subtract_self
func.func @subtract_self(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  // CHECK:      %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<4xbf16>
  // CHECK-NEXT: func.return %[[Z]]
  // IEEE: stablehlo.subtract %x, %x
  %0 = stablehlo.subtract %x, %x : tensor<4xbf16>
  func.return %0 : tensor<4xbf16>
}

// -----

// CHECK-LABEL: func.func @compare_self
// IEEE-LABEL: func.func @compare_self
func.func @compare_self(%x: tensor<4xf16>) -> (tensor<4xi1>, tensor<4xi1>) {
  // CHECK-DAG: stablehlo.constant dense<true> : tensor<4xi1>
  // CHECK-DAG: stablehlo.constant dense<false> : tensor<4xi1>
  // CHECK-NOT: stablehlo.compare
  // IEEE: stablehlo.compare EQ, %x, %x
  // IEEE: stablehlo.compare LT, %x, %x
  %0 = stablehlo.compare EQ, %x, %x, FLOAT : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
  %1 = stablehlo.compare LT, %x, %x, FLOAT : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
  func.return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// Even with fast-math, 0 - x is not x and x / 3 is not x * (1/3).
// CHECK-LABEL: func.func @still_kept
func.func @still_kept(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK: stablehlo.subtract
  // CHECK: stablehlo.divide
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %t = stablehlo.constant dense<3.0> : tensor<f32>
  %0 = stablehlo.subtract %z, %x : tensor<f32>
  %1 = stablehlo.divide %x, %t : tensor<f32>
  func.return %0, %1 : tensor<f32>, tensor<f32>
}
