// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | filecheck %s
// RUN: xlir-run %s --target cpu | filecheck %s --check-prefix=VALUES
// RUN: xlir-run %s --target interpreter | filecheck %s --check-prefix=VALUES
// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | xlir-run - --target interpreter | filecheck %s --check-prefix=VALUES

// hlo-opt combines the independent all_reduces of a step (combine-all-reduces)
// into one variadic op: one `device.collective` step on all their buffers, so
// the runtime synchronises the group once for them (one packed exchange on
// MPI). On a grid of one device each sum is its operand.

module @gradients attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main() -> (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) {
    %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %b = stablehlo.constant dense<[7.0, 8.0, 9.0]> : tensor<3xf32>
    %c = stablehlo.constant dense<10.0> : tensor<f32>
    %ga = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %t = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %gb = "stablehlo.all_reduce"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %t = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<3xf32>) -> tensor<3xf32>
    %twice = stablehlo.add %gb, %gb : tensor<3xf32>
    %gc = "stablehlo.all_reduce"(%c) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>, use_global_device_ids}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %t = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    func.return %ga, %twice, %gc : tensor<2x3xf32>, tensor<3xf32>, tensor<f32>
  }
}

// CHECK-LABEL: func.func @main
// CHECK:         device.collective(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) on %{{.*}} : memref<2x3xf32>, memref<3xf32>, memref<f32>, memref<2x3xf32>, memref<3xf32>, memref<f32> {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<3xf32>, %{{.*}}: tensor<f32>):
// CHECK-NEXT:      %ga, %gb, %gc = "stablehlo.all_reduce"
// CHECK-NOT:     device.collective

// VALUES:      out0: tensor<2x3xf32> = {{\[\[}}1. 2. 3.] [4. 5. 6.]]
// VALUES-NEXT: out1: tensor<3xf32> = [14. 16. 18.]
// VALUES-NEXT: out2: tensor<f32> = 10.
