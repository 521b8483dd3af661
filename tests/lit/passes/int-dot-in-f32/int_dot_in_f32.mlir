// RUN: xlir-opt %s --split-input-file -p int-dot-in-f32 | filecheck %s
// RUN: xlir-opt %s --split-input-file -p int-dot-in-f32,int-dot-in-f32 | filecheck %s

// An integer dot whose partial sums f32 holds exactly (contracted extent
// times the largest product at most 2^24) runs on f32 operands and converts
// its result back; any other stays as it is. Running the pass twice changes
// nothing more.

// i8 x i8 over 1024 terms: 1024 * 128 * 128 = 2^24, exact.
// CHECK-LABEL: func.func @int8_at_the_limit
func.func @int8_at_the_limit(%a: tensor<4x1024xi8>, %b: tensor<1024x8xi8>) -> tensor<4x8xi32> {
  // CHECK:      %[[A:.*]] = stablehlo.convert %a : (tensor<4x1024xi8>) -> tensor<4x1024xf32>
  // CHECK-NEXT: %[[B:.*]] = stablehlo.convert %b : (tensor<1024x8xi8>) -> tensor<1024x8xf32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %[[A]], %[[B]], contracting_dims = [1] x [0] : (tensor<4x1024xf32>, tensor<1024x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %[[R:.*]] = stablehlo.convert %[[D]] : (tensor<4x8xf32>) -> tensor<4x8xi32>
  // CHECK-NEXT: func.return %[[R]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x1024xi8>, tensor<1024x8xi8>) -> tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}

// -----

// Batched, two contracting dims (4 * 64 terms), mixed signedness, i64 result.
// CHECK-LABEL: func.func @batched_mixed
func.func @batched_mixed(%a: tensor<2x4x64x8xi8>, %b: tensor<2x4x64x16xui8>) -> tensor<2x8x16xi64> {
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [1, 2] x [1, 2] : (tensor<2x4x64x8xf32>, tensor<2x4x64x16xf32>) -> tensor<2x8x16xf32>
  // CHECK: stablehlo.convert %{{.*}} : (tensor<2x8x16xf32>) -> tensor<2x8x16xi64>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1, 2] x [1, 2] : (tensor<2x4x64x8xi8>, tensor<2x4x64x16xui8>) -> tensor<2x8x16xi64>
  func.return %0 : tensor<2x8x16xi64>
}

// -----

// i8 x i8 over 1025 terms could pass 2^24: stays integer.
// CHECK-LABEL: func.func @int8_past_the_limit
func.func @int8_past_the_limit(%a: tensor<4x1025xi8>, %b: tensor<1025x8xi8>) -> tensor<4x8xi32> {
  // CHECK-NOT:  stablehlo.convert
  // CHECK:      stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x1025xi8>, tensor<1025x8xi8>) -> tensor<4x8xi32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x1025xi8>, tensor<1025x8xi8>) -> tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}

// -----

// ui8 x ui8 products reach 255 * 255: 300 terms could pass 2^24.
// CHECK-LABEL: func.func @uint8_past_the_limit
func.func @uint8_past_the_limit(%a: tensor<4x300xui8>, %b: tensor<300x8xui8>) -> tensor<4x8xui32> {
  // CHECK-NOT: stablehlo.convert
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x300xui8>, tensor<300x8xui8>) -> tensor<4x8xui32>
  func.return %0 : tensor<4x8xui32>
}

// -----

// A 16-bit result wraps where the exact sum would not fit: stays integer.
// CHECK-LABEL: func.func @narrow_result
func.func @narrow_result(%a: tensor<4x64xi8>, %b: tensor<64x8xi8>) -> tensor<4x8xi16> {
  // CHECK-NOT: stablehlo.convert
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x64xi8>, tensor<64x8xi8>) -> tensor<4x8xi16>
  func.return %0 : tensor<4x8xi16>
}

// -----

// i32 operands: their products are not exact in f32.
// CHECK-LABEL: func.func @wide_operands
func.func @wide_operands(%a: tensor<4x64xi32>, %b: tensor<64x8xi32>) -> tensor<4x8xi32> {
  // CHECK-NOT: stablehlo.convert
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x64xi32>, tensor<64x8xi32>) -> tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}

// -----

// Conversions of the result to floats read the f32 result (to f32: the
// result itself); an integer use still gets the sums converted back.
// CHECK-LABEL: func.func @dequantized
func.func @dequantized(%a: tensor<4x64xi8>, %b: tensor<64x8xi8>) -> (tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4x8xi32>) {
  // CHECK:      %[[D:.*]] = stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<4x64xf32>, tensor<64x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %[[I:.*]] = stablehlo.convert %[[D]] : (tensor<4x8xf32>) -> tensor<4x8xi32>
  // CHECK-NEXT: %[[H:.*]] = stablehlo.convert %[[D]] : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  // CHECK-NEXT: %[[N:.*]] = stablehlo.add %[[I]], %[[I]] : tensor<4x8xi32>
  // CHECK-NEXT: func.return %[[D]], %[[H]], %[[N]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x64xi8>, tensor<64x8xi8>) -> tensor<4x8xi32>
  %1 = stablehlo.convert %0 : (tensor<4x8xi32>) -> tensor<4x8xf32>
  %2 = stablehlo.convert %0 : (tensor<4x8xi32>) -> tensor<4x8xbf16>
  %3 = stablehlo.add %0, %0 : tensor<4x8xi32>
  func.return %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4x8xi32>
}
