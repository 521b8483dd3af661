// RUN: not xlir-opt %s -p hlo-to-loop 2>&1 | filecheck %s

// A kernel that meets a case it cannot lower (a comparator with an op that
// has no scalar translation: chlo.erf, which `decompose` would have
// rewritten) is reported with the other unlowerable ops, not as a crash.

// CHECK: hlo-to-loop cannot lower 1 op(s) of this module:
// CHECK-NEXT: unsupported_kernel.mlir:[[# @LINE + 4]]:7: error: 'chlo.erf' has no scalar translation
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 16, outputs = 16, alias = 0, constants = 0>} {
    %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %e = chlo.erf %a : tensor<f32> -> tensor<f32>
      %c = stablehlo.compare LT, %e, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }) {hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<4xf32>) -> tensor<4xf32>
    func.return %0 : tensor<4xf32>
}
