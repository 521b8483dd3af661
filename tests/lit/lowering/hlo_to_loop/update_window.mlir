// RUN: xlir-opt %s --split-input-file -p assign-buffers,hlo-to-loop | filecheck %s

// A fusion yielding a dynamic_update_slice stores the update over its window
// only. In place (the plan gives the result the operand's buffer, which the
// kernel then takes once) nothing else is written: no copy, no select.
// CHECK-LABEL: loop.kernel @fusion_2(
// CHECK-SAME:  %[[BUF:[^:]*]]: memref<8xf32>, %[[U:[^:]*]]: memref<3xf32>, %[[S:[^:]*]]: memref<i32>)
// CHECK-NEXT:    %[[START:.*]] = loop.load %[[S]][] : memref<i32>
// CHECK:         %[[LO:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    loop.parallel (%[[I:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[LO]], %[[I]] : index
// CHECK-NEXT:      %[[V:.*]] = loop.load %[[U]][%[[I]]] : memref<3xf32>
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[V]] : f32
// CHECK-NEXT:      loop.store %[[N]], %[[BUF]][%[[AT]]] : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
func.func @in_place(%x: tensor<8xf32>, %u: tensor<3xf32>, %s: tensor<i32>) -> tensor<8xf32> {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>):
    %e = stablehlo.exponential %a : tensor<8xf32>
    hlo.yield %e : tensor<8xf32>
  }
  %1 = hlo.fusion kind = loop (%0, %u, %s) {name = "fusion.2"} : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>, %b: tensor<3xf32>, %c: tensor<i32>):
    %n = stablehlo.negate %b : tensor<3xf32>
    %r = stablehlo.dynamic_update_slice %a, %n, %c : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32>
    hlo.yield %r : tensor<8xf32>
  }
  func.return %1 : tensor<8xf32>
}

// -----

// Out of place, with the operand computed in the fusion: one nest stores the
// operand's elements (exponentials) into the result, a second one the update
// over the window; the window's elements are written twice, in that order.
// CHECK-LABEL: loop.kernel @fusion_1(
// CHECK-SAME:  %[[X:[^:]*]]: memref<8xf32>, %[[U:[^:]*]]: memref<3xf32>, %[[S:[^:]*]]: memref<i32>, %[[OUT:[^:]*]]: memref<8xf32>)
// CHECK-NEXT:    loop.parallel (%[[I:.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:      %[[A:.*]] = loop.load %[[X]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[A]] : f32
// CHECK-NEXT:      loop.store %[[E]], %[[OUT]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:    }
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK-NEXT:      %[[V:.*]] = loop.load %[[U]][%[[J]]] : memref<3xf32>
// CHECK-NEXT:      loop.store %[[V]], %[[OUT]][%[[AT]]] : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     arith.select
func.func @computed_operand(%x: tensor<8xf32>, %u: tensor<3xf32>, %s: tensor<i32>) -> tensor<8xf32> {
  %0 = hlo.fusion kind = loop (%x, %u, %s) {name = "fusion.1"} : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>, %b: tensor<3xf32>, %c: tensor<i32>):
    %e = stablehlo.exponential %a : tensor<8xf32>
    %r = stablehlo.dynamic_update_slice %e, %b, %c : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32>
    hlo.yield %r : tensor<8xf32>
  }
  func.return %0 : tensor<8xf32>
}
