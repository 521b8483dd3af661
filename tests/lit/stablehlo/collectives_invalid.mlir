// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One case per rule of the collectives' verifiers.

func.func @groups_repeat(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:6:3: error: 'stablehlo.all_reduce' op replica_groups repeats id(s) [1]; ids must be unique

// -----

func.func @groups_skip_an_id(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 2]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:18:3: error: 'stablehlo.all_reduce' op replica_groups must hold ids 0 to 1, one each, but holds 2 and lacks [1]

// -----

func.func @groups_negative(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, -2]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:30:3: error: 'stablehlo.all_reduce' op replica_groups holds -2; ids must be >= 0 (or -1 to pad a shorter group)

// -----

func.func @groups_not_rank_2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[0, 1]> : tensor<2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:42:3: error: 'stablehlo.all_reduce' op replica_groups must be a rank-2 tensor of i64, but is tensor<2xi64>

// -----

func.func @global_ids_without_channel(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 0, type = 1>, use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:54:3: error: 'stablehlo.all_reduce' op use_global_device_ids needs a channel_handle with handle > 0, but the channel id is 0

// -----

func.func @all_reduce_result_type(%x: tensor<4xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK: collectives_invalid.mlir:66:3: error: 'stablehlo.all_reduce' op result #0 has type tensor<2xf32> but operand #0 has type tensor<4xf32>; they must be equal

// -----

func.func @all_reduce_computation_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:78:3: error: 'stablehlo.all_reduce' op computation takes (tensor<i32>, tensor<i32>) but must take (tensor<f32>, tensor<f32>)

// -----

func.func @all_reduce_result_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return %0#0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:90:3: error: 'stablehlo.all_reduce' op has 1 operand(s) but 2 result(s); each operand gives one result

// -----

func.func @all_gather_dim_range(%x: tensor<2x2xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
// CHECK: collectives_invalid.mlir:102:3: error: 'stablehlo.all_gather' op all_gather_dim 2 is out of range for rank 2

// -----

func.func @all_gather_result_shape(%x: tensor<2x2xf32>) -> tensor<2x6xf32> {
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x6xf32>
  func.return %0 : tensor<2x6xf32>
}
// CHECK: collectives_invalid.mlir:110:3: error: 'stablehlo.all_gather' op result #0 has shape [2, 6] but gathering operand #0 of shape [2, 2] along dimension 1 gives [2, 4]

// -----

func.func @reduce_scatter_indivisible(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  func.return %0 : tensor<2x1xf32>
}
// CHECK: collectives_invalid.mlir:118:3: error: 'stablehlo.reduce_scatter' op operand #0 has 3 elements along the scatter dimension 1, which the group size 2 does not divide

// -----

func.func @reduce_scatter_result_shape(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
// CHECK: collectives_invalid.mlir:130:3: error: 'stablehlo.reduce_scatter' op result #0 has shape [2, 4] but scattering operand #0 of shape [2, 4] along dimension 1 gives [2, 2]

// -----

func.func @all_to_all_split_count(%x: tensor<2x4xf32>) -> tensor<4x2xf32> {
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}
// CHECK: collectives_invalid.mlir:142:3: error: 'stablehlo.all_to_all' op split_count must be > 0, but is 0

// -----

func.func @all_to_all_group_size(%x: tensor<2x4xf32>) -> tensor<4x2xf32> {
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}
// CHECK: collectives_invalid.mlir:150:3: error: 'stablehlo.all_to_all' op replica group [0, 1, 2, 3] has 4 member(s), but split_count is 2; every group has split_count members

// -----

func.func @all_to_all_indivisible(%x: tensor<2x3xf32>) -> tensor<4x1xf32> {
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<4x1xf32>
  func.return %0 : tensor<4x1xf32>
}
// CHECK: collectives_invalid.mlir:158:3: error: 'stablehlo.all_to_all' op operand #0 has 3 elements along split_dimension 1, which split_count 2 does not divide

// -----

func.func @all_to_all_concat_range(%x: tensor<2x4xf32>) -> tensor<4x2xf32> {
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 5 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}
// CHECK: collectives_invalid.mlir:166:3: error: 'stablehlo.all_to_all' op concat_dimension 5 is out of range for rank 2

// -----

func.func @all_to_all_result_shape(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
// CHECK: collectives_invalid.mlir:174:3: error: 'stablehlo.all_to_all' op result #0 has shape [2, 4] but operand #0 of shape [2, 4] split 2 ways along 1 and concatenated along 0 gives [4, 2]

// -----

func.func @permute_columns(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:182:3: error: 'stablehlo.collective_permute' op source_target_pairs must have 2 columns (source, target), but has 3

// -----

func.func @permute_repeated_source(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:190:3: error: 'stablehlo.collective_permute' op source_target_pairs repeats source(s) [0]; each process may be the source of one pair only

// -----

func.func @permute_repeated_target(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 2], [1, 2]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:198:3: error: 'stablehlo.collective_permute' op source_target_pairs repeats target(s) [2]; each process may be the target of one pair only

// -----

func.func @permute_negative(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, -1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:206:3: error: 'stablehlo.collective_permute' op source_target_pairs holds -1; ids must be >= 0

// -----

func.func @permute_result_type(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}
// CHECK: collectives_invalid.mlir:214:3: error: 'stablehlo.collective_permute' op result #0 has type tensor<4xi32> but operand #0 has type tensor<4xf32>; they must be equal

// -----

func.func @broadcast_root_operand(%x: tensor<4xf32>, %root: tensor<2xi32>) -> tensor<4xf32> {
  %0 = "stablehlo.collective_broadcast"(%x, %root) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<4xf32>, tensor<2xi32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:222:3: error: 'stablehlo.collective_broadcast' op with has_dynamic_root the last operand must be a 1-D integer tensor of 1 element(s), one root per data operand, but is tensor<2xi32>

// -----

func.func @broadcast_result_type(%x: tensor<4xf32>) -> tensor<4xf64> {
  %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf64>
  func.return %0 : tensor<4xf64>
}
// CHECK: collectives_invalid.mlir:230:3: error: 'stablehlo.collective_broadcast' op result #0 has type tensor<4xf64> but operand #0 has type tensor<4xf32>; they must be equal

// -----

func.func @partition_id_type() -> tensor<i32> {
  %0 = stablehlo.partition_id : tensor<i32>
  func.return %0 : tensor<i32>
}
// CHECK: collectives_invalid.mlir:238:3: error: 'stablehlo.partition_id' op result must be tensor<ui32>, but is tensor<i32>

// -----

func.func @replica_id_rank() -> tensor<1xui32> {
  %0 = stablehlo.replica_id : tensor<1xui32>
  func.return %0 : tensor<1xui32>
}
// CHECK: collectives_invalid.mlir:246:3: error: 'stablehlo.replica_id' op result must be tensor<ui32>, but is tensor<1xui32>

// -----

func.func @send_without_token(%x: tensor<2xi64>) -> !stablehlo.token {
  %0 = "stablehlo.send"(%x) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<2xi64>) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}
// CHECK: collectives_invalid.mlir:254:3: error: 'stablehlo.send' op last operand must be a !stablehlo.token, but is tensor<2xi64>

// -----

func.func @send_host_channel_type(%x: tensor<2xi64>, %t: !stablehlo.token) -> !stablehlo.token {
  %0 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}
// CHECK: collectives_invalid.mlir:262:3: error: 'stablehlo.send' op is_host_transfer needs a channel of type 2, but the channel_handle has type 3

// -----

func.func @recv_last_result(%t: !stablehlo.token) -> tensor<2xi64> {
  %0 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (!stablehlo.token) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}
// CHECK: collectives_invalid.mlir:270:3: error: 'stablehlo.recv' op last result must be a !stablehlo.token, but is tensor<2xi64>

// -----

func.func @infeed_last_result(%t: !stablehlo.token) -> tensor<2xi64> {
  %0 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}
// CHECK: collectives_invalid.mlir:278:3: error: 'stablehlo.infeed' op last result must be a !stablehlo.token, but is tensor<2xi64>

// -----

func.func @outfeed_token_first(%x: tensor<2xi64>, %t: !stablehlo.token) -> !stablehlo.token {
  %0 = "stablehlo.outfeed"(%t, %x) : (!stablehlo.token, tensor<2xi64>) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}
// CHECK: collectives_invalid.mlir:286:3: error: 'stablehlo.outfeed' op last operand must be a !stablehlo.token, but is tensor<2xi64>

// -----

func.func @channel_handle_field() -> () {
  %0 = stablehlo.constant {a = #stablehlo.channel_handle<handle = 1, kind = 1>} dense<1> : tensor<i32>
  func.return
}
// CHECK: collectives_invalid.mlir:294:70: error: unknown field 'kind' in #stablehlo.channel_handle, expected one of handle, type

// -----

// A huge id is reported at once (the fuzzer's mutant listed every id below it).
func.func @groups_huge_id(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 4294967296]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: collectives_invalid.mlir:303:3: error: 'stablehlo.all_reduce' op replica_groups must hold ids 0 to 1, one each, but holds 4294967296 and lacks [1]
