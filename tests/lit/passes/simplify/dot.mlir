// RUN: xlir-opt %s --split-input-file -p simplify | filecheck %s

// Transposed dot_general operands folded into the dimension numbers, only
// where the result keeps its dimension order.

// a^T · b with a: [k, m] contracts a's dim 0.
// CHECK-LABEL: func.func @lhs_transposed
func.func @lhs_transposed(%a: tensor<8x4xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      %[[D:.*]] = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  // CHECK-NEXT: func.return %[[D]]
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %0 = stablehlo.dot_general %t, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}

// -----

// Batched, both operands transposed, precision kept.
// CHECK-LABEL: func.func @both_transposed_batched
func.func @both_transposed_batched(%a: tensor<3x8x2xf32>, %b: tensor<5x2x8xf32>) -> tensor<2x3x5xf32> {
  // CHECK:      %[[D:.*]] = stablehlo.dot_general %a, %b, batching_dims = [2] x [1], contracting_dims = [1] x [2], precision = [HIGHEST, HIGHEST] : (tensor<3x8x2xf32>, tensor<5x2x8xf32>) -> tensor<2x3x5xf32>
  // CHECK-NEXT: func.return %[[D]]
  %ta = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<3x8x2xf32>) -> tensor<2x3x8xf32>
  %tb = stablehlo.transpose %b, dims = [1, 2, 0] : (tensor<5x2x8xf32>) -> tensor<2x8x5xf32>
  %0 = stablehlo.dot_general %ta, %tb, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x3x8xf32>, tensor<2x8x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

// The transpose swaps two free dims of the lhs: folding would transpose the
// result, so it stays.
// CHECK-LABEL: func.func @free_dims_swapped
func.func @free_dims_swapped(%a: tensor<3x4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x3x5xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %a, dims = [1, 0, 2]
  // CHECK-NEXT: stablehlo.dot_general %[[T]], %b, contracting_dims = [2] x [0]
  %t = stablehlo.transpose %a, dims = [1, 0, 2] : (tensor<3x4x8xf32>) -> tensor<4x3x8xf32>
  %0 = stablehlo.dot_general %t, %b, contracting_dims = [2] x [0] : (tensor<4x3x8xf32>, tensor<8x5xf32>) -> tensor<4x3x5xf32>
  func.return %0 : tensor<4x3x5xf32>
}

// -----

// A transposed result is the dot of the swapped operands (JAX's weight
// gradient: dot(dy, x) transposed back), precisions swapped with them.
// CHECK-LABEL: func.func @result_transposed
func.func @result_transposed(%dy: tensor<64x512xf32>, %x: tensor<64x784xf32>) -> tensor<784x512xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      %[[D:.*]] = stablehlo.dot_general %x, %dy, contracting_dims = [0] x [0], precision = [HIGHEST, DEFAULT] : (tensor<64x784xf32>, tensor<64x512xf32>) -> tensor<784x512xf32>
  // CHECK-NEXT: func.return %[[D]]
  %0 = stablehlo.dot_general %dy, %x, contracting_dims = [0] x [0], precision = [DEFAULT, HIGHEST] : (tensor<64x512xf32>, tensor<64x784xf32>) -> tensor<512x784xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<512x784xf32>) -> tensor<784x512xf32>
  func.return %1 : tensor<784x512xf32>
}

// -----

// Batched: the batch dim stays first, the free blocks swap.
// CHECK-LABEL: func.func @result_transposed_batched
func.func @result_transposed_batched(%a: tensor<2x3x8xf32>, %b: tensor<2x8x5xf32>) -> tensor<2x5x3xf32> {
  // CHECK:      %[[D:.*]] = stablehlo.dot_general %b, %a, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<2x8x5xf32>, tensor<2x3x8xf32>) -> tensor<2x5x3xf32>
  // CHECK-NEXT: func.return %[[D]]
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x8xf32>, tensor<2x8x5xf32>) -> tensor<2x3x5xf32>
  %1 = stablehlo.transpose %0, dims = [0, 2, 1] : (tensor<2x3x5xf32>) -> tensor<2x5x3xf32>
  func.return %1 : tensor<2x5x3xf32>
}

// -----

// Not when the dot has another user (it would be computed twice), nor when
// the permutation moves the batch dim or reorders inside a free block.
// CHECK-LABEL: func.func @result_transpose_kept
func.func @result_transpose_kept(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<2x3x8xf32>, %d: tensor<2x8x5xf32>) -> (tensor<4x5xf32>, tensor<5x4xf32>, tensor<3x2x5xf32>) {
  // CHECK: %[[D:.*]] = stablehlo.dot_general %a, %b
  // CHECK: stablehlo.transpose %[[D]], dims = [1, 0]
  // CHECK: %[[E:.*]] = stablehlo.dot_general %c, %d
  // CHECK: stablehlo.transpose %[[E]], dims = [1, 0, 2]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %2 = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x8xf32>, tensor<2x8x5xf32>) -> tensor<2x3x5xf32>
  %3 = stablehlo.transpose %2, dims = [1, 0, 2] : (tensor<2x3x5xf32>) -> tensor<3x2x5xf32>
  func.return %0, %1, %3 : tensor<4x5xf32>, tensor<5x4xf32>, tensor<3x2x5xf32>
}

// -----

// A transposed operand folds into a dot with an algorithm, which stays.
// CHECK-LABEL: func.func @algorithm_kept
func.func @algorithm_kept(%a: tensor<8x4xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      stablehlo.dot_general %a, %b, contracting_dims = [0] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<8x4xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %0 = stablehlo.dot_general %t, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}

// -----

// A transposed result is not the dot of the swapped operands where an
// algorithm names the precision of each side.
// CHECK-LABEL: func.func @result_transposed_algorithm
func.func @result_transposed_algorithm(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<5x4xf32> {
  // CHECK:      %[[D:.*]] = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>
  // CHECK-NEXT: stablehlo.transpose %[[D]], dims = [1, 0]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>
  func.return %1 : tensor<5x4xf32>
}
