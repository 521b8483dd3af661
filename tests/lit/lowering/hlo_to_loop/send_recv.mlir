// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | filecheck %s
// RUN: xlir-run %s --target cpu | filecheck %s --check-prefix=VALUES
// RUN: xlir-run %s --target interpreter | filecheck %s --check-prefix=VALUES
// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | xlir-run - --target interpreter | filecheck %s --check-prefix=VALUES

// send and recv are collective steps of the host schedule, like the
// collectives: their tokens order them and hold nothing (an empty buffer,
// after_all none of its own). On one device a recv gets what the device
// sent on the channel, oldest first (across processes: tests/e2e/
// test_mpi_sharded.py).

module @channels attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main() -> (tensor<3xf32>, tensor<3xf32>) {
    %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %t = stablehlo.after_all : !stablehlo.token
    %s1 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
    %y = stablehlo.multiply %x, %x : tensor<3xf32>
    %s2 = "stablehlo.send"(%y, %s1) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
    %a:2 = "stablehlo.recv"(%s2) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)
    %b:2 = "stablehlo.recv"(%a#1) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)
    func.return %a#0, %b#0 : tensor<3xf32>, tensor<3xf32>
  }
}

// CHECK-LABEL: func.func @main
// CHECK:         %[[TOKEN:.*]] = loop.view %{{.*}}[0] : memref<0xi8> -> memref<0xi8>
// CHECK:         device.collective(%{{.*}}, %[[TOKEN]], %[[TOKEN]]) on %{{.*}} : memref<3xf32>, memref<0xi8>, memref<0xi8> {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<3xf32>, %{{.*}}: !stablehlo.token):
// CHECK-NEXT:      "stablehlo.send"
// CHECK:         loop.get_global
// CHECK:         device.collective(%{{.*}}, %[[TOKEN]], %[[TOKEN]]) on %{{.*}} : memref<3xf32>, memref<0xi8>, memref<0xi8> {
// CHECK:         device.collective(%[[TOKEN]], %{{.*}}, %[[TOKEN]]) on %{{.*}} : memref<0xi8>, memref<3xf32>, memref<0xi8> {
// CHECK-NEXT:    ^bb0(%{{.*}}: !stablehlo.token):
// CHECK-NEXT:      "stablehlo.recv"
// CHECK:         device.collective(%[[TOKEN]], %{{.*}}, %[[TOKEN]]) on %{{.*}} : memref<0xi8>, memref<3xf32>, memref<0xi8> {

// VALUES:      out0: tensor<3xf32> = [1. 2. 3.]
// VALUES-NEXT: out1: tensor<3xf32> = [1. 4. 9.]
