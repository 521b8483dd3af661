// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// The plan puts the update's result in its operand's buffer (output 0): the
// kernel takes that buffer once and writes only the update window, at the
// clamped starts.

// CHECK-LABEL: loop.kernel @dynamic_update_slice_1(
// CHECK-SAME: %[[OUT:.*]]: memref<6x8xf32>, %[[U:.*]]: memref<2x3xf32>, %[[S:.*]]: memref<i32>, %[[T:.*]]: memref<i32>)
// CHECK-DAG:   %[[S0:.*]] = loop.load %[[S]][] : memref<i32>
// CHECK-DAG:   %[[SI:.*]] = arith.index_cast %[[S0]] : i32 to index
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[LO:.*]] = arith.maxsi %[[SI]], %{{.*}} : index
// CHECK-DAG:   %[[ROW:.*]] = arith.minsi %[[LO]], %[[C4]] : index
// CHECK:       loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 3) step (1, 1) {
// CHECK-NEXT:    %[[R:.*]] = arith.addi %[[ROW]], %[[I]] : index
// CHECK-NEXT:    %[[C:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK-NEXT:    %[[V:.*]] = loop.load %[[U]][%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%[[R]], %[[C]]] : memref<6x8xf32>
// CHECK-NEXT:  }
// CHECK:       device.launch @dynamic_update_slice_1(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) on %{{.*}} : memref<6x8xf32>, memref<2x3xf32>, memref<i32>, memref<i32>
func.func @donated(%x: tensor<6x8xf32>, %u: tensor<2x3xf32>, %s: tensor<i32>, %t: tensor<i32>) -> tensor<6x8xf32> {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.2"} : (tensor<6x8xf32>) -> tensor<6x8xf32> {
  ^bb0(%1: tensor<6x8xf32>):
    %e = stablehlo.exponential %1 : tensor<6x8xf32>
    hlo.yield %e : tensor<6x8xf32>
  }
  %r = stablehlo.dynamic_update_slice %0, %u, %s, %t : (tensor<6x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x8xf32>
  func.return %r : tensor<6x8xf32>
}

// -----

// Out of place (the operand is a parameter, read only): the operand copied
// into the result, then the update stored over its window, as in place.

// CHECK-LABEL: loop.kernel @dynamic_update_slice_1(
// CHECK-SAME: %[[X:[^:]*]]: memref<6x8xf32>, %[[U:[^:]*]]: memref<2x3xf32>, %{{[^:]*}}: memref<i32>, %{{[^:]*}}: memref<i32>, %[[OUT:[^:]*]]: memref<6x8xf32>)
// CHECK-NEXT:  loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (6, 8) step (1, 1) {
// CHECK-NEXT:    %[[W:.*]] = loop.load %[[X]][%[[I]], %[[J]]] : memref<6x8xf32>
// CHECK-NEXT:    loop.store %[[W]], %[[OUT]][%[[I]], %[[J]]] : memref<6x8xf32>
// CHECK-NEXT:  }
// CHECK:       loop.parallel (%[[K:.*]], %[[L:.*]]) = (0, 0) to (2, 3) step (1, 1) {
// CHECK:         %[[V:.*]] = loop.load %[[U]][%[[K]], %[[L]]] : memref<2x3xf32>
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%{{.*}}, %{{.*}}] : memref<6x8xf32>
// CHECK-NOT:   arith.select
func.func @main(%x: tensor<6x8xf32>, %u: tensor<2x3xf32>, %s: tensor<i32>, %t: tensor<i32>) -> tensor<6x8xf32> {
  %r = stablehlo.dynamic_update_slice %x, %u, %s, %t : (tensor<6x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
