// RUN: not xlir-opt %s -p hlo-opt,hlo-to-loop,register-tile,expand-math,loop-to-llvm 2>&1 | filecheck %s

// Ops the loop passes make (a register tile's epilogue, an expanded tanh)
// have no location of their own: a diagnostic about one points at the
// nearest enclosing op that has one, the HLO op its kernel comes from. Here
// bf16 arithmetic is left for loop-to-llvm (no widen-floats); every line is
// located (once, some were a bare "error:").

// CHECK: loop-to-llvm cannot lower {{[0-9]+}} op(s) of this module for target 'cpu':
// CHECK-NOT: {{^}}error:
// CHECK: located.mlir:{{1[4-7]}}:3: error: 'arith.{{.*}}' computes on bf16
// CHECK-NOT: {{^}}error:
func.func @main(%a: tensor<32x64xbf16>, %b: tensor<64x48xbf16>, %c: tensor<48xbf16>) -> tensor<32x48xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<32x64xbf16>, tensor<64x48xbf16>) -> tensor<32x48xbf16>
  %1 = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<48xbf16>) -> tensor<32x48xbf16>
  %2 = stablehlo.add %0, %1 : tensor<32x48xbf16>
  %3 = stablehlo.tanh %2 : tensor<32x48xbf16>
  return %3 : tensor<32x48xbf16>
}
