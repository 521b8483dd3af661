// RUN: not xlir-opt %s -p hlo-to-loop 2>&1 | filecheck %s

// A kernel that meets a case it cannot lower (a comparator on complex
// numbers) is reported with the other unlowerable ops, not as a crash.

// CHECK: hlo-to-loop cannot lower 1 op(s) of this module:
// CHECK-NEXT: unsupported_kernel.mlir:[[# @LINE + 4]]:{{[0-9]+}}: error: 'stablehlo.compare' on tensor<complex<f32>> is not supported
func.func @main(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 32, outputs = 32, alias = 0, constants = 0>} {
    %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
      %c = stablehlo.compare LT, %a, %b : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }) {hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    func.return %0 : tensor<4xcomplex<f32>>
}
