// RUN: not xlir-opt %s -p hlo-to-loop 2>&1 | filecheck %s

// Every op that cannot be lowered is listed at once, with its location: a
// custom call with no kernel and an op inside a fusion that the fusion lowering
// cannot compute element by element (a convolution in an output fusion).

// CHECK: hlo-to-loop cannot lower 2 op(s) of this module:
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 3]]:5: error: 'stablehlo.custom_call' custom call target 'my_kernel' is not supported on this target
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 5]]:7: error: 'stablehlo.convolution' has no scalar translation
func.func @main(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) -> (tensor<1x4x4x1xf32>, tensor<1x2x2x1xf32>) attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 100, outputs = 80, alias = 0, constants = 0>} {
    %0 = stablehlo.custom_call @my_kernel(%x) {hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
    %1 = hlo.fusion kind = output (%x, %w) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 1>]} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
    ^bb0(%a: tensor<1x4x4x1xf32>, %b: tensor<3x3x1x1xf32>):
      %c = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
      %r = stablehlo.negate %c : tensor<1x2x2x1xf32>
      hlo.yield %r : tensor<1x2x2x1xf32>
    }
    func.return %0, %1 : tensor<1x4x4x1xf32>, tensor<1x2x2x1xf32>
}
