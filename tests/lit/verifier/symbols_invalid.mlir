// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A symbol defined twice: the error stands at the second definition, not at
// the implicit module that holds both (found by the mutation fuzzer).
loop.global @twice : memref<4xf32> = dense<1.0>
loop.global @twice : memref<4xf32> = dense<1.0>
// CHECK: symbols_invalid.mlir:6:1: error: Redefinition of symbol "twice"

// -----

func.func @f() {
  func.return
}
func.func @f() {
  func.return
}
// CHECK: symbols_invalid.mlir:14:1: error: Redefinition of symbol "f"
