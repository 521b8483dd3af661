// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | filecheck %s

// A reduce_window inside a fusion (a cumulative sum of negations, as
// JAX's cumsum) is a loop.for nest over its window's taps, inside the
// parallel nest over its output; each tap computes the fused producer (the
// negation) at the tap's element, and a tap in the low padding reads the
// init value through a select.

// CHECK-LABEL: loop.kernel @fusion_1(%{{.*}}: memref<4x6xf32>, %{{.*}}: memref<4x6xf32>) {
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 6) step (1, 1) {
// CHECK:           loop.for %{{.*}} = 0 to 1 step 1 iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:             loop.for %{{.*}} = 0 to 6 step 1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:             %[[X:.*]] = loop.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x6xf32>
// CHECK:             %[[E:.*]] = arith.negf %[[X]] : f32
// CHECK:             %[[V:.*]] = arith.select %{{.*}}, %[[E]], %{{.*}} : f32
// CHECK:             %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK:             loop.yield %[[S]] : f32
// CHECK:           loop.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<4x6xf32>
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
