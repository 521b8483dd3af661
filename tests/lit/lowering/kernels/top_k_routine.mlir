// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// A top_k `sort-routines` marked: per row (every position of the dimensions
// before the last), a call of the routine of the elements' width, with the
// row's number, the index width and the key's flips (a float's totalOrder:
// all ones where the sign is set, the sign bit where not), saying its work
// (6 ops an element); its work space (k keys and k i32 positions a row) is
// scratch.
// CHECK-LABEL: loop.kernel @top_k_1(
// CHECK-SAME:  %[[X:.*]]: memref<2x3x20xf32>, %[[V:.*]]: memref<2x3x4xf32>, %[[I:.*]]: memref<2x3x4xi64>, %[[WORK:.*]]: memref<6x32xi8>)
// CHECK-DAG:   %[[NEG:.*]] = arith.constant -1 : i32
// CHECK-DAG:   %[[POS:.*]] = arith.constant -2147483648 : i32
// CHECK:       loop.parallel (%[[A:.*]], %[[B:.*]], %{{.*}}) = (0, 0, 0) to (2, 3, 1) step (1, 1, 1) {
// CHECK:         %[[ROW:.*]] = arith.addi
// CHECK:         loop.call @xlir.top_k32(%{{.*}}, %{{.*}}, %[[ROW]], %[[X]], %[[V]], %[[I]], %[[WORK]], %{{.*}}, %[[NEG]], %[[POS]]) {work = 120 : i64} : (index, index, index, memref<2x3x20xf32>, memref<2x3x4xf32>, memref<2x3x4xi64>, memref<6x32xi8>, index, i32, i32)
// CHECK-NEXT:  }
// CHECK:       device.alloc : memref<6x32xi8>
// CHECK:       device.launch @top_k_1(
func.func @main(%x: tensor<2x3x20xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xi64>) {
  %v, %i = chlo.top_k(%x, k = 4) {xlir.top_k_routine} : tensor<2x3x20xf32> -> (tensor<2x3x4xf32>, tensor<2x3x4xi64>)
  func.return %v, %i : tensor<2x3x4xf32>, tensor<2x3x4xi64>
}

// -----

// Signed integers flip the sign bit either way, unsigned ones nothing; an
// unmarked top_k keeps the selection kernel (top_k.mlir).
// CHECK-LABEL: loop.kernel @top_k_1(
// CHECK-NEXT:  %[[NEG:.*]] = arith.constant -128 : i8
// CHECK-NEXT:  %[[POS:.*]] = arith.constant -128 : i8
// CHECK:       loop.call @xlir.top_k8(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]], %[[POS]])
// CHECK-LABEL: loop.kernel @top_k_2(
// CHECK-NEXT:  %[[NEG:.*]] = arith.constant 0 : i64
// CHECK-NEXT:  %[[POS:.*]] = arith.constant 0 : i64
// CHECK:       loop.call @xlir.top_k64(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]], %[[POS]])
// CHECK-LABEL: loop.kernel @top_k_3(
// CHECK-NOT:   loop.call
// CHECK:       loop.return
func.func @main(%a: tensor<9xi8>, %b: tensor<9xui64>, %c: tensor<9xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %av, %ai = chlo.top_k(%a, k = 2) {xlir.top_k_routine} : tensor<9xi8> -> (tensor<2xi8>, tensor<2xi32>)
  %bv, %bi = chlo.top_k(%b, k = 2) {xlir.top_k_routine} : tensor<9xui64> -> (tensor<2xui64>, tensor<2xi32>)
  %cv, %ci = chlo.top_k(%c, k = 2) : tensor<9xi32> -> (tensor<2xi32>, tensor<2xi32>)
  func.return %ai, %bi, %ci : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
}
