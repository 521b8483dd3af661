// RUN: xlir-opt %s --split-input-file -p 'hlo-opt,hlo-to-loop,register-tile{mr=4 nr=8 lanes=4}' | filecheck %s

// The tile's rows are the innermost dimension that reuses a load with at
// least mr iterations: here the lhs's 3 channels (innermost, 3 < 4) would
// make tiles of 3 rows, so its 8 rows are the tile's rows (an image
// resize's second dot, [224, 8, 256, 3] x [256, 224]).
// CHECK-LABEL: loop.kernel @dot_general_1
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (8, 3, 8) step (4, 1, 8) attributes {jam = array<i64: 4, 1, 8>}
func.func @main(%a: tensor<8x16x3xf32>, %b: tensor<16x8xf32>) -> tensor<8x3x8xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16x3xf32>, tensor<16x8xf32>) -> tensor<8x3x8xf32>
  return %d : tensor<8x3x8xf32>
}

// -----

// The innermost such dimension has 8 >= 4 iterations: it stays the rows.
// CHECK-LABEL: loop.kernel @dot_general_1
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (3, 8, 8) step (1, 4, 8) attributes {jam = array<i64: 1, 4, 8>}
func.func @main(%a: tensor<3x16x8xf32>, %b: tensor<16x8xf32>) -> tensor<3x8x8xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x16x8xf32>, tensor<16x8xf32>) -> tensor<3x8x8xf32>
  return %d : tensor<3x8x8xf32>
}
