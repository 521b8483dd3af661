// RUN: xlir-opt %s --split-input-file -p decompose | filecheck %s

// Plain stablehlo (and chlo.bessel_i1e, which has no decomposition yet) goes
// through unchanged.

// CHECK-LABEL: func.func @plain
// CHECK-NEXT:    %[[A:.*]] = stablehlo.tan %arg0 : tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.atan2 %[[A]], %arg0 : tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = chlo.bessel_i1e %[[B]] : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[C]] : tensor<4xf32>
func.func @plain(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tan %arg0 : tensor<4xf32>
  %1 = stablehlo.atan2 %0, %arg0 : tensor<4xf32>
  %2 = chlo.bessel_i1e %1 : tensor<4xf32> -> tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

// Ops of the loop level, whose operands are no tensors, are left alone
// (the pass asked every op for a tensor element type: an internal error).

// CHECK-LABEL: loop.kernel @scale
// CHECK:         %[[V:.*]] = loop.load
// CHECK-NEXT:    %[[W:.*]] = arith.mulf %[[V]], %[[V]] : f32
loop.kernel @scale(%x: memref<4xf32>, %out: memref<4xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf32>
    %w = arith.mulf %v, %v : f32
    loop.store %w, %out[%i] : memref<4xf32>
  }
  loop.return
}
