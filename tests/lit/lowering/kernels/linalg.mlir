// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// A triangular solve is forward substitution in a loop.for over the
// unknowns, every right-hand side in parallel; the dot product with the
// unknowns already found runs over the triangle (an index bound).

// CHECK-LABEL: loop.kernel @triangular_solve_1(
// CHECK-SAME: %[[A:.*]]: memref<3x3xf32>, %[[B:.*]]: memref<3x2xf32>, %[[X:.*]]: memref<3x2xf32>)
// CHECK:       loop.parallel (%[[R:.*]]) = (0) to (2) step (1) {
// CHECK-NEXT:    loop.for %[[I:[^ ]*]] = 0 to 3 step 1 {
// CHECK-NEXT:      %[[KNOWN:.*]] = loop.for %[[K:[^ ]*]] = 0 to %[[I]] step 1 iter_args(%{{.*}}) -> (f32) {
// CHECK-NEXT:        loop.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT:        loop.load %[[X]][%[[K]], %[[R]]]
// CHECK:           %[[RHS:.*]] = loop.load %[[B]][%[[I]], %[[R]]]
// CHECK-NEXT:      %[[REST:.*]] = arith.subf %[[RHS]], %[[KNOWN]] : f32
// CHECK-NEXT:      %[[DIAG:.*]] = loop.load %[[A]][%[[I]], %[[I]]]
// CHECK-NEXT:      %[[XI:.*]] = arith.divf %[[REST]], %[[DIAG]] : f32
// CHECK-NEXT:      loop.store %[[XI]], %[[X]][%[[I]], %[[R]]]
func.func @main(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %x : tensor<3x2xf32>
}

// -----

// LU with partial pivoting over a batch of two (loop.parallel): per column,
// a search for the first largest magnitude below the diagonal (a strict
// ogt: ties and NaN keep the earlier row), its 1-based position stored as
// the pivot, a row swap, the column divided by the pivot (by 1 where it is
// zero) and the rank-1 update of the trailing matrix; `info` is carried
// through the columns and stored at the end.

// CHECK-LABEL: loop.kernel @custom_call_1(
// CHECK-SAME: %[[A:.*]]: memref<2x3x3xf32>, %[[LU:.*]]: memref<2x3x3xf32>, %[[PIV:.*]]: memref<2x3xi32>, %[[INFO:.*]]: memref<2xi32>)
// CHECK:       loop.parallel ({{.*}}) = (0, 0, 0) to (2, 3, 3)
// CHECK:       loop.parallel (%[[M:.*]]) = (0) to (2) step (1) {
// CHECK-NEXT:    %[[STATUS:.*]] = loop.for %[[J:[^ ]*]] = 0 to 3 step 1 iter_args(%{{.*}}) -> (i32) {
// CHECK:           loop.for %{{.*}} = %[[J1:.*]] to 3 step 1 iter_args(%{{.*}}, %{{.*}}) -> (f32, index) {
// CHECK:             arith.cmpf ogt
// CHECK:           arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:      loop.store %{{.*}}, %[[PIV]][%[[M]], %[[J]]]
// CHECK:           arith.cmpf oeq
// CHECK:           arith.divf
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.subf
// CHECK:         loop.store %[[STATUS]], %[[INFO]][%[[M]]] : memref<2xi32>
func.func @main(%a: tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xi32>, tensor<2xi32>) {
  %r:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n], [i]) {i=2, j=3, k=3, l=3, m=3, n=3}, custom>} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xi32>, tensor<2xi32>)
  return %r#0, %r#1, %r#2 : tensor<2x3x3xf32>, tensor<2x3xi32>, tensor<2xi32>
}

// -----

// Jacobi eigendecomposition: the matrix is rotated in a scratch buffer (a
// kernel argument after the results, allocated around the launch), sweep
// after sweep over the pairs p < q. a_pp is read inside the q loop, which
// rotates it (never hoisted out of it).

// CHECK-LABEL: loop.kernel @custom_call_1(
// CHECK-SAME: %[[A:.*]]: memref<4x4xf64>, %[[V:.*]]: memref<4x4xf64>, %[[W:.*]]: memref<4xf64>, %[[INFO:.*]]: memref<i32>, %[[WORK:.*]]: memref<4x4xf64>)
// CHECK:       loop.for %{{.*}} = 0 to 16 step 1 {
// CHECK-NEXT:    loop.for %[[P:[^ ]*]] = 0 to 4 step 1 {
// CHECK-NEXT:      %[[P1:.*]] = arith.addi %[[P]], %{{.*}} : index
// CHECK-NEXT:      loop.for %[[Q:[^ ]*]] = %[[P1]] to 4 step 1 {
// CHECK-NEXT:        loop.load %[[WORK]][%[[P]], %[[P]]]
// CHECK-NEXT:        loop.load %[[WORK]][%[[Q]], %[[Q]]]
// CHECK-NEXT:        loop.load %[[WORK]][%[[P]], %[[Q]]]
// CHECK:             arith.cmpf une
// Eigenvalues sorted ascending, eigenvectors with them.
// CHECK:         arith.cmpf olt
// CHECK:       loop.store %{{.*}}, %[[INFO]][] : memref<i32>
// CHECK-LABEL: func.func @main(
// CHECK:         device.alloc : memref<i32>
// CHECK-NEXT:    %[[SCRATCH:.*]] = device.alloc : memref<4x4xf64>
// CHECK-NEXT:    device.launch @custom_call_1(%{{.*}}, %[[SCRATCH]])
// CHECK-NEXT:    device.free %[[SCRATCH]] : memref<4x4xf64>
func.func @main(%a: tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4xf64>, tensor<i32>) {
  %r:3 = stablehlo.custom_call @lapack_dsyevd_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}} : (tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4xf64>, tensor<i32>)
  return %r#0, %r#1, %r#2 : tensor<4x4xf64>, tensor<4xf64>, tensor<i32>
}

// -----

// One-sided Jacobi SVD of a wide matrix: it works on A^T (5x3) and the 3x3
// rotations, both scratch; singular values sorted descending.

// CHECK-LABEL: loop.kernel @custom_call_1(
// CHECK-SAME: %{{.*}}: memref<3x5xf32>, %{{.*}}: memref<3x5xf32>, %{{.*}}: memref<3xf32>, %{{.*}}: memref<3x3xf32>, %{{.*}}: memref<5x5xf32>, %{{.*}}: memref<i32>, %[[WORK:.*]]: memref<5x3xf32>, %[[Q:.*]]: memref<3x3xf32>)
// CHECK:       loop.for %{{.*}} = 0 to 12 step 1 {
// CHECK:         arith.cmpf ogt
func.func @main(%a: tensor<3x5xf32>) -> (tensor<3xf32>, tensor<3x3xf32>, tensor<5x5xf32>) {
  %r:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {mhlo.backend_config = {mode = 65 : ui8}} : (tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<3xf32>, tensor<3x3xf32>, tensor<5x5xf32>, tensor<i32>)
  return %r#1, %r#2, %r#3 : tensor<3xf32>, tensor<3x3xf32>, tensor<5x5xf32>
}
