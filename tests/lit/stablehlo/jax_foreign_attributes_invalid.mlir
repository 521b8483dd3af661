// RUN: not xlir-opt %s 2>&1 | filecheck %s

// An attribute of any other unknown dialect is still an error.

// CHECK: jax_foreign_attributes_invalid.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: 'foo.rule' is not registered
func.func @unknown(%a: tensor<3xf32>) -> tensor<3xf32> {
  %r = stablehlo.custom_call @f(%a) {foo.attr = #foo.rule<x>} : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
