// RUN: not xlir-opt %s -p hlo-to-loop 2>&1 | filecheck %s

// hlo-to-loop bufferizes by the buffer plan: without one it says what to run.

// CHECK: unplanned.mlir:[[# @LINE + 1]]:1: error: hlo-to-loop: function @main has no buffer plan; run `hlo-opt` (or `fuse,assign-buffers`) first
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
