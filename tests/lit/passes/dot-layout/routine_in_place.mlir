// RUN: xlir-opt %s --split-input-file -p 'dot-layout{routine-panel=32 routine-max-k=65536}' | filecheck %s
// RUN: xlir-opt %s --split-input-file -p 'dot-layout{routine-panel=32 routine-max-k=65536},dot-layout{routine-panel=32 routine-max-k=65536}' | filecheck %s
// RUN: xlir-opt %s --split-input-file -p dot-layout | filecheck %s --check-prefix=NONE

// With a GEMM routine of 32-column panels that reads an rhs at any stride,
// an unbatched f32 A·Bᵀ it will compute keeps its rhs in place; without
// one (NONE), the rhs is transposed. Running the pass twice changes
// nothing more.

// A·Bᵀ read by a reduction (not elementwise: no epilogue).
// CHECK-LABEL: func.func @a_bt
// NONE-LABEL:  func.func @a_bt
func.func @a_bt(%a: tensor<8x64xf32>, %b: tensor<96x64xf32>) -> tensor<8xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<96x64xf32>) -> tensor<8x96xf32>
  // NONE:       stablehlo.transpose %b, dims = [1, 0]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<96x64xf32>) -> tensor<8x96xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x96xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %1 : tensor<8xf32>
}

// -----

// einsum_permuted_output's dot, `[k, m] x [b, n, k]`: the rhs's free dims
// lie together before k and merge into one (a reshape, renumbering k), the
// result is reshaped back.
// CHECK-LABEL: func.func @free_dims_merged
// NONE-LABEL:  func.func @free_dims_merged
func.func @free_dims_merged(%a: tensor<256x128xf32>, %b: tensor<4x16x256xf32>) -> tensor<128x4x16xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      %[[B:.*]] = stablehlo.reshape %b : (tensor<4x16x256xf32>) -> tensor<64x256xf32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %a, %[[B]], contracting_dims = [0] x [1] : (tensor<256x128xf32>, tensor<64x256xf32>) -> tensor<128x64xf32>
  // CHECK-NEXT: %[[R:.*]] = stablehlo.reshape %[[D]] : (tensor<128x64xf32>) -> tensor<128x4x16xf32>
  // CHECK-NEXT: func.return %[[R]]
  // NONE:       stablehlo.transpose %b, dims = [2, 0, 1]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [2] : (tensor<256x128xf32>, tensor<4x16x256xf32>) -> tensor<128x4x16xf32>
  func.return %0 : tensor<128x4x16xf32>
}

// -----

// Read only by elementwise ops, the dot would be fused with them as its
// epilogue (a conversion to bf16 here, which the routine's caller does not
// run): the rhs is transposed.
// CHECK-LABEL: func.func @epilogue
func.func @epilogue(%a: tensor<8x64xf32>, %b: tensor<96x64xf32>) -> tensor<8x96xbf16> {
  // CHECK:      stablehlo.transpose %b, dims = [1, 0]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<96x64xf32>) -> tensor<8x96xf32>
  %1 = stablehlo.convert %0 : (tensor<8x96xf32>) -> tensor<8x96xbf16>
  func.return %1 : tensor<8x96xbf16>
}

// -----

// Not f32, batched, the lhs's contracting dim in the middle, a sum longer
// than routine-max-k, or a last panel mostly past N (40 columns: 64
// computed): each rhs is transposed.
// CHECK-LABEL: func.func @not_for_the_routine
func.func @not_for_the_routine(%a: tensor<8x64xf64>, %b: tensor<96x64xf64>, %c: tensor<4x8x64xf32>, %d: tensor<4x96x64xf32>, %e: tensor<4x64x8xf32>, %f: tensor<96x64xf32>, %g: tensor<2x65600xf32>, %h: tensor<8x65600xf32>, %j: tensor<40x128xf32>, %k: tensor<8x128xf32>) -> (tensor<8x96xf64>, tensor<4x8x96xf32>, tensor<4x8x96xf32>, tensor<2x8xf32>, tensor<8x40xf32>) {
  // CHECK: stablehlo.transpose %b, dims = [1, 0]
  // CHECK: stablehlo.transpose %d, dims = [0, 2, 1]
  // CHECK: stablehlo.transpose %f, dims = [1, 0]
  // CHECK: stablehlo.transpose %h, dims = [1, 0]
  // CHECK: stablehlo.transpose %j, dims = [1, 0]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<8x64xf64>, tensor<96x64xf64>) -> tensor<8x96xf64>
  %1 = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<4x8x64xf32>, tensor<4x96x64xf32>) -> tensor<4x8x96xf32>
  %2 = stablehlo.dot_general %e, %f, contracting_dims = [1] x [1] : (tensor<4x64x8xf32>, tensor<96x64xf32>) -> tensor<4x8x96xf32>
  %3 = stablehlo.dot_general %g, %h, contracting_dims = [1] x [1] : (tensor<2x65600xf32>, tensor<8x65600xf32>) -> tensor<2x8xf32>
  %4 = stablehlo.dot_general %k, %j, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<40x128xf32>) -> tensor<8x40xf32>
  func.return %0, %1, %2, %3, %4 : tensor<8x96xf64>, tensor<4x8x96xf32>, tensor<4x8x96xf32>, tensor<2x8xf32>, tensor<8x40xf32>
}
