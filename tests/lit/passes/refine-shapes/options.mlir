// RUN: not xlir-opt %s -p 'refine-shapes{types="tensor<3xf32"}' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not xlir-opt %s -p 'refine-shapes{types="tensor<3xf32> x"}' 2>&1 | filecheck %s --check-prefix=TRAILING
// RUN: not xlir-opt %s -p 'refine-shapes{types="tensor<3xi32>"}' 2>&1 | filecheck %s --check-prefix=ELEMENT
// RUN: not xlir-opt %s -p refine-shapes 2>&1 | filecheck %s --check-prefix=NONE
// RUN: xlir-opt %s -p 'refine-shapes{types="tensor<3xf32>" function="main"}' | filecheck %s

// The types option: tensor types separated by commas, each refining the
// argument it stands for.

// SYNTAX: error: refine-shapes: the types option is not a list of types: Expected '>' after builtin parameter list
// TRAILING: error: refine-shapes: the types option is not a list of types: expected ',' or the end of the types
// ELEMENT: options.mlir:15:1: error: refine-shapes: argument #0 of @main has type tensor<?xf32>, which the static type tensor<3xi32> does not refine
// NONE: options.mlir:15:1: error: refine-shapes: argument #0 of @main has the dynamic type tensor<?xf32>; give static argument types
// CHECK: func.func @main(%a: tensor<3xf32>) -> tensor<3xf32>
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}
