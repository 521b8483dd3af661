// RUN: xlir-opt %s --split-input-file -p dot-layout | filecheck %s
// RUN: xlir-opt %s --split-input-file -p dot-layout,dot-layout | filecheck %s

// A dot_general whose rhs contracts its last dim reads the rhs through a
// transpose that puts batch dims first, then contracting dims, then free
// dims; the result type is unchanged. Running the pass twice changes nothing
// more.

// A·Bᵀ.
// CHECK-LABEL: func.func @a_bt
func.func @a_bt(%a: tensor<8x64xf32>, %b: tensor<96x64xf32>) -> tensor<8x96xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [1, 0] : (tensor<96x64xf32>) -> tensor<64x96xf32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %a, %[[T]], contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<8x64xf32>, tensor<64x96xf32>) -> tensor<8x96xf32>
  // CHECK-NEXT: func.return %[[D]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1], precision = [HIGHEST, HIGHEST] : (tensor<8x64xf32>, tensor<96x64xf32>) -> tensor<8x96xf32>
  func.return %0 : tensor<8x96xf32>
}

// -----

// Aᵀ·Bᵀ: the lhs keeps its dims.
// CHECK-LABEL: func.func @at_bt
func.func @at_bt(%a: tensor<64x8xf32>, %b: tensor<96x64xf32>) -> tensor<8x96xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [1, 0] : (tensor<96x64xf32>) -> tensor<64x96xf32>
  // CHECK-NEXT: stablehlo.dot_general %a, %[[T]], contracting_dims = [0] x [0] : (tensor<64x8xf32>, tensor<64x96xf32>) -> tensor<8x96xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<64x8xf32>, tensor<96x64xf32>) -> tensor<8x96xf32>
  func.return %0 : tensor<8x96xf32>
}

// -----

// Batched, the rhs's batch dim in the middle.
// CHECK-LABEL: func.func @batched
func.func @batched(%a: tensor<4x8x64xf32>, %b: tensor<32x4x64xf32>) -> tensor<4x8x32xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [1, 2, 0] : (tensor<32x4x64xf32>) -> tensor<4x64x32xf32>
  // CHECK-NEXT: stablehlo.dot_general %a, %[[T]], batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x64xf32>, tensor<4x64x32xf32>) -> tensor<4x8x32xf32>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [1], contracting_dims = [2] x [2] : (tensor<4x8x64xf32>, tensor<32x4x64xf32>) -> tensor<4x8x32xf32>
  func.return %0 : tensor<4x8x32xf32>
}

// -----

// Two contracting dims, listed out of order: they keep the order of the
// list, so each still pairs with its lhs dim; lying together in both
// operands then, they merge into one (merge_contracting.mlir).
// CHECK-LABEL: func.func @two_contracting
func.func @two_contracting(%a: tensor<4x64x16xf32>, %b: tensor<16x8x64xf32>) -> tensor<4x8xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [2, 0, 1] : (tensor<16x8x64xf32>) -> tensor<64x16x8xf32>
  // CHECK-NEXT: %[[A:.*]] = stablehlo.reshape %a : (tensor<4x64x16xf32>) -> tensor<4x1024xf32>
  // CHECK-NEXT: %[[B:.*]] = stablehlo.reshape %[[T]] : (tensor<64x16x8xf32>) -> tensor<1024x8xf32>
  // CHECK-NEXT: stablehlo.dot_general %[[A]], %[[B]], contracting_dims = [1] x [0] : (tensor<4x1024xf32>, tensor<1024x8xf32>) -> tensor<4x8xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1, 2] x [2, 0] : (tensor<4x64x16xf32>, tensor<16x8x64xf32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// -----

// Two free dims keep their order; last in the transposed rhs, they are then
// merged into one (a reshape), and the result reshaped back.
// CHECK-LABEL: func.func @two_free
func.func @two_free(%a: tensor<8x64xi32>, %b: tensor<6x16x64xi32>) -> tensor<8x6x16xi32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [2, 0, 1] : (tensor<6x16x64xi32>) -> tensor<64x6x16xi32>
  // CHECK-NEXT: %[[M:.*]] = stablehlo.reshape %[[T]] : (tensor<64x6x16xi32>) -> tensor<64x96xi32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %a, %[[M]], contracting_dims = [1] x [0] : (tensor<8x64xi32>, tensor<64x96xi32>) -> tensor<8x96xi32>
  // CHECK-NEXT: stablehlo.reshape %[[D]] : (tensor<8x96xi32>) -> tensor<8x6x16xi32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [2] : (tensor<8x64xi32>, tensor<6x16x64xi32>) -> tensor<8x6x16xi32>
  func.return %0 : tensor<8x6x16xi32>
}

// -----

// A·B already reads B with unit stride along its free dim.
// CHECK-LABEL: func.func @a_b
func.func @a_b(%a: tensor<8x64xf32>, %b: tensor<64x96xf32>) -> tensor<8x96xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x96xf32>) -> tensor<8x96xf32>
  func.return %0 : tensor<8x96xf32>
}

// -----

// An rhs transposed already (by the program) is left as it is.
// CHECK-LABEL: func.func @already_transposed
func.func @already_transposed(%a: tensor<8x64xf32>, %b: tensor<96x64xf32>) -> tensor<8x96xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [1, 0]
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      stablehlo.dot_general %a, %[[T]], contracting_dims = [1] x [0]
  %t = stablehlo.transpose %b, dims = [1, 0] : (tensor<96x64xf32>) -> tensor<64x96xf32>
  %0 = stablehlo.dot_general %a, %t, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x96xf32>) -> tensor<8x96xf32>
  func.return %0 : tensor<8x96xf32>
}

// -----

// A small rhs (fewer than min-elements = 4096) is not worth a kernel.
// CHECK-LABEL: func.func @small_rhs
func.func @small_rhs(%a: tensor<8x16xf32>, %b: tensor<16x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      stablehlo.dot_general %a, %b, contracting_dims = [1] x [1]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}

// -----

// A matrix-vector product has no free extent to vectorize along.
// CHECK-LABEL: func.func @matrix_vector
func.func @matrix_vector(%a: tensor<8x8192xf32>, %b: tensor<1x8192xf32>, %v: tensor<8192xf32>) -> (tensor<8x1xf32>, tensor<8xf32>) {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      stablehlo.dot_general %a, %b, contracting_dims = [1] x [1]
  // CHECK:      stablehlo.dot_general %a, %v, contracting_dims = [1] x [0]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<8x8192xf32>, tensor<1x8192xf32>) -> tensor<8x1xf32>
  %1 = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<8x8192xf32>, tensor<8192xf32>) -> tensor<8xf32>
  func.return %0, %1 : tensor<8x1xf32>, tensor<8xf32>
}

// -----

// An lhs of one row reads each rhs element once: a transpose would read and
// write each once more (kv_cache_decode's scores, a query row per batch and
// head against the cached keys [b, t, h, d]). Of two rows, it is transposed.
// CHECK-LABEL: func.func @one_lhs_row
func.func @one_lhs_row(%q: tensor<8x4x64xf32>, %k: tensor<8x512x4x64xf32>, %r: tensor<1x64xf32>, %s: tensor<2x64xf32>, %b: tensor<96x64xf32>) -> (tensor<8x4x512xf32>, tensor<1x96xf32>, tensor<2x96xf32>) {
  // CHECK-NEXT: %[[S:.*]] = stablehlo.dot_general %q, %k, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3]
  // CHECK-NEXT: %[[R:.*]] = stablehlo.dot_general %r, %b, contracting_dims = [1] x [1]
  // CHECK-NEXT: %[[T:.*]] = stablehlo.transpose %b, dims = [1, 0]
  // CHECK-NEXT: stablehlo.dot_general %s, %[[T]], contracting_dims = [1] x [0]
  %0 = stablehlo.dot_general %q, %k, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3] : (tensor<8x4x64xf32>, tensor<8x512x4x64xf32>) -> tensor<8x4x512xf32>
  %1 = stablehlo.dot_general %r, %b, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<96x64xf32>) -> tensor<1x96xf32>
  %2 = stablehlo.dot_general %s, %b, contracting_dims = [1] x [1] : (tensor<2x64xf32>, tensor<96x64xf32>) -> tensor<2x96xf32>
  func.return %0, %1, %2 : tensor<8x4x512xf32>, tensor<1x96xf32>, tensor<2x96xf32>
}

// -----

// An image batch [b, k, w, c] contracted along k, by an lhs of 24 rows (at
// least MIN_LHS_ROWS = 16): the batch dim b is free and comes before k, so
// the rhs is read through a transpose to [k, b, w, c], whose free dims merge
// into one unit-stride dim of b * w * c elements: B is a plain matrix.
// CHECK-LABEL: func.func @image_rows
func.func @image_rows(%a: tensor<32x24xf32>, %b: tensor<2x32x32x3xf32>) -> tensor<24x2x32x3xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [1, 0, 2, 3] : (tensor<2x32x32x3xf32>) -> tensor<32x2x32x3xf32>
  // CHECK-NEXT: %[[M:.*]] = stablehlo.reshape %[[T]] : (tensor<32x2x32x3xf32>) -> tensor<32x192xf32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %a, %[[M]], contracting_dims = [0] x [0] : (tensor<32x24xf32>, tensor<32x192xf32>) -> tensor<24x192xf32>
  // CHECK-NEXT: %[[R:.*]] = stablehlo.reshape %[[D]] : (tensor<24x192xf32>) -> tensor<24x2x32x3xf32>
  // CHECK-NEXT: func.return %[[R]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<32x24xf32>, tensor<2x32x32x3xf32>) -> tensor<24x2x32x3xf32>
  func.return %0 : tensor<24x2x32x3xf32>
}

// -----

// The same image batch by an lhs of 8 rows (fewer than 16): the panels would
// be read too few times to pay for the transpose, so only the trailing free
// dims merge and the batch dim before k stays as it is.
// CHECK-LABEL: func.func @image_few_rows
func.func @image_few_rows(%a: tensor<32x8xf32>, %b: tensor<2x32x32x3xf32>) -> tensor<8x2x32x3xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      %[[M:.*]] = stablehlo.reshape %b : (tensor<2x32x32x3xf32>) -> tensor<2x32x96xf32>
  // CHECK-NEXT: stablehlo.dot_general %a, %[[M]], contracting_dims = [0] x [1] : (tensor<32x8xf32>, tensor<2x32x96xf32>) -> tensor<8x2x96xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<32x8xf32>, tensor<2x32x32x3xf32>) -> tensor<8x2x32x3xf32>
  func.return %0 : tensor<8x2x32x3xf32>
}

// -----

// A batched rhs with a free dim before k ([batch, free, k, free]): the batch
// keeps the panels from being packed anyway, so no transpose is made.
// CHECK-LABEL: func.func @batched_free_first
func.func @batched_free_first(%a: tensor<4x32x64xf32>, %b: tensor<4x8x64x32xf32>) -> tensor<4x32x8x32xf32> {
  // CHECK-NOT: stablehlo.transpose
  // CHECK:     stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [2]
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<4x32x64xf32>, tensor<4x8x64x32xf32>) -> tensor<4x32x8x32xf32>
  func.return %0 : tensor<4x32x8x32xf32>
}

// -----

// A batched rhs whose last dim alone is free is left as it is.
// CHECK-LABEL: func.func @one_free
func.func @one_free(%a: tensor<4x8x64xf32>, %b: tensor<4x64x32xf32>) -> tensor<4x8x32xf32> {
  // CHECK-NOT: stablehlo.reshape
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x64xf32>, tensor<4x64x32xf32>) -> tensor<4x8x32xf32>
  func.return %0 : tensor<4x8x32xf32>
}

// -----

// A rhs another dot makes, used only here: that dot swaps its operands and
// makes the rhs transposed, instead of a transpose kernel. Its own rhs (%b,
// contracted along its last dim) is then its lhs, and needs no transpose
// either: an einsum chain without transposes.
// CHECK-LABEL: func.func @dot_makes_the_rhs
func.func @dot_makes_the_rhs(%a: tensor<128x64xf32>, %b: tensor<96x128xf32>, %c: tensor<16x96xf32>) -> tensor<16x64xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      %[[P:.*]] = stablehlo.dot_general %b, %a, contracting_dims = [1] x [0], precision = [HIGHEST, DEFAULT] : (tensor<96x128xf32>, tensor<128x64xf32>) -> tensor<96x64xf32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %c, %[[P]], contracting_dims = [1] x [0] : (tensor<16x96xf32>, tensor<96x64xf32>) -> tensor<16x64xf32>
  // CHECK-NEXT: func.return %[[D]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1], precision = [DEFAULT, HIGHEST] : (tensor<128x64xf32>, tensor<96x128xf32>) -> tensor<64x96xf32>
  %1 = stablehlo.dot_general %c, %0, contracting_dims = [1] x [1] : (tensor<16x96xf32>, tensor<64x96xf32>) -> tensor<16x64xf32>
  func.return %1 : tensor<16x64xf32>
}

// -----

// Batched: the swapped dot keeps its batch dim first.
// CHECK-LABEL: func.func @batched_dot_makes_the_rhs
func.func @batched_dot_makes_the_rhs(%a: tensor<4x64x32xf32>, %b: tensor<4x48x64xf32>, %c: tensor<4x8x48xf32>) -> tensor<4x8x32xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      %[[P:.*]] = stablehlo.dot_general %b, %a, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x48x64xf32>, tensor<4x64x32xf32>) -> tensor<4x48x32xf32>
  // CHECK-NEXT: stablehlo.dot_general %c, %[[P]], batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x48xf32>, tensor<4x48x32xf32>) -> tensor<4x8x32xf32>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<4x64x32xf32>, tensor<4x48x64xf32>) -> tensor<4x32x48xf32>
  %1 = stablehlo.dot_general %c, %0, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<4x8x48xf32>, tensor<4x32x48xf32>) -> tensor<4x8x32xf32>
  func.return %1 : tensor<4x8x32xf32>
}

// -----

// Not swapped where the rhs's dot has another use (both results would be
// needed), or where its lhs, contracted along its last dim, would need a
// transpose once it is the rhs.
// CHECK-LABEL: func.func @dot_rhs_used_twice
func.func @dot_rhs_used_twice(%a: tensor<128x64xf32>, %b: tensor<128x96xf32>, %c: tensor<16x96xf32>) -> (tensor<16x64xf32>, tensor<64x96xf32>) {
  // CHECK:      %[[P:.*]] = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<128x64xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>
  // CHECK-NEXT: %[[T:.*]] = stablehlo.transpose %[[P]], dims = [1, 0] : (tensor<64x96xf32>) -> tensor<96x64xf32>
  // CHECK-NEXT: stablehlo.dot_general %c, %[[T]], contracting_dims = [1] x [0] : (tensor<16x96xf32>, tensor<96x64xf32>) -> tensor<16x64xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<128x64xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>
  %1 = stablehlo.dot_general %c, %0, contracting_dims = [1] x [1] : (tensor<16x96xf32>, tensor<64x96xf32>) -> tensor<16x64xf32>
  func.return %1, %0 : tensor<16x64xf32>, tensor<64x96xf32>
}

// CHECK-LABEL: func.func @dot_lhs_would_need_a_transpose
func.func @dot_lhs_would_need_a_transpose(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>, %c: tensor<16x96xf32>) -> tensor<16x64xf32> {
  // CHECK:      %[[P:.*]] = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>
  // CHECK-NEXT: %[[T:.*]] = stablehlo.transpose %[[P]], dims = [1, 0] : (tensor<64x96xf32>) -> tensor<96x64xf32>
  // CHECK-NEXT: stablehlo.dot_general %c, %[[T]], contracting_dims = [1] x [0] : (tensor<16x96xf32>, tensor<96x64xf32>) -> tensor<16x64xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>
  %1 = stablehlo.dot_general %c, %0, contracting_dims = [1] x [1] : (tensor<16x96xf32>, tensor<64x96xf32>) -> tensor<16x64xf32>
  func.return %1 : tensor<16x64xf32>
}

// -----

// A dot whose rhs (%b) needs a transpose, read only by a dot as its rhs:
// the dot is swapped (its rhs %a then needs none) and the reader renames
// its rhs dims (batch and contracting dim change places); no transpose.
// CHECK-LABEL: func.func @dots_read_the_result
func.func @dots_read_the_result(%a: tensor<128x128xf32>, %b: tensor<64x128xf32>, %c: tensor<64x128xf32>) -> tensor<64xf32> {
  // CHECK-NOT:  stablehlo.transpose
  // CHECK:      %[[P:.*]] = stablehlo.dot_general %b, %a, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.dot_general %c, %[[P]], batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64xf32>
  // CHECK-NEXT: func.return %[[D]]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<128x64xf32>
  %1 = stablehlo.dot_general %c, %0, batching_dims = [0] x [1], contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64xf32>
  func.return %1 : tensor<64xf32>
}

// -----

// Not swapped where something else reads the result, or where the reader
// would then need a transpose of its own (it contracts the swapped
// result's last dim): the dot's rhs is transposed as before.
// CHECK-LABEL: func.func @result_returned_too
func.func @result_returned_too(%a: tensor<128x128xf32>, %b: tensor<64x128xf32>, %c: tensor<64x128xf32>) -> (tensor<64xf32>, tensor<128x64xf32>) {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [1, 0]
  // CHECK-NEXT: %[[P:.*]] = stablehlo.dot_general %a, %[[T]], contracting_dims = [0] x [0]
  // CHECK-NEXT: stablehlo.dot_general %c, %[[P]], batching_dims = [0] x [1], contracting_dims = [1] x [0]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<128x64xf32>
  %1 = stablehlo.dot_general %c, %0, batching_dims = [0] x [1], contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64xf32>
  func.return %1, %0 : tensor<64xf32>, tensor<128x64xf32>
}

// CHECK-LABEL: func.func @reader_would_need_a_transpose
func.func @reader_would_need_a_transpose(%a: tensor<128x128xf32>, %b: tensor<64x128xf32>, %c: tensor<32x128xf32>) -> tensor<32x64xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [1, 0]
  // CHECK-NEXT: %[[P:.*]] = stablehlo.dot_general %a, %[[T]], contracting_dims = [0] x [0]
  // CHECK-NEXT: stablehlo.dot_general %c, %[[P]], contracting_dims = [1] x [0]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<128x64xf32>
  %1 = stablehlo.dot_general %c, %0, contracting_dims = [1] x [0] : (tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>
  func.return %1 : tensor<32x64xf32>
}

// Nor where the reader's free dims would change places (its result's
// dims would): an outer product with the result.
// CHECK-LABEL: func.func @reader_free_dims_would_swap
func.func @reader_free_dims_would_swap(%a: tensor<128x128xf32>, %b: tensor<64x128xf32>, %c: tensor<2xf32>) -> tensor<2x128x64xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [1, 0]
  // CHECK-NEXT: %[[P:.*]] = stablehlo.dot_general %a, %[[T]], contracting_dims = [0] x [0]
  // CHECK-NEXT: stablehlo.reshape %[[P]] : (tensor<128x64xf32>) -> tensor<8192xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<128x64xf32>
  %1 = stablehlo.dot_general %c, %0, contracting_dims = [] x [] : (tensor<2xf32>, tensor<128x64xf32>) -> tensor<2x128x64xf32>
  func.return %1 : tensor<2x128x64xf32>
}

// -----

// The dot's algorithm stays on the rebuilt dot (its operands keep their
// roles), with its precision.
// CHECK-LABEL: func.func @algorithm_kept
func.func @algorithm_kept(%a: tensor<8x64xf32>, %b: tensor<96x64xf32>) -> tensor<8x96xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [1, 0]
  // CHECK-NEXT: stablehlo.dot_general %a, %[[T]], contracting_dims = [1] x [0], precision = [HIGH, HIGH], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<8x64xf32>, tensor<64x96xf32>) -> tensor<8x96xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1], precision = [HIGH, HIGH], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<8x64xf32>, tensor<96x64xf32>) -> tensor<8x96xf32>
  func.return %0 : tensor<8x96xf32>
}

// -----

// A rhs whose trailing free dims merge into one keeps the algorithm too.
// CHECK-LABEL: func.func @algorithm_kept_merging_free_dims
func.func @algorithm_kept_merging_free_dims(%a: tensor<8x64xf32>, %b: tensor<64x8x12xf32>) -> tensor<8x8x12xf32> {
  // CHECK:      %[[B:.*]] = stablehlo.reshape %b : (tensor<64x8x12xf32>) -> tensor<64x96xf32>
  // CHECK-NEXT: stablehlo.dot_general %a, %[[B]], contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<8x64xf32>, tensor<64x96xf32>) -> tensor<8x96xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<8x64xf32>, tensor<64x8x12xf32>) -> tensor<8x8x12xf32>
  func.return %0 : tensor<8x8x12xf32>
}
