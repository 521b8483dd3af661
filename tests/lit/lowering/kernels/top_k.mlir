// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop | filecheck %s
// RUN: xlir-opt %s -p 'decompose{keep-top-k=true}' | filecheck %s --check-prefix=KEEP
// RUN: xlir-opt %s -p decompose | filecheck %s --check-prefix=SORT

// top_k as a selection: each row (loop.parallel) is read once, carrying
// the order key of the k-th best. Float keys are the totalOrder integers of
// the bits. The row goes by blocks of 16: the largest key of a block (a
// maxsi reduction from the lowest key) is compared with the k-th best's,
// and only a block holding an entering element, or one of the first k, is
// read again element by element (the loop runs to the block's end or not
// at all); the elements after the last whole block are read one by one.
// An element enters only above the k-th best (or while fewer than k are
// kept), by an insertion loop whose trip count is 0 otherwise.

// CHECK-LABEL: loop.kernel @top_k_1(
// CHECK-SAME: %[[X:.*]]: memref<4x20xf32>, %[[V:.*]]: memref<4x5xf32>, %[[I:.*]]: memref<4x5xi32>)
// CHECK:       %[[LOWEST:.*]] = arith.constant -2147483648 : i32
// CHECK:       loop.parallel (%[[ROW:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:    %[[KTH_OUT:.*]] = loop.for %[[B:[^ ]*]] = 0 to 1 step 1 iter_args(%[[KTH:[^ ]*]] = %{{.*}}) -> (i32) {
// CHECK-NEXT:      %[[START:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK-NEXT:      %[[MOST:.*]] = loop.for %[[E:[^ ]*]] = 0 to 16 step 1 iter_args(%[[M:[^ ]*]] = %[[LOWEST]]) -> (i32) {
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[START]], %[[E]] : index
// CHECK-NEXT:        loop.load %[[X]][%[[ROW]], %[[AT]]] : memref<4x20xf32>
// CHECK:             %[[K:.*]] = arith.select
// CHECK-NEXT:        %[[M2:.*]] = arith.maxsi %[[M]], %[[K]] : i32
// CHECK-NEXT:        loop.yield %[[M2]] : i32
// CHECK:           %[[ABOVE:.*]] = arith.cmpi sgt, %[[MOST]], %[[KTH]] : i32
// CHECK-NEXT:      %[[FIRST_K:.*]] = arith.cmpi slt, %[[START]], %{{.*}} : index
// CHECK-NEXT:      %[[READ:.*]] = arith.ori %[[ABOVE]], %[[FIRST_K]] : i1
// CHECK-NEXT:      %[[WHOLE:.*]] = arith.addi %[[START]], %{{.*}} : index
// CHECK-NEXT:      %[[END:.*]] = arith.select %[[READ]], %[[WHOLE]], %[[START]] : index
// CHECK-NEXT:      loop.for %[[P:[^ ]*]] = %[[START]] to %[[END]] step 1 iter_args(%[[KTH2:[^ ]*]] = %[[KTH]]) -> (i32) {
// CHECK-NEXT:        %[[X_P:.*]] = loop.load %[[X]][%[[ROW]], %[[P]]] : memref<4x20xf32>
// CHECK-NEXT:        %[[BITS:.*]] = arith.bitcast %[[X_P]] : f32 to i32
// CHECK:             %[[KEY:.*]] = arith.select %{{.*}}, %{{.*}}, %[[BITS]] : i32
// CHECK-NEXT:        %[[FILLING:.*]] = arith.cmpi slt, %[[P]], %{{.*}} : index
// CHECK-NEXT:        %[[ENTERS:.*]] = arith.cmpi sgt, %[[KEY]], %[[KTH2]] : i32
// CHECK:             %[[SLOTS:.*]] = arith.select %[[FILLING]], %{{.*}}, %{{.*}} : index
// CHECK:             loop.for %[[S:[^ ]*]] = 0 to %[[SLOTS]] step 1 iter_args({{.*}}) -> (f32, i32, i32, i1) {
// CHECK:               loop.store %{{.*}}, %[[V]][%[[ROW]], %[[S]]] : memref<4x5xf32>
// CHECK:               loop.store %{{.*}}, %[[I]][%[[ROW]], %[[S]]] : memref<4x5xi32>
// The k-th best is read again after the insertion, inside the row's loop.
// CHECK:             loop.load %[[V]][%[[ROW]], %{{.*}}] : memref<4x5xf32>
// CHECK:             loop.yield %{{.*}} : i32
// The last four elements, one by one.
// CHECK:         loop.for %{{.*}} = 16 to 20 step 1 iter_args(%{{.*}} = %[[KTH_OUT]]) -> (i32) {
// CHECK:           loop.load %[[X]]

// KEEP: chlo.top_k(%{{.*}}, k = 5)
// KEEP-NOT: stablehlo.sort

// SORT-NOT: chlo.top_k
// SORT: stablehlo.sort
func.func @main(%x: tensor<4x20xf32>) -> (tensor<4x5xf32>, tensor<4x5xi32>) {
  %v, %i = chlo.top_k(%x, k = 5) : tensor<4x20xf32> -> (tensor<4x5xf32>, tensor<4x5xi32>)
  return %v, %i : tensor<4x5xf32>, tensor<4x5xi32>
}
