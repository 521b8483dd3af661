// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file --verify-diagnostics | filecheck %s

// An unfused iota: one parallel nest over the output storing the index
// along the iota dimension, cast to the element type. The kernel reads
// nothing and needs no temp buffer.

// CHECK-LABEL: loop.kernel @iota_1(
// CHECK-SAME: %[[OUT:.*]]: memref<4x5xi32>)
// CHECK-NEXT:  loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 5) step (1, 1) {
// CHECK-NEXT:    %[[V:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%[[I]], %[[J]]] : memref<4x5xi32>
// CHECK-NEXT:  }
// CHECK-NEXT:  loop.return
// CHECK-LABEL: func.func @main(
// CHECK-NOT:   xi8>
// CHECK-NOT:   loop.view
// CHECK:       device.launch @iota_1(
func.func @main() -> tensor<4x5xi32> {
  %r = stablehlo.iota dim = 1 : tensor<4x5xi32>
  return %r : tensor<4x5xi32>
}

// -----

// Floats: the index goes through i64 and a signed conversion (bf16 too).

// CHECK-LABEL: loop.kernel @iota_1(
// CHECK-SAME: %[[OUT:.*]]: memref<3x2xbf16>)
// CHECK-NEXT:  loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (3, 2) step (1, 1) {
// CHECK-NEXT:    %[[W:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:    %[[F:.*]] = arith.sitofp %[[W]] : i64 to bf16
// CHECK-NEXT:    loop.store %[[F]], %[[OUT]][%[[I]], %[[J]]] : memref<3x2xbf16>
// CHECK-NEXT:  }
func.func @main() -> tensor<3x2xbf16> {
  %r = stablehlo.iota dim = 0 : tensor<3x2xbf16>
  return %r : tensor<3x2xbf16>
}

// -----

// Unsigned elements live in signless buffers: the same cast, to i8.

// CHECK-LABEL: loop.kernel @iota_1(
// CHECK-SAME: %[[OUT:.*]]: memref<6xi8>)
// CHECK-NEXT:  loop.parallel (%[[I:.*]]) = (0) to (6) step (1) {
// CHECK-NEXT:    %[[V:.*]] = arith.index_cast %[[I]] : index to i8
// CHECK-NEXT:    loop.store %[[V]], %[[OUT]][%[[I]]] : memref<6xi8>
// CHECK-NEXT:  }
func.func @main() -> tensor<6xui8> {
  %r = stablehlo.iota dim = 0 : tensor<6xui8>
  return %r : tensor<6xui8>
}

// -----

// Complex elements reach the loop level only split into parts
// (split-complex): a diagnostic, not a kernel.

// CHECK: hlo-to-loop cannot lower 1 op(s) of this module:
// CHECK-NEXT: iota.mlir:[[# @LINE + 2]]:3: error: 'stablehlo.iota' on complex values: the loop level has real numbers only; run `split-complex` before `fuse`
func.func @main() -> tensor<4xcomplex<f32>> {
  %r = stablehlo.iota dim = 0 : tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}
