// RUN: not xlir-opt %s -p hlo-to-loop 2>&1 | filecheck %s

// Every op that cannot be lowered is listed at once, with its location: a
// heavy op with no kernel and an op inside a fusion that the fusion lowering
// cannot compute element by element (a reduce_window in an input fusion).

// CHECK: hlo-to-loop cannot lower 2 op(s) of this module:
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 3]]:5: error: 'stablehlo.custom_call' has no loop kernel yet
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 7]]:7: error: 'stablehlo.reduce_window' has no scalar translation
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<2xf32>) attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 16, outputs = 24, alias = 0, constants = 0>} {
    %0 = stablehlo.custom_call @my_kernel(%x) {hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = hlo.fusion kind = input (%x) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 1>]} : (tensor<4xf32>) -> tensor<2xf32> {
    ^bb0(%a: tensor<4xf32>):
      %e = stablehlo.exponential %a : tensor<4xf32>
      %zero = stablehlo.constant dense<0.0> : tensor<f32>
      %r = "stablehlo.reduce_window"(%e, %zero) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
      hlo.yield %r : tensor<2xf32>
    }
    func.return %0, %1 : tensor<4xf32>, tensor<2xf32>
}

