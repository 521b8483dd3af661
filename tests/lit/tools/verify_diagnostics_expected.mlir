// MLIR's --verify-diagnostics: every diagnostic is expected by an annotation
// and every annotation is met, so the run exits 0; the chunks that succeed
// are printed. The placements: the same line, @+N/@-N, @above and @below.
// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @before_definition(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %0 = stablehlo.add %1, %a : tensor<2xf32>
  // expected-note@below {{operand defined here}}
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @wrong_result(%a: tensor<2xf32>) -> tensor<3xf32> {
  return %a : tensor<2xf32> // expected-error {{function output types}}
}

// -----

func.func @regex(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 1] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // expected-error-re@-1 {{permutation [{{[0-9, ]+}}] is not a permutation}}
  return %0 : tensor<3x2xf32>
}

// -----

// @above: the nearest line above without an annotation.
func.func @above(%a: tensor<2xf32>) -> tensor<3xf32> {
  return %a : tensor<2xf32>
  // expected-error@above {{expected [tensor<3xf32>], got [tensor<2xf32>]}}
}

// -----

// CHECK: func.func @fine
func.func @fine(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
