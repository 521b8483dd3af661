// SSA dominance, by MLIR's rules: each use is dominated by its definition.
// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @use_before_def(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %1, %a : tensor<4xf32>
  %1 = stablehlo.add %a, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: dominance_invalid.mlir:5:3: error: 'stablehlo.multiply' op operand #0 does not dominate this use
// CHECK-NEXT: %0 = stablehlo.multiply %1, %a : tensor<4xf32>
// CHECK-NEXT: ^
// CHECK-NEXT: dominance_invalid.mlir:6:3: note: operand defined here (the result of 'stablehlo.add', in the same block)

// -----

func.func @self_use(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %0, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: dominance_invalid.mlir:17:3: error: 'stablehlo.add' op operand #0 does not dominate this use
// CHECK: dominance_invalid.mlir:17:3: note: operand defined here (the result of 'stablehlo.add', in the same block)

// -----

// The second operand: the diagnostic names it.
func.func @second_operand(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %1 : tensor<4xf32>
  %1 = stablehlo.negate %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: dominance_invalid.mlir:27:3: error: 'stablehlo.add' op operand #1 does not dominate this use
// CHECK: dominance_invalid.mlir:28:3: note: operand defined here (the result of 'stablehlo.negate', in the same block)

// -----

// A region may use what its op's block defines before the op, not after.
func.func @later_in_enclosing_block(%n: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%i = %n) : tensor<i32>
  cond {
    %c = stablehlo.compare LT, %i, %late : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %i : tensor<i32>
  }
  %late = stablehlo.constant dense<10> : tensor<i32>
  func.return %0 : tensor<i32>
}
// CHECK: dominance_invalid.mlir:40:5: error: 'stablehlo.compare' op operand #1 does not dominate this use
// CHECK: dominance_invalid.mlir:45:3: note: operand defined here (the result of 'stablehlo.constant', in an enclosing region)

// -----

// An op's own results do not dominate its regions.
func.func @own_result_in_region(%n: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%i = %n) : tensor<i32>
  cond {
    %c = stablehlo.compare LT, %i, %0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %i : tensor<i32>
  }
  func.return %0 : tensor<i32>
}
// CHECK: dominance_invalid.mlir:57:5: error: 'stablehlo.compare' op operand #1 does not dominate this use
// CHECK: dominance_invalid.mlir:55:3: note: operand defined here (the result of 'stablehlo.while', in an enclosing region)
