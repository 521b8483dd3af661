// RUN: xlir-run --check --split-input-file %s | filecheck %s

// CHECK: PASS @gather_rows_points_clamped
func.func @gather_rows_points_clamped() {
  %t = stablehlo.constant dense<[[0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32]]> : tensor<4x3xi32>
  %rows = stablehlo.constant dense<[[2], [0], [9]]> : tensor<3x1xi32>
  %0 = "stablehlo.gather"(%t, %rows) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xi32>, tensor<3x1xi32>) -> tensor<3x3xi32>
  // index 9 is clamped to the last row
  check.expect_eq_const %0, dense<[[20, 21, 22], [0, 1, 2], [30, 31, 32]]> : tensor<3x3xi32>
  %pts = stablehlo.constant dense<[[1, 2], [3, 0], [-5, 1]]> : tensor<3x2xi32>
  %1 = "stablehlo.gather"(%t, %pts) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x3xi32>, tensor<3x2xi32>) -> tensor<3xi32>
  check.expect_eq_const %1, dense<[12, 30, 1]> : tensor<3xi32>
  // scalar indices (index_vector_dim = rank), windows of 2 rows, offset dim first
  %flat = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
  %2 = "stablehlo.gather"(%t, %flat) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 2>}> : (tensor<4x3xi32>, tensor<2xi32>) -> tensor<2x2x2xi32>
  check.expect_eq_const %2, dense<[[[10, 11], [20, 21]], [[20, 21], [30, 31]]]> : tensor<2x2x2xi32>
  func.return
}

// -----

// CHECK: PASS @gather_batching_dims
func.func @gather_batching_dims() {
  %x = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : tensor<2x3x2xi32>
  %i = stablehlo.constant dense<[[[2], [0]], [[1], [1]]]> : tensor<2x2x1xi32>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 2>}> : (tensor<2x3x2xi32>, tensor<2x2x1xi32>) -> tensor<2x2x2xi32>
  check.expect_eq_const %0, dense<[[[5, 6], [1, 2]], [[9, 10], [9, 10]]]> : tensor<2x2x2xi32>
  func.return
}

// -----

// CHECK: PASS @scatter_add_set_and_out_of_bounds
func.func @scatter_add_set_and_out_of_bounds() {
  %x = stablehlo.constant dense<0> : tensor<4x2xi32>
  %i = stablehlo.constant dense<[[1], [3], [1], [7]]> : tensor<4x1xi32>
  %u = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi32>
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<4x2xi32>, tensor<4x1xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
  // repeated indices accumulate; the out-of-bounds update (row 7) is dropped
  check.expect_eq_const %0, dense<[[0, 0], [6, 8], [0, 0], [3, 4]]> : tensor<4x2xi32>
  %1 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<4x2xi32>, tensor<4x1xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
  check.expect_eq_const %1, dense<[[0, 0], [5, 6], [0, 0], [3, 4]]> : tensor<4x2xi32>
  // a general body (x * 2 + u) applied in order at repeated indices
  %2 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %two = stablehlo.constant dense<2> : tensor<i32>
    %m = stablehlo.multiply %a, %two : tensor<i32>
    %s = stablehlo.add %m, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<4x2xi32>, tensor<4x1xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
  check.expect_eq_const %2, dense<[[0, 0], [7, 10], [0, 0], [3, 4]]> : tensor<4x2xi32>
  func.return
}

// -----

// CHECK: PASS @scatter_variadic_and_batching
func.func @scatter_variadic_and_batching() {
  %x = stablehlo.constant dense<0.0> : tensor<3xf32>
  %y = stablehlo.constant dense<0> : tensor<3xi32>
  %i = stablehlo.constant dense<[[0], [2], [0]]> : tensor<3x1xi32>
  %u = stablehlo.constant dense<[1.5, 2.5, 3.5]> : tensor<3xf32>
  %v = stablehlo.constant dense<[4, 9, 6]> : tensor<3xi32>
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    %t = stablehlo.maximum %b, %d : tensor<i32>
    stablehlo.return %s, %t : tensor<f32>, tensor<i32>
  }) : (tensor<3xf32>, tensor<3xi32>, tensor<3x1xi32>, tensor<3xf32>, tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>)
  check.expect_eq_const %0#0, dense<[5.0, 0.0, 2.5]> : tensor<3xf32>
  check.expect_eq_const %0#1, dense<[6, 0, 9]> : tensor<3xi32>
  %z = stablehlo.constant dense<0> : tensor<2x3x2xi32>
  %bi = stablehlo.constant dense<[[[2]], [[0]]]> : tensor<2x1x1xi32>
  %bu = stablehlo.constant dense<[[[1, 2]], [[3, 4]]]> : tensor<2x1x2xi32>
  %1 = "stablehlo.scatter"(%z, %bi, %bu) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<2x3x2xi32>, tensor<2x1x1xi32>, tensor<2x1x2xi32>) -> tensor<2x3x2xi32>
  check.expect_eq_const %1, dense<[[[0, 0], [0, 0], [1, 2]], [[3, 4], [0, 0], [0, 0]]]> : tensor<2x3x2xi32>
  func.return
}

// -----

// The operand is a broadcast (a strided view): the result is a row-major
// copy that the updates are written into (a column-major copy lost them).
// CHECK: PASS @scatter_into_broadcast_row
func.func @scatter_into_broadcast_row() {
  %row = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %x = stablehlo.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %i = stablehlo.constant dense<[[2], [0], [1], [2]]> : tensor<4x1xi32>
  %u = stablehlo.constant dense<[[10.0], [20.0], [30.0], [40.0]]> : tensor<4x1xf32>
  %set = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<4x1xi32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  check.expect_eq_const %set, dense<[[1.0, 2.0, 10.0], [20.0, 2.0, 3.0], [1.0, 30.0, 3.0], [1.0, 2.0, 40.0]]> : tensor<4x3xf32>
  %add = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<4x1xi32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  check.expect_eq_const %add, dense<[[1.0, 2.0, 13.0], [21.0, 2.0, 3.0], [1.0, 32.0, 3.0], [1.0, 2.0, 43.0]]> : tensor<4x3xf32>
  func.return
}

// CHECK: {{^}}5 passed, 0 failed
