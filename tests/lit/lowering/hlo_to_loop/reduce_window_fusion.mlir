// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop --split-input-file | filecheck %s

// A reduce_window inside a fusion that is a running reduction (a cumulative
// sum of negations, as JAX's cumsum: a window over the whole prefix, padded
// in front, with 0 as the init value, which the reducer keeps) is one
// loop.for along the row carrying the sum, inside a parallel nest over the
// other dimension (lowering/prefix_scan.py); each step computes the fused
// producer (the negation) at its element and stores the running sum.

// CHECK-LABEL: loop.kernel @fusion_1(
// CHECK-SAME:    %[[X:.*]]: memref<4x6xf32>, %[[OUT:.*]]: memref<4x6xf32>) {
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         loop.parallel (%[[I:.*]], %{{.*}}) = (0, 0) to (4, 1) step (1, 1) {
// CHECK-NEXT:      loop.for %[[K:.*]] = 0 to 6 step 1 iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:        %[[V:.*]] = loop.load %[[X]][%[[I]], %[[K]]] : memref<4x6xf32>
// CHECK-NEXT:        %[[E:.*]] = arith.negf %[[V]] : f32
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %[[E]] : f32
// CHECK-NEXT:        loop.store %[[S]], %[[OUT]][%[[I]], %[[K]]] : memref<4x6xf32>
// CHECK-NEXT:        loop.yield %[[S]] : f32
// CHECK-NOT:   stablehlo.reduce_window
func.func @main(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %e = stablehlo.negate %x : tensor<4x6xf32>
  %r = "stablehlo.reduce_window"(%e, %zero) <{window_dimensions = array<i64: 1, 6>, padding = dense<[[0, 0], [5, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// Two running reductions of one input down the columns (a cumsum and a
// cummax, siblings in one fusion) share one loop.for, which carries both
// accumulators and stores both outputs each step.

// CHECK-LABEL: loop.kernel @fusion_1(
// CHECK:         loop.parallel (%{{.*}}, %[[J:.*]]) = (0, 0) to (1, 6) step (1, 1) {
// CHECK-NEXT:      loop.for %[[K:.*]] = 0 to 4 step 1 iter_args(%[[SUM:.*]] = %{{.*}}, %[[MAX:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK-NEXT:        %[[V:.*]] = loop.load %{{.*}}[%[[K]], %[[J]]] : memref<4x6xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[SUM]], %[[V]] : f32
// CHECK-NEXT:        %[[M:.*]] = arith.maximumf %[[MAX]], %[[V]] : f32
// CHECK-NEXT:        loop.store %{{.*}}[%[[K]], %[[J]]] : memref<4x6xf32>
// CHECK-NEXT:        loop.store %{{.*}}[%[[K]], %[[J]]] : memref<4x6xf32>
// CHECK-NEXT:        loop.yield %[[S]], %[[M]] : f32, f32
func.func @main(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %s = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 4, 1>, padding = dense<[[3, 0], [0, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  %m = "stablehlo.reduce_window"(%x, %ninf) <{window_dimensions = array<i64: 4, 1>, padding = dense<[[3, 0], [0, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %s, %m : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// With 1 as the init value of a sum each padding tap adds 1: output i is not
// output i - 1 plus x[i], so the window's loop.for nest stays, inside the
// parallel nest over the output, and a tap in the padding reads the init
// value through a select.

// CHECK-LABEL: loop.kernel @fusion_1(
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 6) step (1, 1) {
// CHECK:           loop.for %{{.*}} = 0 to 1 step 1 iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:             loop.for %{{.*}} = 0 to 6 step 1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:             %[[E:.*]] = arith.negf %{{.*}} : f32
// CHECK:             %[[V:.*]] = arith.select %{{.*}}, %[[E]], %{{.*}} : f32
// CHECK:             %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK:             loop.yield %[[S]] : f32
// CHECK:           loop.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<4x6xf32>
func.func @main(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %e = stablehlo.negate %x : tensor<4x6xf32>
  %r = "stablehlo.reduce_window"(%e, %one) <{window_dimensions = array<i64: 1, 6>, padding = dense<[[0, 0], [5, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
