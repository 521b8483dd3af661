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

// -----

// In place in a while loop (a scan writing row i of its carried buffer): the
// body's argument is in the loop's buffer, where the plan puts the update
// too, so the kernel stores the row only, not the whole buffer onto itself
// on every trip.
// CHECK-LABEL: loop.kernel @fusion_2(
// CHECK-SAME:  %[[X:[^:]*]]: memref<8xf32>, %[[BUF:[^:]*]]: memref<16x8xf32>, %{{[^:]*}}: memref<i32>, %{{[^:]*}}: memref<i32>)
// CHECK-NOT:     loop.load %[[BUF]]
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (1, 8) step (1, 1) {
// CHECK-NOT:     loop.load %[[BUF]]
// CHECK:         loop.return
func.func @in_place_in_loop(%buf: tensor<16x8xf32>, %x: tensor<8xf32>) -> tensor<16x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<16> : tensor<i32>
  %r, %r_1 = stablehlo.while(%i = %c0, %b = %buf) : tensor<i32>, tensor<16x8xf32>
  cond {
    %0 = hlo.fusion kind = loop (%i, %n) {name = "fusion.1"} : (tensor<i32>, tensor<i32>) -> tensor<i1> {
    ^bb0(%1: tensor<i32>, %2: tensor<i32>):
      %p = stablehlo.compare LT, %1, %2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      hlo.yield %p : tensor<i1>
    }
    stablehlo.return %0 : tensor<i1>
  } do {
    %1 = hlo.fusion kind = loop (%x, %b, %i, %c0) {name = "fusion.2"} : (tensor<8xf32>, tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32> {
    ^bb0(%2: tensor<8xf32>, %3: tensor<16x8xf32>, %4: tensor<i32>, %5: tensor<i32>):
      %row = stablehlo.reshape %2 : (tensor<8xf32>) -> tensor<1x8xf32>
      %u = stablehlo.dynamic_update_slice %3, %row, %4, %5 : (tensor<16x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
      hlo.yield %u : tensor<16x8xf32>
    }
    %2 = hlo.fusion kind = loop (%i, %c1) {name = "fusion.3"} : (tensor<i32>, tensor<i32>) -> tensor<i32> {
    ^bb0(%3: tensor<i32>, %4: tensor<i32>):
      %j = stablehlo.add %3, %4 : tensor<i32>
      hlo.yield %j : tensor<i32>
    }
    stablehlo.return %2, %1 : tensor<i32>, tensor<16x8xf32>
  }
  func.return %r_1 : tensor<16x8xf32>
}
