// RUN: xlir-opt %s --split-input-file -p 'dot-layout{routine-panel=32 routine-max-k=65536 routine-batched-min=256 routine-batched-max-k=255}' | filecheck %s
// RUN: xlir-opt %s --split-input-file -p 'dot-layout{routine-panel=32 routine-max-k=65536}' | filecheck %s --check-prefix=NONE

// With a GEMM routine whose batched entry takes matrices at least 256
// square and sums of at most 255 terms, a batched f32 A·Bᵀ of that shape
// (einsum_batch_heads' `[b, h, s, d] x [b, h, t, d]`) keeps its rhs in
// place: the entry's panel copy transposes it. Without the batched entry
// (NONE), the rhs is transposed.
// CHECK-LABEL: func.func @heads
// NONE-LABEL:  func.func @heads
func.func @heads(%a: tensor<2x3x256x64xf32>, %b: tensor<2x3x256x64xf32>) -> tensor<2x3x256x256xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK-NOT:  stablehlo.reshape
  // CHECK:      stablehlo.dot_general %a, %b, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : (tensor<2x3x256x64xf32>, tensor<2x3x256x64xf32>) -> tensor<2x3x256x256xf32>
  // NONE:       stablehlo.transpose %b, dims = [0, 1, 3, 2]
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : (tensor<2x3x256x64xf32>, tensor<2x3x256x64xf32>) -> tensor<2x3x256x256xf32>
  func.return %0 : tensor<2x3x256x256xf32>
}

// -----

// The lhs's contracting dim first after the batch dims (`[b, k, m]`) is
// read in place too.
// CHECK-LABEL: func.func @lhs_transposed
func.func @lhs_transposed(%a: tensor<2x64x256xf32>, %b: tensor<2x300x64xf32>) -> tensor<2x256x300xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [2]
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<2x64x256xf32>, tensor<2x300x64xf32>) -> tensor<2x256x300xf32>
  func.return %0 : tensor<2x256x300xf32>
}

// -----

// Each rhs is transposed: matrices of 255 rows, or of 128 columns, a sum
// of 256 terms, the batch dims not leading in the lhs (`[s, b, d]`), two
// free dims in the rhs, and a result read only by elementwise ops (the
// dot's epilogue, which the batched entry does not run).
// CHECK-LABEL: func.func @not_for_the_batched_entry
func.func @not_for_the_batched_entry(%a: tensor<2x255x64xf32>, %b: tensor<2x256x64xf32>, %c: tensor<2x256x64xf32>, %d: tensor<2x128x64xf32>, %e: tensor<2x256x256xf32>, %f: tensor<2x256x256xf32>, %g: tensor<256x2x64xf32>, %h: tensor<2x16x16x64xf32>) -> (tensor<2x255x256xf32>, tensor<2x256x128xf32>, tensor<2x256x256xf32>, tensor<2x256x256xf32>, tensor<2x256x16x16xf32>, tensor<2x256x256xf32>) {
  // CHECK: stablehlo.transpose %b, dims = [0, 2, 1]
  // CHECK: stablehlo.transpose %d, dims = [0, 2, 1]
  // CHECK: stablehlo.transpose %f, dims = [0, 2, 1]
  // CHECK: stablehlo.transpose %b, dims = [0, 2, 1]
  // CHECK: stablehlo.transpose %h, dims = [0, 3, 1, 2]
  // CHECK: stablehlo.transpose %b, dims = [0, 2, 1]
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x255x64xf32>, tensor<2x256x64xf32>) -> tensor<2x255x256xf32>
  %1 = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x256x64xf32>, tensor<2x128x64xf32>) -> tensor<2x256x128xf32>
  %2 = stablehlo.dot_general %e, %f, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x256x256xf32>, tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  %3 = stablehlo.dot_general %g, %b, batching_dims = [1] x [0], contracting_dims = [2] x [2] : (tensor<256x2x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x256xf32>
  %4 = stablehlo.dot_general %c, %h, batching_dims = [0] x [0], contracting_dims = [2] x [3] : (tensor<2x256x64xf32>, tensor<2x16x16x64xf32>) -> tensor<2x256x16x16xf32>
  %5 = stablehlo.dot_general %c, %b, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x256xf32>
  %6 = stablehlo.exponential %5 : tensor<2x256x256xf32>
  func.return %0, %1, %2, %3, %4, %6 : tensor<2x255x256xf32>, tensor<2x256x128xf32>, tensor<2x256x256xf32>, tensor<2x256x256xf32>, tensor<2x256x16x16xf32>, tensor<2x256x256xf32>
}
