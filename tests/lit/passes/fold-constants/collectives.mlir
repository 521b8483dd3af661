// RUN: xlir-opt %s -p fold-constants,cse,dce | filecheck %s

// A collective's result, and a process's ids, differ from process to
// process: no pass folds them, merges two of them or drops an unused one
// (every process of a group must reach each collective).

// CHECK-LABEL: func.func @kept
// CHECK-NEXT: %p = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %q = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %r = stablehlo.replica_id : tensor<ui32>
// CHECK:      "stablehlo.all_reduce"(%c)
// CHECK:      "stablehlo.all_reduce"(%c)
// CHECK:      "stablehlo.all_gather"(%c)
// CHECK:      func.return %p, %q, %{{.*}} : tensor<ui32>, tensor<ui32>, tensor<2xi32>
func.func @kept() -> (tensor<ui32>, tensor<ui32>, tensor<2xi32>) {
  %p = stablehlo.partition_id : tensor<ui32>
  %q = stablehlo.partition_id : tensor<ui32>
  %r = stablehlo.replica_id : tensor<ui32>
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %s = "stablehlo.all_reduce"(%c) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  %unused = "stablehlo.all_reduce"(%c) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  %g = "stablehlo.all_gather"(%c) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<4xi32>
  func.return %p, %q, %s : tensor<ui32>, tensor<ui32>, tensor<2xi32>
}
