// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @g_index_type(%x: tensor<100x32xf32>, %i: tensor<48x1xf32>) -> tensor<48x32xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xf32>) -> tensor<48x32xf32>
  func.return %0 : tensor<48x32xf32>
}
// CHECK: indexing_invalid.mlir:4:3: error: 'stablehlo.gather' op start_indices must have integer elements, but has f32

// -----

func.func @g_elem(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>) -> tensor<48x32xf16> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf16>
  func.return %0 : tensor<48x32xf16>
}
// CHECK: indexing_invalid.mlir:12:3: error: 'stablehlo.gather' op result element type f16 must equal the operand element type f32

// -----

func.func @g_rank(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>) -> tensor<48x32xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  func.return %0 : tensor<48x32xf32>
}
// CHECK: indexing_invalid.mlir:20:3: error: 'stablehlo.gather' op offset_dims [1], collapsed_slice_dims [] and operand_batching_dims [] have 1 entries in all but the operand has rank 2

// -----

func.func @g_ivd(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>) -> tensor<48x32xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  func.return %0 : tensor<48x32xf32>
}
// CHECK: indexing_invalid.mlir:28:3: error: 'stablehlo.gather' op index_vector_dim 3 is out of range [0, 2] (the rank of the indices)

// -----

func.func @g_sizes_len(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>) -> tensor<48x32xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32, 1>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  func.return %0 : tensor<48x32xf32>
}
// CHECK: indexing_invalid.mlir:36:3: error: 'stablehlo.gather' op slice_sizes has 3 entries but the operand has rank 2

// -----

func.func @g_map_len(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>) -> tensor<48x32xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  func.return %0 : tensor<48x32xf32>
}
// CHECK: indexing_invalid.mlir:44:3: error: 'stablehlo.gather' op start_index_map [0, 1] has 2 entries but the index vector (indices dimension 1) has size 1

// -----

func.func @g_map_range(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>) -> tensor<48x32xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  func.return %0 : tensor<48x32xf32>
}
// CHECK: indexing_invalid.mlir:52:3: error: 'stablehlo.gather' op start_index_map [2] has dimension 2 out of range [0, 2)

// -----

func.func @g_offset_sorted(%x: tensor<100x32x4xf32>, %i: tensor<48x1xi32>) -> tensor<48x4x32xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32, 4>}> : (tensor<100x32x4xf32>, tensor<48x1xi32>) -> tensor<48x4x32xf32>
  func.return %0 : tensor<48x4x32xf32>
}
// CHECK: indexing_invalid.mlir:60:3: error: 'stablehlo.gather' op offset_dims [2, 1] must be sorted in ascending order

// -----

func.func @g_collapsed_repeat(%x: tensor<100x32xf32>, %i: tensor<48x2xi32>) -> tensor<48xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<100x32xf32>, tensor<48x2xi32>) -> tensor<48xf32>
  func.return %0 : tensor<48xf32>
}
// CHECK: indexing_invalid.mlir:68:3: error: 'stablehlo.gather' op collapsed_slice_dims and operand_batching_dims [0, 0] must not repeat a dimension

// -----

func.func @g_collapsed_size(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>) -> tensor<48x32xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  func.return %0 : tensor<48x32xf32>
}
// CHECK: indexing_invalid.mlir:76:3: error: 'stablehlo.gather' op slice size 2 in dimension 0 must be 0 or 1, since the dimension is in collapsed_slice_dims

// -----

func.func @g_slice_bound(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>) -> tensor<48x33xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 33>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x33xf32>
  func.return %0 : tensor<48x33xf32>
}
// CHECK: indexing_invalid.mlir:84:3: error: 'stablehlo.gather' op slice size 33 in dimension 1 must be in [0, 32]

// -----

func.func @g_batch_ivd(%x: tensor<2x5x8xf32>, %i: tensor<2x6x1xi32>) -> tensor<2x6x8xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [2], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 8>}> : (tensor<2x5x8xf32>, tensor<2x6x1xi32>) -> tensor<2x6x8xf32>
  func.return %0 : tensor<2x6x8xf32>
}
// CHECK: indexing_invalid.mlir:92:3: error: 'stablehlo.gather' op start_indices_batching_dims [2] must not contain index_vector_dim 2

// -----

func.func @g_batch_size(%x: tensor<3x5x8xf32>, %i: tensor<2x6x1xi32>) -> tensor<2x6x8xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 8>}> : (tensor<3x5x8xf32>, tensor<2x6x1xi32>) -> tensor<2x6x8xf32>
  func.return %0 : tensor<2x6x8xf32>
}
// CHECK: indexing_invalid.mlir:100:3: error: 'stablehlo.gather' op batching dimension sizes differ: operand dimension 0 has 3, indices dimension 0 has 2

// -----

func.func @g_map_batching(%x: tensor<2x5x8xf32>, %i: tensor<2x6x1xi32>) -> tensor<2x6x8xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 8>}> : (tensor<2x5x8xf32>, tensor<2x6x1xi32>) -> tensor<2x6x8xf32>
  func.return %0 : tensor<2x6x8xf32>
}
// CHECK: indexing_invalid.mlir:108:3: error: 'stablehlo.gather' op start_index_map and operand_batching_dims [0, 0] must not repeat a dimension

// -----

func.func @g_offset_range(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>) -> tensor<48x32xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  func.return %0 : tensor<48x32xf32>
}
// CHECK: indexing_invalid.mlir:116:3: error: 'stablehlo.gather' op offset_dims [2] has dimension 2 out of range [0, 2)

// -----

func.func @g_result(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>) -> tensor<32x48xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<32x48xf32>
  func.return %0 : tensor<32x48xf32>
}
// CHECK: indexing_invalid.mlir:124:3: error: 'stablehlo.gather' op result shape [32, 48] does not match the inferred shape [48, 32]

// -----

func.func @s_index_type(%x0: tensor<100x32xf32>, %i: tensor<48x1xf32>, %u0: tensor<48x32xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xf32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:132:3: error: 'stablehlo.scatter' op scatter_indices must have integer elements, but has f32

// -----

func.func @s_input_shapes(%x0: tensor<100x32xf32>, %x1: tensor<100x31xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x32xf32>, %u1: tensor<48x32xf32>) -> tensor<100x32xf32> {
  %0:2 = "stablehlo.scatter"(%x0, %x1, %i, %u0, %u1) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
      stablehlo.return %c, %d : tensor<f32>, tensor<f32>
  }) : (tensor<100x32xf32>, tensor<100x31xf32>, tensor<48x1xi32>, tensor<48x32xf32>, tensor<48x32xf32>) -> (tensor<100x32xf32>, tensor<100x31xf32>)
  func.return %0#0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:143:3: error: 'stablehlo.scatter' op input #1 has shape [100, 31] but input #0 has shape [100, 32]; all inputs must have the same shape

// -----

func.func @s_update_shapes(%x0: tensor<100x32xf32>, %x1: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x32xf32>, %u1: tensor<48x31xf32>) -> tensor<100x32xf32> {
  %0:2 = "stablehlo.scatter"(%x0, %x1, %i, %u0, %u1) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
      stablehlo.return %c, %d : tensor<f32>, tensor<f32>
  }) : (tensor<100x32xf32>, tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>, tensor<48x31xf32>) -> (tensor<100x32xf32>, tensor<100x32xf32>)
  func.return %0#0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:154:3: error: 'stablehlo.scatter' op update #1 has shape [48, 31] but update #0 has shape [48, 32]; all updates must have the same shape

// -----

func.func @s_rank(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x32xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:165:3: error: 'stablehlo.scatter' op update_window_dims [1], inserted_window_dims [] and input_batching_dims [] have 1 entries in all but the inputs have rank 2

// -----

func.func @s_window_sorted(%x0: tensor<100x32x4xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x4x32xf32>) -> tensor<100x32x4xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32x4xf32>, tensor<48x1xi32>, tensor<48x4x32xf32>) -> tensor<100x32x4xf32>
  func.return %0 : tensor<100x32x4xf32>
}
// CHECK: indexing_invalid.mlir:176:3: error: 'stablehlo.scatter' op update_window_dims [2, 1] must be sorted in ascending order

// -----

func.func @s_inserted_range(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x32xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:187:3: error: 'stablehlo.scatter' op inserted_window_dims [2] has dimension 2 out of range [0, 2)

// -----

func.func @s_map_len(%x0: tensor<100x32xf32>, %i: tensor<48x2xi32>, %u0: tensor<48x32xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x2xi32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:198:3: error: 'stablehlo.scatter' op scatter_dims_to_operand_dims [0] has 1 entries but the index vector (indices dimension 1) has size 2

// -----

func.func @s_batch_len(%x0: tensor<2x5x8xf32>, %i: tensor<2x6x1xi32>, %u0: tensor<2x6x8xf32>) -> tensor<2x5x8xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<2x5x8xf32>, tensor<2x6x1xi32>, tensor<2x6x8xf32>) -> tensor<2x5x8xf32>
  func.return %0 : tensor<2x5x8xf32>
}
// CHECK: indexing_invalid.mlir:209:3: error: 'stablehlo.scatter' op input_batching_dims [0] and scatter_indices_batching_dims [] must have the same length

// -----

func.func @s_update_rank(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x1x32xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x1x32xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:220:3: error: 'stablehlo.scatter' op updates have rank 3 but must have rank 2: 1 update_window_dims and 1 scatter dimensions from the indices

// -----

func.func @s_update_scatter_dim(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<47x32xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<47x32xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:231:3: error: 'stablehlo.scatter' op update dimension 0 has size 47 but must equal the matching scatter indices size 48

// -----

func.func @s_update_window(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x33xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x33xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:242:3: error: 'stablehlo.scatter' op update window dimension 1 has size 33, which exceeds the size 32 of input dimension 1

// -----

func.func @s_update_elem(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x32xf16>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf16>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:253:3: error: 'stablehlo.scatter' op update #0 has element type f16 but input #0 has f32

// -----

func.func @s_block_args(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x32xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>):
      stablehlo.return %a : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:264:3: error: 'stablehlo.scatter' op update_computation must take 2 arguments (the current value and the update for each of the 1 inputs), but takes 1

// -----

func.func @s_block_rank(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x32xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
      stablehlo.return %a : tensor<1xf32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:275:3: error: 'stablehlo.scatter' op update_computation argument #0 must be a rank-0 tensor, but is tensor<1xf32>

// -----

func.func @s_block_kind(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x32xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      stablehlo.return %a : tensor<i32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:286:3: error: 'stablehlo.scatter' op update_computation argument #0 has element type i32, which does not fit input #0 with element type f32

// -----

func.func @s_block_return(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x32xf32>) -> tensor<100x32xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %a, %b : tensor<f32>, tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  func.return %0 : tensor<100x32xf32>
}
// CHECK: indexing_invalid.mlir:297:3: error: 'stablehlo.scatter' op update_computation returns (tensor<f32>, tensor<f32>) but must return (tensor<f32>)

// -----

func.func @s_result(%x0: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u0: tensor<48x32xf32>) -> tensor<32x100xf32> {
  %0 = "stablehlo.scatter"(%x0, %i, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>) -> tensor<32x100xf32>
  func.return %0 : tensor<32x100xf32>
}
// CHECK: indexing_invalid.mlir:308:3: error: 'stablehlo.scatter' op result #0 has type tensor<32x100xf32> but must have input #0's shape with the update_computation element type f32
