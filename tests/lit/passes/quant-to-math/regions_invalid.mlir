// Quantized values inside an op with regions are not lowered: one error
// listing each such op at its place.
// RUN: xlir-opt %s -p quant-to-math --verify-diagnostics | filecheck %s

// CHECK: quant-to-math cannot lower 1 op(s):
// CHECK-NEXT: regions_invalid.mlir:[[# @LINE + 2]]:3: error: 'stablehlo.reduce' has quantized values inside its regions
func.func @reduce(%q: tensor<4x!quant.uniform<i8:f32, 0.1:-30>>, %init: tensor<!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<!quant.uniform<i8:f32, 0.1:-30>> {
  %r = stablehlo.reduce(%q init: %init) across dimensions = [0] : (tensor<4x!quant.uniform<i8:f32, 0.1:-30>>, tensor<!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<!quant.uniform<i8:f32, 0.1:-30>>
    reducer(%a: tensor<!quant.uniform<i8:f32, 0.1:-30>>, %b: tensor<!quant.uniform<i8:f32, 0.1:-30>>) {
      %s = stablehlo.add %a, %b : tensor<!quant.uniform<i8:f32, 0.1:-30>>
      stablehlo.return %s : tensor<!quant.uniform<i8:f32, 0.1:-30>>
    }
  return %r : tensor<!quant.uniform<i8:f32, 0.1:-30>>
}
