// RUN: xlir-opt %s -p 'hlo-opt,hlo-to-loop,widen-floats,register-tile{mr=2 nr=16 lanes=8}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'hlo-opt,hlo-to-loop,widen-floats,register-tile{mr=2 nr=16 lanes=4}' --split-input-file | filecheck %s --check-prefix=NARROW

// A bf16 dot whose f32 sums go through a tanh before they are rounded to
// the bf16 output: the output cannot hold the sums and the epilogue's first
// op is the tanh (no cheap rounding to keep and finish once per tile, as
// bf16_epilogue.mlir does), so the epilogue is cloned per copy, and its tanh
// is one per vector copy (expand-math writes it out as vector code), not
// one per element (the tile was 32 scalar copies, each with its own tanh).
// On vectors of fewer than 8 lanes the tile keeps scalar copies (LLVM packs
// those into full registers).
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel {{.*}} attributes {jam = array<i64: 2, 16>} {
// CHECK:           math.fma {{.*}} : vector<8xf32>
// CHECK-COUNT-4:   math.tanh %{{.*}} : vector<8xf32>
// CHECK-NOT:       math.tanh
// CHECK:         loop.return
// NARROW-LABEL:  loop.kernel @fusion_1
// NARROW-NOT:      vector
// NARROW-COUNT-32: math.tanh %{{.*}} : f32
// NARROW-NOT:      vector
// NARROW:        loop.return
func.func @main(%a: tensor<4x16xbf16>, %b: tensor<16x16xbf16>) -> tensor<4x16xbf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x16xbf16>, tensor<16x16xbf16>) -> tensor<4x16xf32>
  %t = stablehlo.tanh %d : tensor<4x16xf32>
  %c = stablehlo.convert %t : (tensor<4x16xf32>) -> tensor<4x16xbf16>
  return %c : tensor<4x16xbf16>
}

// -----

// On f64 a tanh stays a call of libm's, one per element: the tile keeps
// its scalar copies (in one row, to keep the cloned epilogues few).
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel {{.*}} attributes {jam = array<i64: 1, 16>} {
// CHECK-NOT:       vector
// CHECK-COUNT-16:  math.tanh %{{.*}} : f64
// CHECK-NOT:       vector
// CHECK:         loop.return
func.func @main(%a: tensor<4x16xf64>, %b: tensor<16x16xf64>) -> tensor<4x16xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
  %p = stablehlo.constant dense<1.0> : tensor<4x16xf64>
  %s = stablehlo.add %d, %p : tensor<4x16xf64>
  %t = stablehlo.tanh %s : tensor<4x16xf64>
  %u = stablehlo.convert %t : (tensor<4x16xf64>) -> tensor<4x16xf32>
  return %u : tensor<4x16xf32>
}
