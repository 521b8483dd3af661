// RUN: xlir-opt %s --split-input-file | filecheck %s

// JAX attaches attributes for other tools: Shardy's sharding rule on its
// LAPACK custom calls, mhlo's dictionaries. They are kept as opaque
// attributes and printed back as given.

// CHECK-LABEL: func.func @lapack
// CHECK: stablehlo.custom_call @lapack_spotrf_ffi(%{{.*}}) {{{.*}}mhlo.backend_config = {uplo = 76 : ui8}, {{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=3, j=3, k=3, l=3}, custom>}
func.func @lapack(%a: tensor<3x3xf32>) -> tensor<i32> {
  %r:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=3, j=3, k=3, l=3}, custom>} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  return %r#1 : tensor<i32>
}

// -----

// JAX leaves out `index_vector_dim = 0` (its default) in gather and scatter.

// CHECK-LABEL: func.func @gather_default_index_vector_dim
// CHECK: index_vector_dim = 0
func.func @gather_default_index_vector_dim(%x: tensor<5xf32>, %i: tensor<1xi32>) -> tensor<f32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0]>, slice_sizes = array<i64: 1>}> : (tensor<5xf32>, tensor<1xi32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Shardy's meshes on the module and shardings on arguments, as a sharded
// jax.export prints them.

// CHECK: builtin.module attributes {mhlo.num_partitions = 1 : i32, sdy.meshes = [#sdy.mesh<["d"=2]>]} {
// CHECK-NEXT: func.func @sharded(%x: tensor<4x4xf32> {mhlo.sharding = "{replicated}", sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) -> tensor<4x4xf32> {
module attributes {mhlo.num_partitions = 1 : i32, sdy.meshes = [#sdy.mesh<["d"=2]>]} {
  func.func @sharded(%x: tensor<4x4xf32> {mhlo.sharding = "{replicated}", sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) -> tensor<4x4xf32> {
    return %x : tensor<4x4xf32>
  }
}
