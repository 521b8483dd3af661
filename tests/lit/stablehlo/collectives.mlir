// RUN: xlir-opt %s --split-input-file | filecheck %s
// RUN: xlir-opt %s --split-input-file | xlir-opt --split-input-file | filecheck %s
// RUN: xlir-opt %s --split-input-file --print-op-generic | xlir-opt --split-input-file | filecheck %s

// The collectives print generically, as JAX writes them (attributes as
// properties); StableHLO's test files give them as an attribute dictionary,
// which parses to the same op.

// CHECK-LABEL: func.func @all_reduce_jax
// CHECK: "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
// CHECK: stablehlo.add
// CHECK: }) : (tensor<32xf32>) -> tensor<32xf32>
func.func @all_reduce_jax(%x: tensor<32xf32>) -> tensor<32xf32> {
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<32xf32>) -> tensor<32xf32>
  func.return %0 : tensor<32xf32>
}

// -----

// CHECK-LABEL: func.func @all_reduce_variadic_ragged
// CHECK: "stablehlo.all_reduce"(%x, %y) <{replica_groups = dense<{{\[\[}}0, 1], [2, -1]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>}>
// CHECK: }) : (tensor<4xi64>, tensor<5xi64>) -> (tensor<4xi64>, tensor<5xi64>)
func.func @all_reduce_variadic_ragged(%x: tensor<4xi64>, %y: tensor<5xi64>) -> (tensor<4xi64>, tensor<5xi64>) {
  %r:2 = "stablehlo.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %m = stablehlo.maximum %a, %b : tensor<i64>
      stablehlo.return %m : tensor<i64>
  }) {
    replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>,
    channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>
  } : (tensor<4xi64>, tensor<5xi64>) -> (tensor<4xi64>, tensor<5xi64>)
  func.return %r#0, %r#1 : tensor<4xi64>, tensor<5xi64>
}

// -----

// CHECK-LABEL: func.func @gather_scatter
// CHECK: "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<8x32xf32>) -> tensor<16x32xf32>
// CHECK: "stablehlo.reduce_scatter"(%g) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
// CHECK: }) : (tensor<16x32xf32>) -> tensor<8x32xf32>
func.func @gather_scatter(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %g = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<8x32xf32>) -> tensor<16x32xf32>
  %s = "stablehlo.reduce_scatter"(%g) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<16x32xf32>) -> tensor<8x32xf32>
  func.return %s : tensor<8x32xf32>
}

// -----

// cross_replica_and_partition: the text does not fix the group size (it is
// the group's times the number of partitions), so any multiple verifies.
// CHECK-LABEL: func.func @gather_across_partitions
// CHECK: "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>}> : (tensor<2x2xi64>) -> tensor<2x8xi64>
func.func @gather_across_partitions(%x: tensor<2x2xi64>) -> tensor<2x8xi64> {
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle=1, type=0>} : (tensor<2x2xi64>) -> tensor<2x8xi64>
  func.return %g : tensor<2x8xi64>
}

// -----

// CHECK-LABEL: func.func @all_to_all
// CHECK: "stablehlo.all_to_all"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<8x12xf32>) -> tensor<16x6xf32>
// CHECK: "stablehlo.all_to_all"(%a, %b) <{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xi64>, tensor<3x4xi32>) -> (tensor<4x2xi64>, tensor<6x2xi32>)
func.func @all_to_all(%x: tensor<8x12xf32>, %a: tensor<2x4xi64>, %b: tensor<3x4xi32>) -> (tensor<16x6xf32>, tensor<4x2xi64>, tensor<6x2xi32>) {
  %0 = "stablehlo.all_to_all"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<8x12xf32>) -> tensor<16x6xf32>
  %1:2 = "stablehlo.all_to_all"(%a, %b) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>, tensor<3x4xi32>) -> (tensor<4x2xi64>, tensor<6x2xi32>)
  func.return %0, %1#0, %1#1 : tensor<16x6xf32>, tensor<4x2xi64>, tensor<6x2xi32>
}

// -----

// CHECK-LABEL: func.func @permute_broadcast_ids
// CHECK: %p = stablehlo.partition_id : tensor<ui32>
// CHECK: %r = stablehlo.replica_id : tensor<ui32>
// CHECK: "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<{{\[\[}}2, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>}> : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: "stablehlo.collective_broadcast"(%x, %root) <{has_dynamic_root, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>, tensor<1xi32>) -> tensor<4xf32>
func.func @permute_broadcast_ids(%x: tensor<4xf32>, %root: tensor<1xi32>) -> (tensor<ui32>, tensor<ui32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %p = stablehlo.partition_id : tensor<ui32>
  %r = stablehlo.replica_id : tensor<ui32>
  %0 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.collective_broadcast"(%x, %root) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<4xf32>, tensor<1xi32>) -> tensor<4xf32>
  func.return %p, %r, %0, %1, %2 : tensor<ui32>, tensor<ui32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @send_recv_feeds
// CHECK: "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
// CHECK: "stablehlo.recv"(%s) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
// CHECK: "stablehlo.infeed"(%u) : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
// CHECK: "stablehlo.outfeed"(%v, %w) : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
func.func @send_recv_feeds(%x: tensor<2xi64>) -> !stablehlo.token {
  %t = stablehlo.after_all : !stablehlo.token
  %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
  %y, %u = "stablehlo.recv"(%s) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
  %v, %w = "stablehlo.infeed"(%u) : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
  %o = "stablehlo.outfeed"(%v, %w) : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
  func.return %o : !stablehlo.token
}
