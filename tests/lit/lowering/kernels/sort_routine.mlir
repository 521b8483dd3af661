// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// A sort `sort-routines` marked: per row (here a column: the sort runs
// along dimension 0), the key operand's elements become unsigned keys in
// the comparator's order (totalOrder's signed key, the magnitude bits
// flipped where the sign is set; then its sign flipped for ascending, every
// other bit for descending),
// the routine sorts the row's keys into an order of positions, and every
// operand moves along it. Keys, order and the routine's work space are
// scratch, row after row.
// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME:  %[[K:.*]]: memref<3x6xf32>, %[[V:.*]]: memref<3x6xi32>, %[[KO:.*]]: memref<3x6xf32>, %[[VO:.*]]: memref<3x6xi32>, %[[KEYS:.*]]: memref<6x3xi32>, %[[ORDER:.*]]: memref<6x3xi32>, %[[WORK:.*]]: memref<6x24xi8>)
// CHECK:       arith.constant 2147483647 : i32
// CHECK-NEXT:  %[[FLIP:.*]] = arith.constant 2147483647 : i32
// CHECK:       %[[N:.*]] = arith.constant 3 : index
// CHECK:       loop.parallel (%{{.*}}, %[[ROW:.*]]) = (0, 0) to (1, 6) step (1, 1) {
// CHECK-NEXT:    loop.for %[[J:.*]] = 0 to 3 step 1 {
// CHECK-NEXT:      %[[X:.*]] = loop.load %[[K]][%[[J]], %[[ROW]]] : memref<3x6xf32>
// CHECK-NEXT:      arith.bitcast %[[X]] : f32 to i32
// CHECK:           %[[SIGNED:.*]] = arith.select
// CHECK-NEXT:      %[[KEY:.*]] = arith.xori %[[SIGNED]], %[[FLIP]] : i32
// CHECK-NEXT:      loop.store %[[KEY]], %[[KEYS]][%[[ROW]], %[[J]]] : memref<6x3xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.call @xlir.sort_keys32(%[[N]], %[[ROW]], %[[KEYS]], %[[ORDER]], %[[WORK]]) : (index, index, memref<6x3xi32>, memref<6x3xi32>, memref<6x24xi8>)
// CHECK-NEXT:    loop.for %[[I:.*]] = 0 to 3 step 1 {
// CHECK-NEXT:      %[[P:.*]] = loop.load %[[ORDER]][%[[ROW]], %[[I]]] : memref<6x3xi32>
// CHECK-NEXT:      %[[FROM:.*]] = arith.index_cast %[[P]] : i32 to index
// CHECK-NEXT:      %[[A:.*]] = loop.load %[[K]][%[[FROM]], %[[ROW]]] : memref<3x6xf32>
// CHECK-NEXT:      loop.store %[[A]], %[[KO]][%[[I]], %[[ROW]]] : memref<3x6xf32>
// CHECK-NEXT:      %[[B:.*]] = loop.load %[[V]][%[[FROM]], %[[ROW]]] : memref<3x6xi32>
// CHECK-NEXT:      loop.store %[[B]], %[[VO]][%[[I]], %[[ROW]]] : memref<3x6xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK:       device.alloc : memref<6x24xi8>
// CHECK:       device.launch @sort_1(
func.func @main(%k: tensor<3x6xf32>, %v: tensor<3x6xi32>) -> (tensor<3x6xf32>, tensor<3x6xi32>) {
  %r:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {xlir.sort_routine = "total descending 0"} : (tensor<3x6xf32>, tensor<3x6xi32>) -> (tensor<3x6xf32>, tensor<3x6xi32>)
  func.return %r#0, %r#1 : tensor<3x6xf32>, tensor<3x6xi32>
}

// -----

// 64-bit keys take the 64-bit routine; unsigned ascending keys are the
// elements as they are (i8 zero-extended for the 32-bit one); an unmarked
// sort keeps the merge sort kernel (sort.mlir).
// CHECK-LABEL: loop.kernel @sort_1(
// CHECK:         loop.call @xlir.sort_keys64(
// CHECK-LABEL: loop.kernel @sort_2(
// CHECK:         %[[U:.*]] = loop.load
// CHECK-NEXT:    %[[WIDE:.*]] = arith.extui %[[U]] : i8 to i32
// CHECK-NEXT:    loop.store %[[WIDE]]
// CHECK:         loop.call @xlir.sort_keys32(
// CHECK-LABEL: loop.kernel @sort_3(
// CHECK-NOT:     loop.call
// CHECK:         loop.return
func.func @main(%f: tensor<9xf64>, %u: tensor<9xui8>) -> (tensor<9xf64>, tensor<9xui8>, tensor<9xui8>) {
  %0 = "stablehlo.sort"(%f) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %c = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {xlir.sort_routine = "total ascending 0"} : (tensor<9xf64>) -> tensor<9xf64>
  %1 = "stablehlo.sort"(%u) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %c = stablehlo.compare LT, %a, %b : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {xlir.sort_routine = "unsigned ascending 0"} : (tensor<9xui8>) -> tensor<9xui8>
  %2 = "stablehlo.sort"(%u) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %c = stablehlo.compare LT, %a, %b : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<9xui8>) -> tensor<9xui8>
  func.return %0, %1, %2 : tensor<9xf64>, tensor<9xui8>, tensor<9xui8>
}
