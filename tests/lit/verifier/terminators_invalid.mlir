// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every block ends in a terminator (MLIR's rule; xDSL checks only that a
// terminator stands last). An empty function body used to verify and then
// fail inside assign-buffers.

func.func @empty_body(%x: tensor<f32>) {
}
// CHECK: terminators_invalid.mlir:7:1: error: 'func.func' op block #0 of region #0 is empty: a block must end in a terminator

// -----

func.func @no_return(%x: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.negate %x : tensor<f32>
}
// CHECK: terminators_invalid.mlir:13:1: error: 'func.func' op block #0 of region #0 ends in 'stablehlo.negate': a block must end in a terminator

// -----

// A module's body needs none.
// CHECK-NOT: error
// CHECK: builtin.module
module {
  func.func @fine() {
    func.return
  }
}
