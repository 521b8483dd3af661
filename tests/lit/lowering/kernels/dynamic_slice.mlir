// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// An unfused dynamic_slice: each start is loaded and clamped so the window
// stays inside the operand ([0, 6 - 2] and [0, 8 - 3]) once, at the kernel's
// top, since it does not depend on the output index; then one parallel nest
// over the output loads at start + index. No loop.for, no temp buffer.

// CHECK-LABEL: loop.kernel @dynamic_slice_1(
// CHECK-SAME: %[[X:.*]]: memref<6x8xf32>, %[[S:.*]]: memref<i32>, %[[T:.*]]: memref<i32>, %[[OUT:.*]]: memref<2x3xf32>)
// CHECK-DAG:   %[[SV:.*]] = loop.load %[[S]][] : memref<i32>
// CHECK-DAG:   %[[TV:.*]] = loop.load %[[T]][] : memref<i32>
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:   %[[SI:.*]] = arith.index_cast %[[SV]] : i32 to index
// CHECK-DAG:   %[[SLO:.*]] = arith.maxsi %[[SI]], %[[C0]] : index
// CHECK-DAG:   %[[ROW:.*]] = arith.minsi %[[SLO]], %[[C4]] : index
// CHECK-DAG:   %[[TI:.*]] = arith.index_cast %[[TV]] : i32 to index
// CHECK-DAG:   %[[TLO:.*]] = arith.maxsi %[[TI]], %[[C0]] : index
// CHECK-DAG:   %[[COL:.*]] = arith.minsi %[[TLO]], %[[C5]] : index
// CHECK:       loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 3) step (1, 1) {
// CHECK-NEXT:    %[[R:.*]] = arith.addi %[[ROW]], %[[I]] : index
// CHECK-NEXT:    %[[C:.*]] = arith.addi %[[COL]], %[[J]] : index
// CHECK-NEXT:    %[[V:.*]] = loop.load %[[X]][%[[R]], %[[C]]] : memref<6x8xf32>
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  loop.return
// CHECK-LABEL: func.func @main(
// CHECK-NOT:   xi8>
// CHECK-NOT:   loop.view
// CHECK:       device.launch @dynamic_slice_1(
func.func @main(%x: tensor<6x8xf32>, %s: tensor<i32>, %t: tensor<i32>) -> tensor<2x3xf32> {
  %r = stablehlo.dynamic_slice %x, %s, %t, sizes = [2, 3] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// 64-bit start indices are cast from i64 and clamped to [0, 8 - 3] like
// any other.

// CHECK-LABEL: loop.kernel @dynamic_slice_1(
// CHECK-SAME: %[[X:.*]]: memref<8xi8>, %[[S:.*]]: memref<i64>, %[[OUT:.*]]: memref<3xi8>)
// CHECK-DAG:   %[[SV:.*]] = loop.load %[[S]][] : memref<i64>
// CHECK-DAG:   %[[SI:.*]] = arith.index_cast %[[SV]] : i64 to index
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:   %[[LO:.*]] = arith.maxsi %[[SI]], %[[C0]] : index
// CHECK-DAG:   %[[START:.*]] = arith.minsi %[[LO]], %[[C5]] : index
// CHECK:       loop.parallel (%[[I:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:    %[[P:.*]] = arith.addi %[[START]], %[[I]] : index
// CHECK-NEXT:    %[[V:.*]] = loop.load %[[X]][%[[P]]] : memref<8xi8>
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%[[I]]] : memref<3xi8>
// CHECK-NEXT:  }
func.func @main(%x: tensor<8xi8>, %s: tensor<i64>) -> tensor<3xi8> {
  %r = stablehlo.dynamic_slice %x, %s, sizes = [3] : (tensor<8xi8>, tensor<i64>) -> tensor<3xi8>
  return %r : tensor<3xi8>
}

// -----

// A ui64 start past the largest i64 is past every bound, not negative: it
// saturates to that (unsigned min) before the cast, then clamps to 8 - 3.

// CHECK-LABEL: loop.kernel @dynamic_slice_1(
// CHECK:       %[[SV:.*]] = loop.load %{{.*}}[] : memref<i64>
// CHECK-NEXT:  %[[TOP:.*]] = arith.constant 9223372036854775807 : i64
// CHECK-NEXT:  %[[SAT:.*]] = arith.minui %[[SV]], %[[TOP]] : i64
// CHECK-NEXT:  %[[SI:.*]] = arith.index_cast %[[SAT]] : i64 to index
// CHECK:       %[[LO:.*]] = arith.maxsi %[[SI]], %{{.*}} : index
// CHECK-NEXT:  arith.minsi %[[LO]], %{{.*}} : index
func.func @main(%x: tensor<8xf32>, %s: tensor<ui64>) -> tensor<3xf32> {
  %r = stablehlo.dynamic_slice %x, %s, sizes = [3] : (tensor<8xf32>, tensor<ui64>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
