// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop | filecheck %s
// RUN: xlir-opt %s -p 'decompose{keep-top-k=true}' | filecheck %s --check-prefix=KEEP
// RUN: xlir-opt %s -p decompose | filecheck %s --check-prefix=SORT

// top_k as a selection: each row (loop.parallel) is read once in a loop.for
// carrying the order key of the k-th best; an element enters only above it
// (or while fewer than k are kept), by an insertion loop whose trip count
// is 0 otherwise. Float keys are the totalOrder integers of the bits.

// CHECK-LABEL: loop.kernel @top_k_1(
// CHECK-SAME: %[[X:.*]]: memref<4x16xf32>, %[[V:.*]]: memref<4x5xf32>, %[[I:.*]]: memref<4x5xi32>)
// CHECK:       loop.parallel (%[[ROW:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:    loop.for %[[P:[^ ]*]] = 0 to 16 step 1 iter_args(%[[KTH:[^ ]*]] = %{{.*}}) -> (i32) {
// CHECK-NEXT:      %[[X_P:.*]] = loop.load %[[X]][%[[ROW]], %[[P]]] : memref<4x16xf32>
// CHECK-NEXT:      %[[BITS:.*]] = arith.bitcast %[[X_P]] : f32 to i32
// CHECK:           %[[KEY:.*]] = arith.select %{{.*}}, %{{.*}}, %[[BITS]] : i32
// CHECK-NEXT:      %[[FILLING:.*]] = arith.cmpi slt, %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[ENTERS:.*]] = arith.cmpi sgt, %[[KEY]], %[[KTH]] : i32
// CHECK:           %[[SLOTS:.*]] = arith.select %[[FILLING]], %{{.*}}, %{{.*}} : index
// CHECK:           loop.for %[[S:[^ ]*]] = 0 to %[[SLOTS]] step 1 iter_args({{.*}}) -> (f32, i32, i32, i1) {
// CHECK:             loop.store %{{.*}}, %[[V]][%[[ROW]], %[[S]]] : memref<4x5xf32>
// CHECK:             loop.store %{{.*}}, %[[I]][%[[ROW]], %[[S]]] : memref<4x5xi32>
// The k-th best is read again after the insertion, inside the row's loop.
// CHECK:           loop.load %[[V]][%[[ROW]], %{{.*}}] : memref<4x5xf32>
// CHECK:           loop.yield %{{.*}} : i32

// KEEP: chlo.top_k(%{{.*}}, k = 5)
// KEEP-NOT: stablehlo.sort

// SORT-NOT: chlo.top_k
// SORT: stablehlo.sort
func.func @main(%x: tensor<4x16xf32>) -> (tensor<4x5xf32>, tensor<4x5xi32>) {
  %v, %i = chlo.top_k(%x, k = 5) : tensor<4x16xf32> -> (tensor<4x5xf32>, tensor<4x5xi32>)
  return %v, %i : tensor<4x5xf32>, tensor<4x5xi32>
}
