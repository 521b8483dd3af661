// A name with no definition in scope is reported where it is first used.
// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @sibling_region(%n: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%i = %n) : tensor<i32>
  cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %x = stablehlo.select %t, %i, %i : tensor<i1>, tensor<i32>
    stablehlo.return %x : tensor<i32>
  }
  func.return %0 : tensor<i32>
}
// CHECK: undefined_invalid.mlir:10:27: error: use of undefined value '%t' (no definition in scope)

// -----

func.func @never_defined(%a: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK: undefined_invalid.mlir:20:26: error: use of undefined value '%b' (no definition in scope)
