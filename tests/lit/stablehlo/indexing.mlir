// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s

// CHECK-LABEL: func.func @gather
func.func @gather(%table: tensor<100x32xf32>, %rows: tensor<48x1xi32>, %points: tensor<48x2xi32>, %flat: tensor<48xi64>) -> tensor<48x32xf32> {
  // Row lookup, as JAX's lowered flavour prints it.
  // CHECK: %{{.*}} = "stablehlo.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  %0 = "stablehlo.gather"(%table, %rows) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  // Point gather, export flavour: no offset_dims, no indices_are_sorted.
  // CHECK: "stablehlo.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<100x32xf32>, tensor<48x2xi32>) -> tensor<48xf32>
  %1 = "stablehlo.gather"(%table, %points) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<100x32xf32>, tensor<48x2xi32>) -> tensor<48xf32>
  // index_vector_dim = rank(indices): each index is a scalar; windows of 4 rows,
  // with the offset dim in front of the batch dim.
  // CHECK: "stablehlo.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 4, 32>}> : (tensor<100x32xf32>, tensor<48xi64>) -> tensor<4x48x32xf32>
  %2 = "stablehlo.gather"(%table, %flat) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 4, 32>}> : (tensor<100x32xf32>, tensor<48xi64>) -> tensor<4x48x32xf32>
  // Properties written as attributes (older generic text) are accepted too.
  // CHECK: "stablehlo.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>}> : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  %3 = "stablehlo.gather"(%table, %rows) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>} : (tensor<100x32xf32>, tensor<48x1xi32>) -> tensor<48x32xf32>
  func.return %0 : tensor<48x32xf32>
}

// CHECK-LABEL: func.func @batched_gather
func.func @batched_gather(%x: tensor<2x5x8xf32>, %i: tensor<2x6x1xi32>) -> tensor<2x6x8xf32> {
  // CHECK: #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>
  // CHECK-SAME: -> tensor<2x6x8xf32>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 8>}> : (tensor<2x5x8xf32>, tensor<2x6x1xi32>) -> tensor<2x6x8xf32>
  func.return %0 : tensor<2x6x8xf32>
}

// CHECK-LABEL: func.func @scatter
func.func @scatter(%x: tensor<100x32xf32>, %i: tensor<48x1xi32>, %u: tensor<48x32xf32>) -> tensor<100x32xf32> {
  // CHECK: %{{.*}} = "stablehlo.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK-NEXT:   %{{.*}} = stablehlo.add %{{.*}}, %{{.*}} : tensor<f32>
  // CHECK-NEXT:   stablehlo.return %{{.*}} : tensor<f32>
  // CHECK-NEXT: }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  %0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  // Export flavour: no optional flags; the update replaces the old value.
  // CHECK: "stablehlo.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  %1 = "stablehlo.scatter"(%0, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<100x32xf32>, tensor<48x1xi32>, tensor<48x32xf32>) -> tensor<100x32xf32>
  func.return %1 : tensor<100x32xf32>
}

// CHECK-LABEL: func.func @variadic_scatter
func.func @variadic_scatter(%x: tensor<100x32xf32>, %y: tensor<100x32xi32>, %i: tensor<48x1xi32>, %u: tensor<48x32xf32>, %v: tensor<48x32xi32>) -> tensor<100x32xf32> {
  // CHECK: = "stablehlo.scatter"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
  // CHECK: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>):
  // CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
  // CHECK: }) : (tensor<100x32xf32>, tensor<100x32xi32>, tensor<48x1xi32>, tensor<48x32xf32>, tensor<48x32xi32>) -> (tensor<100x32xf32>, tensor<100x32xi32>)
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    %t = stablehlo.maximum %b, %d : tensor<i32>
    stablehlo.return %s, %t : tensor<f32>, tensor<i32>
  }) : (tensor<100x32xf32>, tensor<100x32xi32>, tensor<48x1xi32>, tensor<48x32xf32>, tensor<48x32xi32>) -> (tensor<100x32xf32>, tensor<100x32xi32>)
  func.return %0#0 : tensor<100x32xf32>
}

// CHECK-LABEL: func.func @batched_scatter
func.func @batched_scatter(%x: tensor<2x5x8xf32>, %i: tensor<2x6x1xi32>, %u: tensor<2x6x8xf32>) -> tensor<2x5x8xf32> {
  // CHECK: #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x5x8xf32>, tensor<2x6x1xi32>, tensor<2x6x8xf32>) -> tensor<2x5x8xf32>
  func.return %0 : tensor<2x5x8xf32>
}

// JAX leaves index_vector_dim out when it is 0, its default (jnp.linalg.solve's
// pivot scatter, a gather of 1-D indices along dim 0): read as 0.
// CHECK-LABEL: func.func @index_vector_dim_default
func.func @index_vector_dim_default(%x: tensor<5xi32>, %i: tensor<1xi32>, %u: tensor<i32>) -> (tensor<5xi32>, tensor<2xi32>) {
  // CHECK: #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>
  %0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<5xi32>, tensor<1xi32>, tensor<i32>) -> tensor<5xi32>
  // CHECK: #stablehlo.gather<offset_dims = [0], start_index_map = [0], index_vector_dim = 0>
  %1 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], start_index_map = [0]>, slice_sizes = array<i64: 2>}> : (tensor<5xi32>, tensor<1xi32>) -> tensor<2xi32>
  func.return %0, %1 : tensor<5xi32>, tensor<2xi32>
}
