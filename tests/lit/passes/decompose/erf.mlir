// RUN: xlir-opt %s --split-input-file -p decompose | filecheck %s

// erf: a polynomial near 0, 1 - erfc(|x|) beyond.

// CHECK-LABEL: func.func @erf
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.abs %arg0
// CHECK:         stablehlo.convert {{.*}} : (tensor<8xf32>) -> tensor<8xf16>
// CHECK:         stablehlo.exponential
// CHECK:         stablehlo.compare LT
// CHECK:         stablehlo.select
// CHECK:         func.return %{{.*}} : tensor<8xf32>
func.func @erf(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = chlo.erf %arg0 : tensor<8xf32> -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// Constants are scalars broadcast to the shape, made once per value.

// CHECK-LABEL: func.func @erfc
// CHECK-NOT:     chlo.
// CHECK:         %[[TWO:.*]] = stablehlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    stablehlo.broadcast_in_dim %[[TWO]], dims = [] : (tensor<f32>) -> tensor<2x3xf32>
// CHECK-NOT:     stablehlo.constant dense<2.000000e+00>
// CHECK:         stablehlo.exponential
// CHECK:         stablehlo.select
func.func @erfc(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.erfc %arg0 : tensor<2x3xf32> -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// f64 has its own coefficients and halves through f32 for the exact square.

// CHECK-LABEL: func.func @erfc_f64
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.convert {{.*}} : (tensor<4xf64>) -> tensor<4xf32>
// CHECK:         stablehlo.exponential {{.*}} : tensor<4xf64>
func.func @erfc_f64(%arg0: tensor<4xf64>) -> tensor<4xf64> {
  %0 = chlo.erfc %arg0 : tensor<4xf64> -> tensor<4xf64>
  func.return %0 : tensor<4xf64>
}

// -----

// erf_inv: w = -log((1 - y)(1 + y)), a polynomial in w or in sqrt(w), and
// +-inf at +-1.

// CHECK-LABEL: func.func @erf_inv
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.log
// CHECK:         stablehlo.sqrt
// CHECK:         stablehlo.constant dense<0x7f800000> : tensor<f32>
// CHECK:         stablehlo.select
func.func @erf_inv(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = chlo.erf_inv %arg0 : tensor<8xf32> -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// f16 and bf16 are computed in f32 and converted back.

// CHECK-LABEL: func.func @erf_bf16
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK:         %[[R:.*]] = stablehlo.convert {{.*}} : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT:    func.return %[[R]]
func.func @erf_bf16(%arg0: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = chlo.erf %arg0 : tensor<4xbf16> -> tensor<4xbf16>
  func.return %0 : tensor<4xbf16>
}
