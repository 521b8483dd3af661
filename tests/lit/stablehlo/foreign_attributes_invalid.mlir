// RUN: xlir-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Only attributes of the foreign dialects are kept: a type of such a
// dialect, or an unknown attribute of a dialect xlir knows, is an error at
// its name.

func.func @unknown_type(%x: !sdy.tensor<4xf32>) {
  return
}
// CHECK: foreign_attributes_invalid.mlir:7:40: error: 'sdy.tensor' is not registered

// -----

func.func @unknown_attribute_of_a_known_dialect() attributes {a = #stablehlo.frobnicate<1>} {
  return
}
// CHECK: foreign_attributes_invalid.mlir:14:88: error: 'stablehlo.frobnicate' is not registered
