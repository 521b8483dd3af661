// RUN: xlir-opt %s --split-input-file -p combine-all-reduces | filecheck %s

// Independent all_reduces of the same groups, mode, element type and
// reduction become one variadic all_reduce where the last of them was (the
// first's channel handle); pure ops between them that read an earlier
// result move after it. Dependent ones, other groups or reductions, and
// ones with an op with effects between them stay apart.

// The gradients of a data-parallel step: three sums, the middle one read
// by a multiply before the last.
// CHECK-LABEL: func.func @gradients
// CHECK-NEXT:    %ga, %gb, %gc = "stablehlo.all_reduce"(%a, %b, %c) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT:    ^{{.*}}(%l: tensor<f32>, %r: tensor<f32>):
// CHECK-NEXT:      %{{.*}} = stablehlo.add %l, %r : tensor<f32>
// CHECK-NEXT:      stablehlo.return
// CHECK-NEXT:    }) : (tensor<4x8xf32>, tensor<8xf32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<f32>)
// CHECK-NEXT:    %twice = stablehlo.add %gb, %gb : tensor<8xf32>
// CHECK-NEXT:    func.return %ga, %twice, %gc
func.func @gradients(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<f32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<f32>) {
  %ga = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %t = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %gb = "stablehlo.all_reduce"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %t = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  %twice = stablehlo.add %gb, %gb : tensor<8xf32>
  %gc = "stablehlo.all_reduce"(%c) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %t = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  func.return %ga, %twice, %gc : tensor<4x8xf32>, tensor<8xf32>, tensor<f32>
}

// -----

// The second sums what the first returned (through a pure op): not combined.
// CHECK-LABEL: func.func @dependent
// CHECK:         %s = "stablehlo.all_reduce"(%x)
// CHECK:         %d = stablehlo.multiply %s, %s
// CHECK-NEXT:    %t = "stablehlo.all_reduce"(%d)
func.func @dependent(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %a = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %a : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %d = stablehlo.multiply %s, %s : tensor<4xf32>
  %t = "stablehlo.all_reduce"(%d) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %a = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %a : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %t : tensor<4xf32>
}

// -----

// Different groups, a different reduction, a different element type, a
// different grouping mode (a channel id > 0): five ops, none combined.
// CHECK-LABEL: func.func @different
// CHECK-COUNT-5: "stablehlo.all_reduce"(%{{[a-z]+}})
// CHECK-NOT:     "stablehlo.all_reduce"
func.func @different(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>) {
  %a = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %b = "stablehlo.all_reduce"(%y) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %c = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.maximum %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %d = "stablehlo.all_reduce"(%i) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = stablehlo.maximum %l, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  %e = "stablehlo.all_reduce"(%i) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = stablehlo.maximum %l, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  func.return %a, %b, %c, %d, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// An op with effects between them (another collective, which reads
// neither): the all_reduces stay on their sides of it. Inside a while body
// they combine as anywhere else.
// CHECK-LABEL: func.func @effects_between
// CHECK:         "stablehlo.all_reduce"(%x)
// CHECK-NEXT:    ^
// CHECK:         "stablehlo.all_gather"(%y)
// CHECK-NEXT:    "stablehlo.all_reduce"(%y)
// CHECK:         stablehlo.while
// CHECK:         %su, %sv = "stablehlo.all_reduce"(%u, %v)
// CHECK:         }) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
func.func @effects_between(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %g = "stablehlo.all_gather"(%y) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<8xf32>
  %b = "stablehlo.all_reduce"(%y) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %n = stablehlo.constant dense<0> : tensor<i32>
  %w:3 = stablehlo.while(%i = %n, %u = %x, %v = %y) : tensor<i32>, tensor<4xf32>, tensor<4xf32>
    cond {
    %k = stablehlo.constant dense<2> : tensor<i32>
    %c = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %su = "stablehlo.all_reduce"(%u) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %sv = "stablehlo.all_reduce"(%v) ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %j, %su, %sv : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %a, %g, %w#1, %w#2 : tensor<4xf32>, tensor<8xf32>, tensor<4xf32>, tensor<4xf32>
}
