// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// An unfused gather of rows (embedding lookup): one parallel nest over the
// output, no loop.for. Each iteration loads its start index, clamps it so
// the slice stays inside the operand ([0, 10 - 1]) and loads the element at
// start + offset. Nothing else is allocated: no temp buffer.

// CHECK-LABEL: loop.kernel @gather_1(
// CHECK-SAME: %[[X:.*]]: memref<10x6xf32>, %[[IDX:.*]]: memref<5x1xi32>, %[[OUT:.*]]: memref<5x6xf32>)
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C9:.*]] = arith.constant 9 : index
// CHECK:       loop.parallel (%[[B:.*]], %[[O:.*]]) = (0, 0) to (5, 6) step (1, 1) {
// CHECK-NEXT:    %[[S:.*]] = loop.load %[[IDX]][%[[B]], %[[C0]]] : memref<5x1xi32>
// CHECK-NEXT:    %[[SI:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK-NEXT:    %[[LO:.*]] = arith.maxsi %[[SI]], %[[C0]] : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.minsi %[[LO]], %[[C9]] : index
// CHECK-NEXT:    %[[V:.*]] = loop.load %[[X]][%[[ROW]], %[[O]]] : memref<10x6xf32>
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%[[B]], %[[O]]] : memref<5x6xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  loop.return
// CHECK-LABEL: func.func @main(
// CHECK-NOT:   xi8>
// CHECK-NOT:   loop.view
// CHECK:       device.launch @gather_1(
func.func @main(%x: tensor<10x6xf32>, %i: tensor<5x1xi32>) -> tensor<5x6xf32> {
  %r = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return %r : tensor<5x6xf32>
}

// -----

// Point gather: both operand dims collapsed, each start read from its own
// component of the index vector and clamped to its own dim.

// CHECK-LABEL: loop.kernel @gather_1(
// CHECK-SAME: %[[X:.*]]: memref<10x6xf32>, %[[IDX:.*]]: memref<5x2xi32>, %[[OUT:.*]]: memref<5xf32>)
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:   %[[C9:.*]] = arith.constant 9 : index
// CHECK:       loop.parallel (%[[B:.*]]) = (0) to (5) step (1) {
// CHECK-NEXT:    %[[S0:.*]] = loop.load %[[IDX]][%[[B]], %[[C0]]] : memref<5x2xi32>
// CHECK-NEXT:    %[[I0:.*]] = arith.index_cast %[[S0]] : i32 to index
// CHECK-NEXT:    %[[L0:.*]] = arith.maxsi %[[I0]], %[[C0]] : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.minsi %[[L0]], %[[C9]] : index
// CHECK-NEXT:    %[[S1:.*]] = loop.load %[[IDX]][%[[B]], %[[C1]]] : memref<5x2xi32>
// CHECK-NEXT:    %[[I1:.*]] = arith.index_cast %[[S1]] : i32 to index
// CHECK-NEXT:    %[[L1:.*]] = arith.maxsi %[[I1]], %[[C0]] : index
// CHECK-NEXT:    %[[COL:.*]] = arith.minsi %[[L1]], %[[C5]] : index
// CHECK-NEXT:    %[[V:.*]] = loop.load %[[X]][%[[ROW]], %[[COL]]] : memref<10x6xf32>
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%[[B]]] : memref<5xf32>
// CHECK-NEXT:  }
func.func @main(%x: tensor<10x6xf32>, %i: tensor<5x2xi32>) -> tensor<5xf32> {
  %r = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<10x6xf32>, tensor<5x2xi32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

// Scalar start indices (index_vector_dim = rank) into dim 1 only: a 2x3
// window per index, dim 0 starting at 0; the start is clamped to
// [0, 6 - 3] and the offset added to it.

// CHECK-LABEL: loop.kernel @gather_1(
// CHECK-SAME: %[[X:.*]]: memref<10x6xf32>, %[[IDX:.*]]: memref<5xi32>, %[[OUT:.*]]: memref<5x2x3xf32>)
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
// CHECK:       loop.parallel (%[[B:.*]], %[[R:.*]], %[[C:.*]]) = (0, 0, 0) to (5, 2, 3) step (1, 1, 1) {
// CHECK-NEXT:    %[[S:.*]] = loop.load %[[IDX]][%[[B]]] : memref<5xi32>
// CHECK-NEXT:    %[[SI:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK-NEXT:    %[[LO:.*]] = arith.maxsi %[[SI]], %[[C0]] : index
// CHECK-NEXT:    %[[START:.*]] = arith.minsi %[[LO]], %[[C3]] : index
// CHECK-NEXT:    %[[COL:.*]] = arith.addi %[[START]], %[[C]] : index
// CHECK-NEXT:    %[[V:.*]] = loop.load %[[X]][%[[R]], %[[COL]]] : memref<10x6xf32>
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%[[B]], %[[R]], %[[C]]] : memref<5x2x3xf32>
// CHECK-NEXT:  }
func.func @main(%x: tensor<10x6xf32>, %i: tensor<5xi32>) -> tensor<5x2x3xf32> {
  %r = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 3>}> : (tensor<10x6xf32>, tensor<5xi32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

// -----

// Batching dims: operand dim 0 is indexed by the batch of the start index
// (the output's dim 0), not by a start index.

// CHECK-LABEL: loop.kernel @gather_1(
// CHECK-SAME: %[[X:.*]]: memref<3x10x6xf32>, %[[IDX:.*]]: memref<3x4x1xi32>, %[[OUT:.*]]: memref<3x4x6xf32>)
// CHECK:       loop.parallel (%[[N:.*]], %[[B:.*]], %[[O:.*]]) = (0, 0, 0) to (3, 4, 6) step (1, 1, 1) {
// CHECK-NEXT:    %[[S:.*]] = loop.load %[[IDX]][%[[N]], %[[B]], %{{.*}}] : memref<3x4x1xi32>
// CHECK-NEXT:    %[[SI:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK-NEXT:    %[[LO:.*]] = arith.maxsi %[[SI]], %{{.*}} : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.minsi %[[LO]], %{{.*}} : index
// CHECK-NEXT:    %[[V:.*]] = loop.load %[[X]][%[[N]], %[[ROW]], %[[O]]] : memref<3x10x6xf32>
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%[[N]], %[[B]], %[[O]]] : memref<3x4x6xf32>
// CHECK-NEXT:  }
func.func @main(%x: tensor<3x10x6xf32>, %i: tensor<3x4x1xi32>) -> tensor<3x4x6xf32> {
  %r = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 6>}> : (tensor<3x10x6xf32>, tensor<3x4x1xi32>) -> tensor<3x4x6xf32>
  return %r : tensor<3x4x6xf32>
}
