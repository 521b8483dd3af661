// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | filecheck %s
// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop,loop-to-llvm,device-to-llvm | filecheck %s --check-prefix=LLVM
// RUN: xlir-run %s --target cpu --inputs %S/Inputs/collectives.npz | filecheck %s --check-prefix=VALUES
// RUN: xlir-run %s --target interpreter --inputs %S/Inputs/collectives.npz | filecheck %s --check-prefix=VALUES
// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | xlir-run - --target interpreter --inputs %S/Inputs/collectives.npz | filecheck %s --check-prefix=LOOP-LEVEL

// A collective and partition_id are no kernel: each is a `device.collective`
// step of the host schedule on its planned buffers (the all_reduce reads the
// product's temp and writes its own buffer), the op kept in the step's region.
// The fusions around it stay as they are. On a grid of one device the cpu
// runs it through a communicator of one: the sum is the operand itself.

module @one_device attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<ui32>) {
    %id = stablehlo.partition_id : tensor<ui32>
    %y = stablehlo.multiply %x, %x : tensor<4xf32>
    %s = "stablehlo.all_reduce"(%y) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    %z = stablehlo.add %s, %x : tensor<4xf32>
    func.return %z, %id : tensor<4xf32>, tensor<ui32>
  }
}

// CHECK-LABEL: func.func @main(%0: memref<4xf32>) -> (memref<4xf32>, memref<i32>) {
// CHECK:         %[[OUT:.*]] = device.alloc : memref<4xf32>
// CHECK-NEXT:    %[[ID:.*]] = device.alloc : memref<i32>
// CHECK-NEXT:    %[[TEMP:.*]] = loop.view
// CHECK-NEXT:    device.collective(%[[ID]]) on %{{.*}} : memref<i32> {
// CHECK-NEXT:      %{{.*}} = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT:      stablehlo.return
// CHECK-NEXT:    }
// CHECK-NEXT:    device.launch @fusion_1(%0, %[[TEMP]])
// CHECK-NEXT:    device.collective(%[[TEMP]], %[[OUT]]) on %{{.*}} : memref<4xf32>, memref<4xf32> {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[SUM:.*]] = "stablehlo.all_reduce"(%[[IN]])
// CHECK:           stablehlo.return %[[SUM]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    device.launch @fusion_2(%[[OUT]], %0)

// Each step is a call of the runtime's `xlir.collective` with its site and
// its buffers; the module records what each site exchanges.

// LLVM:      xlir.collective_sites = ["builtin.module {\0A  func.func @exchange() -> tensor<ui32> {\0A    %{{.*}} = stablehlo.partition_id
// LLVM-SAME: func.func @exchange(%0: tensor<4xf32>) -> tensor<4xf32> {\0A    %{{.*}} = \22stablehlo.all_reduce\22(%0)
// LLVM:      llvm.func @xlir.collective(i64, !llvm.ptr) -> i32
// LLVM-COUNT-2: llvm.call @xlir.collective(

// VALUES:    out0: tensor<4xf32> = [ 2.  6. 12.  0.]
// VALUES-NEXT: out1: tensor<ui32> = 0

// The loop-level module runs the steps through the device-schedule executor.
// LOOP-LEVEL:      out0: tensor<4xf32> = [ 2.  6. 12.  0.]
// LOOP-LEVEL-NEXT: out1: tensor<i32> = 0
