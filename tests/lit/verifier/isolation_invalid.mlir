// Ops with the IsolatedFromAbove trait (func.func, hlo.fusion) see nothing
// defined outside them.
// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

%a = stablehlo.constant dense<1.0> : tensor<4xf32>
func.func @uses_a_module_value(%b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %b, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: isolation_invalid.mlir:7:3: error: 'stablehlo.add' op operand #1 uses a value defined outside the region of 'func.func', which is isolated from above
// CHECK: isolation_invalid.mlir:6:1: note: required by the isolation of this op's regions

// -----

func.func @fusion_captures(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.fusion"(%a) <{kind = #hlo<fusion_kind loop>}> ({
  ^bb0(%x: tensor<4xf32>):
    %1 = stablehlo.add %x, %a : tensor<4xf32>
    "hlo.yield"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: isolation_invalid.mlir:18:5: error: 'stablehlo.add' op operand #1 uses a value defined outside the region of 'hlo.fusion', which is isolated from above
// CHECK: isolation_invalid.mlir:16:3: note: required by the isolation of this op's regions
