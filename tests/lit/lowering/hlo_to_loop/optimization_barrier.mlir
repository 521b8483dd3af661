// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | filecheck %s
// RUN: xlir-run %s --target cpu --function barrier --random | filecheck %s --check-prefix=CPU
// RUN: xlir-run %s --target interpreter --function barrier --random | filecheck %s --check-prefix=CPU

// The barrier keeps the add and the multiply in two kernels (fuse does not
// cross it); then its results are its operands' buffers (the plan shares
// them here, so no copy is left) and it launches nothing.

// CHECK-LABEL: func.func @barrier(%0: memref<4xf32>, %1: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
// CHECK:         device.launch @fusion_1(%0, %1, %[[SUM:.*]]) on
// CHECK-NEXT:    device.launch @fusion_2(%[[SUM]], %0, %[[PRODUCT:.*]]) on
// CHECK-NEXT:    device.synchronize
// CHECK-NEXT:    func.return %[[PRODUCT]], %[[SUM]]
// CHECK-NOT:   optimization_barrier

// CPU: out0: tensor<4xf32> = [-0.051542 -0.030317  1.245252  0.110353]
// CPU: out1: tensor<4xf32> = [-0.409939  0.22949   1.944423  1.051981]
func.func @barrier(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = stablehlo.add %x, %y : tensor<4xf32>
  %b, %c = stablehlo.optimization_barrier %a, %x : tensor<4xf32>, tensor<4xf32>
  %d = stablehlo.multiply %b, %c : tensor<4xf32>
  func.return %d, %b : tensor<4xf32>, tensor<4xf32>
}
