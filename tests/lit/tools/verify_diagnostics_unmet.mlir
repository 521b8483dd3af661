// MLIR's --verify-diagnostics fails (exit 1) on a diagnostic no annotation
// expects, an annotation no diagnostic meets, a misplaced one and a malformed
// one, each reported at its place.
// RUN: not xlir-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s

func.func @unexpected(%a: tensor<2xf32>) -> tensor<3xf32> {
  return %a : tensor<2xf32>
}
// CHECK-DAG: verify_diagnostics_unmet.mlir:7:3: error: unexpected error: Expected arguments to have the same types as the function output types

// -----

func.func @never_produced(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32> // expected-error {{no such error}}
}
// CHECK-DAG: verify_diagnostics_unmet.mlir:14:32: error: expected error "no such error" was not produced

// -----

func.func @wrong_line(%a: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+2 {{function output types}}
  return %a : tensor<2xf32>
}
// CHECK-DAG: verify_diagnostics_unmet.mlir:22:3: error: unexpected error:
// CHECK-DAG: verify_diagnostics_unmet.mlir:21:6: error: expected error "function output types" was not produced

// -----

func.func @wrong_severity(%a: tensor<2xf32>) -> tensor<3xf32> {
  return %a : tensor<2xf32> // expected-warning {{function output types}}
}
// CHECK-DAG: verify_diagnostics_unmet.mlir:30:3: error: unexpected error:
// CHECK-DAG: verify_diagnostics_unmet.mlir:30:32: error: expected warning "function output types" was not produced

// -----

// expected-error@below without braces
func.func @malformed(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
// CHECK-DAG: verify_diagnostics_unmet.mlir:37:4: error: expected '{{[{][{]}}' and '{{[}][}]}}' around the text of 'expected{{-}}error'
