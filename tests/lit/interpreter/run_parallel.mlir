// RUN: not xlir-run --check --split-input-file %s | filecheck %s

// interpreter.run_parallel runs a grid of programs[replica][partition] on the
// evaluator's process grid; its checks see every process's results.

// A 2 x 2 grid: the ids, and an all_reduce over each replica's partitions
// (cross_partition needs a channel id > 0; flattened ids would do as well).
// CHECK: PASS @grid_of_four
func.func @ids_and_sum(%x: tensor<2xi64>) -> (tensor<ui32>, tensor<ui32>, tensor<2xi64>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %t = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %t : tensor<i64>
  }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<2xi64>) -> tensor<2xi64>
  func.return %r, %p, %s : tensor<ui32>, tensor<ui32>, tensor<2xi64>
}
func.func @grid_of_four() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %b = stablehlo.constant dense<[10, 20]> : tensor<2xi64>
  %c = stablehlo.constant dense<[100, 200]> : tensor<2xi64>
  %d = stablehlo.constant dense<[1000, 2000]> : tensor<2xi64>
  %r:12 = "interpreter.run_parallel"(%a, %b, %c, %d) {
    programs = [[@ids_and_sum, @ids_and_sum], [@ids_and_sum, @ids_and_sum]]
  } : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<ui32>, tensor<ui32>, tensor<2xi64>, tensor<ui32>, tensor<ui32>, tensor<2xi64>, tensor<ui32>, tensor<ui32>, tensor<2xi64>, tensor<ui32>, tensor<ui32>, tensor<2xi64>)
  check.expect_eq_const %r#0, dense<0> : tensor<ui32>
  check.expect_eq_const %r#1, dense<0> : tensor<ui32>
  check.expect_eq_const %r#2, dense<[11, 22]> : tensor<2xi64>
  check.expect_eq_const %r#3, dense<0> : tensor<ui32>
  check.expect_eq_const %r#4, dense<1> : tensor<ui32>
  check.expect_eq_const %r#5, dense<[11, 22]> : tensor<2xi64>
  check.expect_eq_const %r#6, dense<1> : tensor<ui32>
  check.expect_eq_const %r#7, dense<0> : tensor<ui32>
  check.expect_eq_const %r#8, dense<[1100, 2200]> : tensor<2xi64>
  check.expect_eq_const %r#9, dense<1> : tensor<ui32>
  check.expect_eq_const %r#10, dense<1> : tensor<ui32>
  check.expect_eq_const %r#11, dense<[1100, 2200]> : tensor<2xi64>
  func.return
}

// -----

// A wrong expectation fails (the checks are real).
// CHECK: FAIL @wrong_sum
// CHECK: run_parallel.mlir:[[# @LINE + 16]]:3: error: check.expect_eq_const
func.func @sum(%x: tensor<i32>) -> tensor<i32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<i32>) -> tensor<i32>
  func.return %s : tensor<i32>
}
func.func @wrong_sum() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.constant dense<2> : tensor<i32>
  %r:2 = "interpreter.run_parallel"(%a, %b) {
    programs = [[@sum], [@sum]]
  } : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  check.expect_eq_const %r#0, dense<3> : tensor<i32>
  check.expect_eq_const %r#1, dense<4> : tensor<i32>
  func.return
}

// -----

// A process that fails stops the grid; the error names the process.
// CHECK: FAIL @failing_process
// CHECK: run_parallel.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.recv' failed in the interpreter
// CHECK: (on rank 1: replica 1, partition 0)
func.func @receive(%t: !stablehlo.token) -> (tensor<3xi64>, !stablehlo.token) {
  %v, %u = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<3xi64>, !stablehlo.token)
  func.return %v, %u : tensor<3xi64>, !stablehlo.token
}
func.func @send(%x: tensor<2xi64>, %t: !stablehlo.token) -> !stablehlo.token {
  %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
  func.return %s : !stablehlo.token
}
func.func @failing_process() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %t = stablehlo.after_all : !stablehlo.token
  %r:3 = "interpreter.run_parallel"(%x, %t, %t) {
    programs = [[@send], [@receive]]
  } : (tensor<2xi64>, !stablehlo.token, !stablehlo.token) -> (!stablehlo.token, tensor<3xi64>, !stablehlo.token)
  func.return
}

// -----

// A collective one process never reaches is a deadlock, reported at once.
// CHECK: FAIL @never_met
// CHECK: run_parallel.mlir:[[# @LINE + 2]]:3: error: 'stablehlo.all_reduce': deadlock: rank(s) [0] wait
func.func @reduce(%x: tensor<i32>) -> tensor<i32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<i32>) -> tensor<i32>
  func.return %s : tensor<i32>
}
func.func @identity(%x: tensor<i32>) -> tensor<i32> {
  func.return %x : tensor<i32>
}
func.func @never_met() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = "interpreter.run_parallel"(%a, %a) {
    programs = [[@reduce], [@identity]]
  } : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  func.return
}

// -----

// Groups that do not fit the grid are refused before anything runs.
// CHECK: FAIL @too_small_a_grid
// CHECK: run_parallel.mlir:[[# @LINE + 2]]:3: error: 'stablehlo.all_reduce' does not fit the process grid: replica id 2 is out of range
func.func @three(%x: tensor<i32>) -> tensor<i32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<i32>) -> tensor<i32>
  func.return %s : tensor<i32>
}
func.func @too_small_a_grid() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = "interpreter.run_parallel"(%a, %a) {
    programs = [[@three], [@three]]
  } : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  func.return
}
