// RUN: xlir-opt %s --split-input-file -p decompose | filecheck %s

// CHECK-LABEL: func.func @is_inf
// CHECK:         %[[A:.*]] = stablehlo.abs %arg0 : tensor<4xf32>
// CHECK-NEXT:    %[[I:.*]] = stablehlo.constant dense<0x7f800000> : tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.broadcast_in_dim %[[I]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.compare EQ, %[[A]], %[[B]], FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:    func.return %[[R]]
func.func @is_inf(%arg0: tensor<4xf32>) -> tensor<4xi1> {
  %0 = chlo.is_inf %arg0 : tensor<4xf32> -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @is_pos_neg_inf
// CHECK:         stablehlo.convert %arg0 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK:         stablehlo.constant dense<0x7f800000> : tensor<f32>
// CHECK:         stablehlo.compare EQ
// CHECK:         stablehlo.constant dense<0xff800000> : tensor<f32>
// CHECK:         stablehlo.compare EQ
// CHECK-NOT:     chlo.
func.func @is_pos_neg_inf(%arg0: tensor<4xf16>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = chlo.is_pos_inf %arg0 : tensor<4xf16> -> tensor<4xi1>
  %1 = chlo.is_neg_inf %arg0 : tensor<4xf16> -> tensor<4xi1>
  func.return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// conj of a real number is the number; of a complex one it stays (xlir's
// stablehlo has no real/imag/complex to spell it with).

// CHECK-LABEL: func.func @conj
// CHECK-NEXT:    %[[C:.*]] = chlo.conj %arg1
// CHECK-NEXT:    func.return %arg0, %[[C]]
func.func @conj(%arg0: tensor<4xf32>, %arg1: tensor<4xcomplex<f32>>) -> (tensor<4xf32>, tensor<4xcomplex<f32>>) {
  %0 = chlo.conj %arg0 : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.conj %arg1 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  func.return %0, %1 : tensor<4xf32>, tensor<4xcomplex<f32>>
}
