// RUN: xlir-opt %s --split-input-file -p dot-layout | filecheck %s
// RUN: xlir-opt %s --split-input-file -p dot-layout,dot-layout | filecheck %s

// Contracting dims that lie together, in the same order, in both operands
// merge into one dim (reshapes of the operands); the result keeps its dims.

// An einsum contracting two dims ('abcd,cde->abe').
// CHECK-LABEL: func.func @two_contracting
func.func @two_contracting(%a: tensor<4x8x16x32xf32>, %b: tensor<16x32x64xf32>) -> tensor<4x8x64xf32> {
  // CHECK:      %[[A:.*]] = stablehlo.reshape %a : (tensor<4x8x16x32xf32>) -> tensor<4x8x512xf32>
  // CHECK-NEXT: %[[B:.*]] = stablehlo.reshape %b : (tensor<16x32x64xf32>) -> tensor<512x64xf32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %[[A]], %[[B]], contracting_dims = [2] x [0], precision = [HIGHEST, DEFAULT] : (tensor<4x8x512xf32>, tensor<512x64xf32>) -> tensor<4x8x64xf32>
  // CHECK-NEXT: func.return %[[D]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2, 3] x [0, 1], precision = [HIGHEST, DEFAULT] : (tensor<4x8x16x32xf32>, tensor<16x32x64xf32>) -> tensor<4x8x64xf32>
  func.return %0 : tensor<4x8x64xf32>
}

// -----

// Listed in another order: the pairs are taken by the lhs dim.
// CHECK-LABEL: func.func @listed_backwards
func.func @listed_backwards(%a: tensor<8x16x32xf32>, %b: tensor<16x32x64xf32>) -> tensor<8x64xf32> {
  // CHECK:      stablehlo.reshape %a : (tensor<8x16x32xf32>) -> tensor<8x512xf32>
  // CHECK:      stablehlo.dot_general {{.*}}, contracting_dims = [1] x [0] : (tensor<8x512xf32>, tensor<512x64xf32>) -> tensor<8x64xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2, 1] x [1, 0] : (tensor<8x16x32xf32>, tensor<16x32x64xf32>) -> tensor<8x64xf32>
  func.return %0 : tensor<8x64xf32>
}

// -----

// Batched: the batch dims keep their places; of three contracting dims the
// two that lie together in both operands merge.
// CHECK-LABEL: func.func @batched_three
func.func @batched_three(%a: tensor<2x8x4x16x32xf32>, %b: tensor<2x16x32x4x64xf32>) -> tensor<2x8x64xf32> {
  // CHECK:      %[[A:.*]] = stablehlo.reshape %a : (tensor<2x8x4x16x32xf32>) -> tensor<2x8x4x512xf32>
  // CHECK-NEXT: %[[B:.*]] = stablehlo.reshape %b : (tensor<2x16x32x4x64xf32>) -> tensor<2x512x4x64xf32>
  // CHECK-NEXT: stablehlo.dot_general %[[A]], %[[B]], batching_dims = [0] x [0], contracting_dims = [2, 3] x [2, 1] : (tensor<2x8x4x512xf32>, tensor<2x512x4x64xf32>) -> tensor<2x8x64xf32>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2, 3, 4] x [3, 1, 2] : (tensor<2x8x4x16x32xf32>, tensor<2x16x32x4x64xf32>) -> tensor<2x8x64xf32>
  func.return %0 : tensor<2x8x64xf32>
}

// -----

// Not merged: dims apart in the lhs, or in the other order in the rhs
// (the pairs (1, 1) and (2, 0): the rhs dims descend).
// CHECK-LABEL: func.func @apart
func.func @apart(%a: tensor<16x8x32xf32>, %b: tensor<16x32x64xf32>) -> tensor<8x64xf32> {
  // CHECK-NOT:  stablehlo.reshape
  // CHECK:      stablehlo.dot_general %a, %b, contracting_dims = [0, 2] x [0, 1]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0, 2] x [0, 1] : (tensor<16x8x32xf32>, tensor<16x32x64xf32>) -> tensor<8x64xf32>
  func.return %0 : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @crossed
func.func @crossed(%a: tensor<8x16x32xf32>, %b: tensor<32x16x64xf32>) -> tensor<8x64xf32> {
  // CHECK-NOT:  stablehlo.reshape
  // CHECK:      stablehlo.dot_general %a, %b, contracting_dims = [1, 2] x [1, 0]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1, 2] x [1, 0] : (tensor<8x16x32xf32>, tensor<32x16x64xf32>) -> tensor<8x64xf32>
  func.return %0 : tensor<8x64xf32>
}

// -----

// A dot with an algorithm merges its contracting dims and keeps it.
// CHECK-LABEL: func.func @algorithm_kept
func.func @algorithm_kept(%a: tensor<8x16x32xf32>, %b: tensor<16x32x64xf32>) -> tensor<8x64xf32> {
  // CHECK:      stablehlo.reshape %a : (tensor<8x16x32xf32>) -> tensor<8x512xf32>
  // CHECK:      stablehlo.dot_general {{.*}}, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<8x512xf32>, tensor<512x64xf32>) -> tensor<8x64xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1, 2] x [0, 1], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<8x16x32xf32>, tensor<16x32x64xf32>) -> tensor<8x64xf32>
  func.return %0 : tensor<8x64xf32>
}
