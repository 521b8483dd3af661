// RUN: xlir-opt %s --split-input-file -p hlo-to-loop | filecheck %s

// Loop fusions: one loop.parallel over the output; broadcasts are loads at
// fewer indices, scalar constants arith.constants at the kernel's top, and a
// value used twice is loaded and computed once.

// CHECK-LABEL: loop.kernel @fusion_1(%{{.*}}: memref<4x8xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<4x8xf32>) {
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 8) step (1, 1) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %0[%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[B:.*]] = loop.load %1[%[[J]]] : memref<8xf32>
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[SQ]], %[[B]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.mulf %[[S]], %[[TWO]] : f32
// CHECK-NEXT:      loop.store %[[R]], %2[%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// CHECK-LABEL: func.func @main(%{{.*}}: memref<4x8xf32>, %{{.*}}: memref<8xf32>) -> memref<4x8xf32>
// CHECK:         device.launch @fusion_1(%0, %1, %{{.*}}) on %{{.*}} : memref<4x8xf32>, memref<8xf32>, memref<4x8xf32>
func.func @main(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 160, outputs = 128, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop (%x, %b) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8xf32>):
    %sq = stablehlo.multiply %a0, %a0 : tensor<4x8xf32>
    %bb = stablehlo.broadcast_in_dim %a1, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
    %s = stablehlo.add %sq, %bb : tensor<4x8xf32>
    %c = stablehlo.constant dense<2.0> : tensor<f32>
    %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %r = stablehlo.multiply %s, %cb : tensor<4x8xf32>
    hlo.yield %r : tensor<4x8xf32>
  }
  func.return %0 : tensor<4x8xf32>
}

// -----

// A constant with several values is a loop.global read inside the kernel.

// CHECK:       loop.global @fusion_1_constant_0 : memref<3xi32> = dense<[1, 2, 3]>
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         %[[G:.*]] = loop.get_global @fusion_1_constant_0 : memref<3xi32>
// CHECK-NEXT:    loop.parallel (%[[I:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:      loop.load %{{.*}}[%[[I]]] : memref<3xi32>
// CHECK-NEXT:      loop.load %[[G]][%[[I]]] : memref<3xi32>
// CHECK-NEXT:      arith.addi
func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 12, outputs = 12, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<3xi32>) -> tensor<3xi32> {
  ^bb0(%a0: tensor<3xi32>):
    %c = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
    %r = stablehlo.add %a0, %c : tensor<3xi32>
    hlo.yield %r : tensor<3xi32>
  }
  func.return %0 : tensor<3xi32>
}

// -----

// Multi-output fusions: outputs of one shape share one nest (the shared
// value is computed once); outputs of another shape get their own nest, which
// recomputes it. `fuse` forms no such fusion (multi-output-shape); a
// hand-written one still lowers.

// CHECK-LABEL: loop.kernel @fusion_1
// CHECK-SAME:    (%{{.*}}: memref<4xf32>, %[[P:.*]]: memref<4xf32>, %[[Q:.*]]: memref<4xf32>, %[[R:.*]]: memref<2xf32>) {
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:      %[[X:.*]] = loop.load
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      loop.store %[[E]], %[[P]][%[[I]]]
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[E]] : f32
// CHECK-NEXT:      loop.store %[[N]], %[[Q]][%[[I]]]
// CHECK-NEXT:    }
// CHECK:         loop.parallel (%{{.*}}) = (0) to (2) step (1) {
// CHECK:           math.exp
// CHECK:           loop.store %{{.*}}, %[[R]]
// CHECK:         }
// CHECK-NEXT:    loop.return
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 16, outputs = 40, alias = 0, constants = 0>} {
  %0:3 = hlo.fusion kind = loop (%x) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>, #hlo.buffer<out 1>, #hlo.buffer<out 2>]} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) {
  ^bb0(%a0: tensor<4xf32>):
    %e = stablehlo.exponential %a0 : tensor<4xf32>
    %n = stablehlo.negate %e : tensor<4xf32>
    %s = stablehlo.slice %e [1:3] : (tensor<4xf32>) -> tensor<2xf32>
    hlo.yield %e, %n, %s : tensor<4xf32>, tensor<4xf32>, tensor<2xf32>
  }
  func.return %0#0, %0#1, %0#2 : tensor<4xf32>, tensor<4xf32>, tensor<2xf32>
}
