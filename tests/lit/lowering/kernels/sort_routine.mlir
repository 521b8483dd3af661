// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// A sort `sort-routines` marked: per row (here a column: the sort runs
// along dimension 0, so a row starts at its column and steps by 6), a
// routine writes the key operand's elements as unsigned keys in the
// comparator's order (the bits xor one flip where the sign is set, another
// where not: totalOrder descending flips nothing of a negative float and
// every bit but the sign of a positive one; no canonicalization: infinity
// and NaN 0), the sort routine sorts the row's keys into an order of
// positions, and every operand moves along it. Keys, order and the
// routine's work space are scratch, row after row.
// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME:  %[[K:.*]]: memref<3x6xf32>, %[[V:.*]]: memref<3x6xi32>, %[[KO:.*]]: memref<3x6xf32>, %[[VO:.*]]: memref<3x6xi32>, %[[KEYS:.*]]: memref<6x3xi32>, %[[ORDER:.*]]: memref<6x3xi32>, %[[WORK:.*]]: memref<6x24xi8>)
// CHECK-NEXT:  %[[NEG:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  %[[POS:.*]] = arith.constant 2147483647 : i32
// CHECK-NEXT:  %[[INF:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  %[[NAN:.*]] = arith.constant 0 : i32
// CHECK:       %[[N:.*]] = arith.constant 3 : index
// CHECK-NEXT:  %[[STRIDE:.*]] = arith.constant 6 : index
// CHECK-NEXT:  loop.parallel (%{{.*}}, %[[ROW:.*]]) = (0, 0) to (1, 6) step (1, 1) {
// CHECK-NEXT:    loop.call @xlir.row_keys32(%[[N]], %[[ROW]], %[[KEYS]], %[[K]], %[[ROW]], %[[STRIDE]], %[[NEG]], %[[POS]], %[[INF]], %[[NAN]]) {work = 24 : i64}
// CHECK-NEXT:    loop.call @xlir.sort_keys32(%[[N]], %[[ROW]], %[[KEYS]], %[[ORDER]], %[[WORK]]) : (index, index, memref<6x3xi32>, memref<6x3xi32>, memref<6x24xi8>)
// CHECK-NEXT:    loop.call @xlir.row_take32(%[[N]], %[[ROW]], %[[ORDER]], %[[K]], %[[KO]], %[[ROW]], %[[STRIDE]]) {work = 9 : i64}
// CHECK-NEXT:    loop.call @xlir.row_take32(%[[N]], %[[ROW]], %[[ORDER]], %[[V]], %[[VO]], %[[ROW]], %[[STRIDE]]) {work = 9 : i64}
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

// 64-bit keys take the 64-bit routines; unsigned ascending keys are the
// elements as they are (i8, keyed by its own routine, sorted as 32-bit
// keys); an unmarked sort keeps the merge sort kernel (sort.mlir).
// CHECK-LABEL: loop.kernel @sort_1(
// CHECK:         loop.call @xlir.row_keys64(
// CHECK-NEXT:    loop.call @xlir.sort_keys64(
// CHECK-NEXT:    loop.call @xlir.row_take64(
// CHECK-LABEL: loop.kernel @sort_2(
// CHECK-NEXT:    %[[NEG:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    %[[POS:.*]] = arith.constant 0 : i8
// CHECK:         loop.call @xlir.row_keys8(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]], %[[POS]],
// CHECK-NEXT:    loop.call @xlir.sort_keys32(
// CHECK-NEXT:    loop.call @xlir.row_take8(
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

// -----

// JAX's comparator on bf16 (descending): the routine canonicalizes by the
// format's infinity (0x7F80) and quiet NaN (0x7FC0) first. Boolean keys are
// written by a loop (zero-extended); they move as bytes.
// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-NEXT:    arith.constant 0 : i16
// CHECK-NEXT:    arith.constant 32767 : i16
// CHECK-NEXT:    %[[INF:.*]] = arith.constant 32640 : i16
// CHECK-NEXT:    %[[NAN:.*]] = arith.constant 32704 : i16
// CHECK:         loop.call @xlir.row_keys16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[INF]], %[[NAN]])
// CHECK-LABEL: loop.kernel @sort_2(
// CHECK:         loop.for
// CHECK:           arith.extui %{{.*}} : i1 to i32
// CHECK:         loop.call @xlir.sort_keys32(
// CHECK-NEXT:    loop.call @xlir.row_take8(
func.func @main(%h: tensor<5xbf16>, %p: tensor<5xi1>) -> (tensor<5xbf16>, tensor<5xi1>) {
  %0 = "stablehlo.sort"(%h) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %c = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {xlir.sort_routine = "canonical descending 0"} : (tensor<5xbf16>) -> tensor<5xbf16>
  %1 = "stablehlo.sort"(%p) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %c = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {xlir.sort_routine = "unsigned ascending 0"} : (tensor<5xi1>) -> tensor<5xi1>
  func.return %0, %1 : tensor<5xbf16>, tensor<5xi1>
}

// -----

// An operand another op computes (argsort's iota) is moved by the kernel's
// own loop, which reads its row alone (for fuse-kernels to run the iota in
// the same row loop); the argument's keys and elements go by the routines.
// CHECK-LABEL: loop.kernel @sort_1(
// CHECK-SAME:  %[[K:[^:]*]]: memref<2x8xf32>, %[[IOTA:[^:]*]]: memref<2x8xi32>, %[[KO:[^:]*]]: memref<2x8xf32>, %[[IO:[^:]*]]: memref<2x8xi32>
// CHECK:         loop.call @xlir.row_keys32(
// CHECK-NEXT:    loop.call @xlir.sort_keys32(
// CHECK-NEXT:    loop.call @xlir.row_take32(%{{.*}}, %{{.*}}, %{{.*}}, %[[K]], %[[KO]],
// CHECK-NEXT:    loop.for
// CHECK:           %[[P:.*]] = loop.load %[[IOTA]][
// CHECK-NEXT:      loop.store %[[P]], %[[IO]][
func.func @main(%k: tensor<2x8xf32>) -> tensor<2x8xi32> {
  %iota = stablehlo.iota dim = 1 : tensor<2x8xi32>
  %r:2 = "stablehlo.sort"(%k, %iota) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {xlir.sort_routine = "total ascending 0"} : (tensor<2x8xf32>, tensor<2x8xi32>) -> (tensor<2x8xf32>, tensor<2x8xi32>)
  func.return %r#1 : tensor<2x8xi32>
}
