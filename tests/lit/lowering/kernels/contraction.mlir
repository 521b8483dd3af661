// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// dot_general with a batch dim and the lhs contracting on its first dim: a
// parallel nest over the output around a loop.for carrying the accumulator.

// CHECK-LABEL: loop.kernel @dot_general_1(
// CHECK-SAME: %[[A:.*]]: memref<3x5x4xf32>, %[[B:.*]]: memref<3x5x6xf32>, %[[OUT:.*]]: memref<3x4x6xf32>)
// CHECK:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       loop.parallel (%[[N:.*]], %[[I:.*]], %[[J:.*]]) = (0, 0, 0) to (3, 4, 6) step (1, 1, 1) {
// CHECK-NEXT:    %[[SUM:.*]] = loop.for %[[K:.*]] = 0 to 5 step 1 iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %[[A]][%[[N]], %[[K]], %[[I]]] : memref<3x5x4xf32>
// CHECK-NEXT:      %[[Y:.*]] = loop.load %[[B]][%[[N]], %[[K]], %[[J]]] : memref<3x5x6xf32>
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      loop.yield %[[NEXT]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.store %[[SUM]], %[[OUT]][%[[N]], %[[I]], %[[J]]] : memref<3x4x6xf32>
func.func @main(%a: tensor<3x5x4xf32>, %b: tensor<3x5x6xf32>) -> tensor<3x4x6xf32> {
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<3x5x4xf32>, tensor<3x5x6xf32>) -> tensor<3x4x6xf32>
  return %r : tensor<3x4x6xf32>
}

// -----

// A 1-D convolution, stride 2, padding 1 on the low side only: the padding
// test appears only for the low bound (the shapes keep every tap below the
// high bound), loads are clamped and padded taps read zero.

// CHECK-LABEL: loop.kernel @convolution_1(
// CHECK-SAME: %[[X:.*]]: memref<1x8x2xf32>, %[[W:.*]]: memref<3x2x4xf32>, %[[OUT:.*]]: memref<1x4x4xf32>)
// CHECK:       loop.parallel (%[[B:.*]], %[[O:.*]], %[[F:.*]]) = (0, 0, 0) to (1, 4, 4) step (1, 1, 1) {
// CHECK:         loop.for %[[C:.*]] = 0 to 2 step 1
// CHECK:           loop.for %[[T:.*]] = 0 to 3 step 1
// CHECK:             %[[POS:.*]] = arith.subi
// CHECK-NEXT:        %[[IN:.*]] = arith.cmpi sge, %[[POS]], %{{.*}} : index
// CHECK-NOT:         arith.cmpi sle
// CHECK:             %[[V:.*]] = loop.load %[[X]][%[[B]], %{{.*}}, %[[C]]] : memref<1x8x2xf32>
// CHECK-NEXT:        %[[Z:.*]] = arith.select %[[IN]], %[[V]], %{{.*}} : f32
// CHECK-NEXT:        %[[K:.*]] = loop.load %[[W]][%[[T]], %[[C]], %[[F]]] : memref<3x2x4xf32>
// CHECK-NEXT:        arith.mulf %[[Z]], %[[K]] : f32
// CHECK:         loop.store %{{.*}}, %[[OUT]][%[[B]], %[[O]], %[[F]]] : memref<1x4x4xf32>
func.func @main(%x: tensor<1x8x2xf32>, %w: tensor<3x2x4xf32>) -> tensor<1x4x4xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 0]]} {feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x2xf32>, tensor<3x2x4xf32>) -> tensor<1x4x4xf32>
  return %r : tensor<1x4x4xf32>
}

// -----

// Without padding or dilation no tap can leave the input: no test, no select.

// CHECK-LABEL: loop.kernel @convolution_1(
// CHECK-NOT:   arith.cmpi
// CHECK-NOT:   arith.select
// CHECK:       loop.return
func.func @main(%x: tensor<1x8x2xf32>, %w: tensor<3x2x4xf32>) -> tensor<1x6x4xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x2xf32>, tensor<3x2x4xf32>) -> tensor<1x6x4xf32>
  return %r : tensor<1x6x4xf32>
}

// -----

// Two feature groups: the input feature is offset by the group of the
// output feature.

// CHECK-LABEL: loop.kernel @convolution_1(
// CHECK:       loop.parallel (%{{.*}}, %{{.*}}, %[[F:.*]]) = (0, 0, 0) to (2, 4, 6) step (1, 1, 1) {
// CHECK-NEXT:    %[[G:.*]] = arith.divui %[[F]], %{{.*}} : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.muli %[[G]], %{{.*}} : index
// CHECK:         loop.for %[[C:.*]] = 0 to 2 step 1
// CHECK-NEXT:      %{{.*}} = arith.addi %[[FIRST]], %[[C]] : index
func.func @main(%x: tensor<2x6x4xf32>, %w: tensor<3x2x6xf32>) -> tensor<2x4x6xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {feature_group_count = 2 : i64, batch_group_count = 1 : i64} : (tensor<2x6x4xf32>, tensor<3x2x6xf32>) -> tensor<2x4x6xf32>
  return %r : tensor<2x4x6xf32>
}
