// RUN: xlir-opt %s --split-input-file -p 'fuse{explain=true}' 2>&1 | filecheck %s

// materialized: an elementwise producer that a reader outside any fusion (a
// dot) needs in memory is read from there by its other consumers, not
// recomputed from its full-size operands (which would then stay alive). Here
// the mask's fusion reads the dot, so it cannot also yield the relu.
// CHECK: {{.*}}materialized.mlir:[[# @LINE + 11]]:3: remark: fuse 'stablehlo.maximum' into 'stablehlo.compare' at {{.*}}: refused by materialized: 'stablehlo.maximum' is materialized for a reader outside any fusion; this fusion reads that buffer rather than recomputing it from full-size operands
// CHECK-LABEL: func.func @relu_read_by_dot
// CHECK:       %[[R:.*]] = hlo.fusion kind = loop (%x, %b)
// CHECK:         stablehlo.maximum
// CHECK:       stablehlo.dot_general %[[R]]
// CHECK:       hlo.fusion kind = loop (%[[R]], %{{.*}})
// CHECK-NOT:     stablehlo.add
// CHECK:         stablehlo.compare
func.func @relu_read_by_dot(%x: tensor<4x4xf32>, %b: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<4x4xf32>
  %a = stablehlo.add %x, %b : tensor<4x4xf32>
  %r = stablehlo.maximum %a, %z : tensor<4x4xf32>
  %d = stablehlo.dot_general %r, %w, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = stablehlo.compare GT, %r, %z, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
  %s = stablehlo.select %m, %d, %z : tensor<4x4xi1>, tensor<4x4xf32>
  func.return %d, %s : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Must not fire: a broadcast materialized for a dot is still duplicated into
// its elementwise consumer (it reads a row, not a full-size operand).
// CHECK-LABEL: func.func @broadcast_read_by_dot
// CHECK:       %[[B:.*]] = hlo.fusion kind = loop (%v)
// CHECK:       %[[D:.*]] = stablehlo.dot_general %[[B]]
// CHECK:       hlo.fusion kind = loop (%v, %[[D]])
// CHECK:         stablehlo.broadcast_in_dim
// CHECK:         stablehlo.add
func.func @broadcast_read_by_dot(%v: tensor<4xf32>, %w: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %b = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<4xf32>) -> tensor<4x4xf32>
  %d = stablehlo.dot_general %b, %w, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = stablehlo.add %b, %d : tensor<4x4xf32>
  func.return %d, %s : tensor<4x4xf32>, tensor<4x4xf32>
}
