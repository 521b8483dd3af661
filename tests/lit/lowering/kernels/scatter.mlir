// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// Rows scattered with add: the operand is copied into the result, then a
// loop.for walks the scatter indices in order (updates may collide) around a
// loop.parallel over the row (one index's window never collides with
// itself). A row outside the operand is skipped: its start is clamped and
// the old value stored back.

// CHECK-LABEL: loop.kernel @scatter_1(
// CHECK-SAME: %[[X:.*]]: memref<6x4xf32>, %[[I:.*]]: memref<5x1xi32>, %[[U:.*]]: memref<5x4xf32>, %[[OUT:.*]]: memref<6x4xf32>)
// CHECK-NEXT:  loop.parallel (%[[A:.*]], %[[B:.*]]) = (0, 0) to (6, 4) step (1, 1) {
// CHECK-NEXT:    %[[C:.*]] = loop.load %[[X]][%[[A]], %[[B]]] : memref<6x4xf32>
// CHECK-NEXT:    loop.store %[[C]], %[[OUT]][%[[A]], %[[B]]] : memref<6x4xf32>
// CHECK-NEXT:  }
// CHECK:       loop.for %[[N:.*]] = 0 to 5 step 1 {
// CHECK-NEXT:    %[[RAW:.*]] = loop.load %[[I]][%[[N]], %{{.*}}] : memref<5x1xi32>
// CHECK-NEXT:    %[[START:.*]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK-NEXT:    %[[LOW:.*]] = arith.cmpi sge, %[[START]], %{{.*}} : index
// CHECK-NEXT:    %[[HIGH:.*]] = arith.cmpi sle, %[[START]], %{{.*}} : index
// CHECK-NEXT:    %[[INSIDE:.*]] = arith.andi %[[LOW]], %[[HIGH]] : i1
// CHECK-NEXT:    %[[M:.*]] = arith.maxsi %[[START]], %{{.*}} : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.minsi %[[M]], %{{.*}} : index
// CHECK-NEXT:    loop.parallel (%[[J:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:      %[[OLD:.*]] = loop.load %[[OUT]][%[[ROW]], %[[J]]] : memref<6x4xf32>
// CHECK-NEXT:      %[[NEW:.*]] = loop.load %[[U]][%[[N]], %[[J]]] : memref<5x4xf32>
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[OLD]], %[[NEW]] : f32
// CHECK-NEXT:      %[[V:.*]] = arith.select %[[INSIDE]], %[[SUM]], %[[OLD]] : f32
// CHECK-NEXT:      loop.store %[[V]], %[[OUT]][%[[ROW]], %[[J]]] : memref<6x4xf32>
func.func @main(%x: tensor<6x4xf32>, %i: tensor<5x1xi32>, %u: tensor<5x4xf32>) -> tensor<6x4xf32> {
  %r = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

// The plan puts the result in the buffer of the fusion that computes the
// operand: no copy, the walk starts at once, and the kernel takes that
// buffer once, as both operand and result.

// CHECK-LABEL: loop.kernel @scatter_1(
// CHECK-SAME:  %[[X:.*]]: memref<6x4xf32>, %{{.*}}: memref<3x1xi32>, %{{.*}}: memref<3x4xf32>) {
// CHECK-NOT:   loop.parallel
// CHECK:       loop.for
// CHECK:       loop.store %{{.*}}, %[[X]][%{{.*}}, %{{.*}}] : memref<6x4xf32>
// CHECK-LABEL: func.func @main(
// CHECK:       %[[BUF:.*]] = device.alloc : memref<6x4xf32>
// CHECK:       device.launch @fusion_1(%{{.*}}, %[[BUF]]) on
// CHECK-NEXT:  device.launch @scatter_1(%[[BUF]], %{{[^,]*}}, %{{[^,]*}}) on
func.func @main(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) -> tensor<6x4xf32> {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<6x4xf32>) -> tensor<6x4xf32> {
  ^bb0(%1: tensor<6x4xf32>):
    %e = stablehlo.exponential %1 : tensor<6x4xf32>
    hlo.yield %e : tensor<6x4xf32>
  }
  %r = "stablehlo.scatter"(%0, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return %r : tensor<6x4xf32>
}

// -----

// Unsigned indices are zero-extended; the batching dim takes its index from
// the walk and needs no bounds test; a replacing update computation is the
// select alone. The update's window dim comes first, so the walk is
// sequential over both dims (row-major order over the updates).

// CHECK-LABEL: loop.kernel @scatter_1(
// CHECK-SAME: %{{.*}}: memref<2x3x8xf32>, %[[I:.*]]: memref<2x2x1xi8>, %[[U:.*]]: memref<2x2x2xf32>, %[[OUT:.*]]: memref<2x3x8xf32>)
// CHECK:       loop.for %[[W:.*]] = 0 to 2 step 1 {
// CHECK-NEXT:    loop.for %[[B:.*]] = 0 to 2 step 1 {
// CHECK-NEXT:      loop.for %[[S:.*]] = 0 to 2 step 1 {
// CHECK-NEXT:        %[[RAW:.*]] = loop.load %[[I]][%[[B]], %[[S]], %{{.*}}] : memref<2x2x1xi8>
// CHECK-NEXT:        %[[WIDE:.*]] = arith.extui %[[RAW]] : i8 to i64
// CHECK-NEXT:        %[[START:.*]] = arith.index_cast %[[WIDE]] : i64 to index
// CHECK-NEXT:        arith.cmpi sge, %[[START]]
// CHECK-NEXT:        arith.cmpi sle, %[[START]]
// CHECK-NOT:         arith.cmpi
// CHECK:             %[[AT:.*]] = arith.addi %{{.*}}, %[[W]] : index
// CHECK-NEXT:        %[[OLD:.*]] = loop.load %[[OUT]][%[[B]], %{{.*}}, %[[AT]]] : memref<2x3x8xf32>
// CHECK-NEXT:        %[[NEW:.*]] = loop.load %[[U]][%[[W]], %[[B]], %[[S]]] : memref<2x2x2xf32>
// CHECK-NEXT:        %[[V:.*]] = arith.select %{{.*}}, %[[NEW]], %[[OLD]] : f32
// CHECK-NEXT:        loop.store %[[V]], %[[OUT]][%[[B]], %{{.*}}, %[[AT]]] : memref<2x3x8xf32>
func.func @main(%x: tensor<2x3x8xf32>, %i: tensor<2x2x1xui8>, %u: tensor<2x2x2xf32>) -> tensor<2x3x8xf32> {
  %r = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [2], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<2x3x8xf32>, tensor<2x2x1xui8>, tensor<2x2x2xf32>) -> tensor<2x3x8xf32>
  return %r : tensor<2x3x8xf32>
}
