// RUN: xlir-opt %s --split-input-file -p assign-buffers --verify-diagnostics | filecheck %s

// Buffers need static shapes: a dynamic dimension is an error at the value's
// definition (for a function argument, the function), not a plan of negative
// sizes.

func.func @dynamic_argument(%a: tensor<?x16xf32>) -> tensor<?x16xf32> {
  func.return %a : tensor<?x16xf32>
}
// CHECK: dynamic_shapes.mlir:7:1: error: assign-buffers: argument #0 of 'func.func' has the dynamic shape tensor<?x16xf32>; buffers need static shapes

// -----

func.func @dynamic_result(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<?x8xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<?x8xf32>
  func.return %0 : tensor<?x8xf32>
}
// CHECK: dynamic_shapes.mlir:15:3: error: assign-buffers: result #0 of 'stablehlo.dot_general' has the dynamic shape tensor<?x8xf32>; buffers need static shapes

// -----

// A size no machine addresses is an error too, not an overflow of the plan's
// int64 offsets (a mutant's shape).
func.func @huge(%a: tensor<3xf32>) -> tensor<3x9223372036854775807xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<3xf32>) -> tensor<3x9223372036854775807xf32>
  func.return %0 : tensor<3x9223372036854775807xf32>
}
// CHECK: dynamic_shapes.mlir:25:3: error: assign-buffers: result #0 of 'stablehlo.broadcast_in_dim' (tensor<3x9223372036854775807xf32>) takes 110680464442257309684 bytes; buffers take at most 281474976710656
