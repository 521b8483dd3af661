// RUN: not xlir-opt %s -p hlo-to-loop 2>&1 | filecheck %s

// Every op that cannot be lowered is listed at once, with its location: a
// custom call with no kernel and an op inside a fusion that the fusion lowering
// cannot compute element by element (a sort in a loop fusion).

// CHECK: hlo-to-loop cannot lower 2 op(s) of this module:
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 3]]:5: error: 'stablehlo.custom_call' custom call target 'my_kernel' is not supported on this target
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 5]]:7: error: 'stablehlo.sort' has no scalar translation
func.func @main(%x: tensor<1x4x4x1xf32>, %v: tensor<8xf32>) -> (tensor<1x4x4x1xf32>, tensor<8xf32>) attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 96, outputs = 96, alias = 0, constants = 0>} {
    %0 = stablehlo.custom_call @my_kernel(%x) {hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
    %1 = hlo.fusion kind = loop (%v) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 1>]} : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%a: tensor<8xf32>):
      %s = "stablehlo.sort"(%a) <{dimension = 0 : i64}> ({
      ^bb1(%p: tensor<f32>, %q: tensor<f32>):
        %lt = stablehlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      }) : (tensor<8xf32>) -> tensor<8xf32>
      %r = stablehlo.negate %s : tensor<8xf32>
      hlo.yield %r : tensor<8xf32>
    }
    func.return %0, %1 : tensor<1x4x4x1xf32>, tensor<8xf32>
}
