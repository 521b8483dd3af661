// RUN: xlir-opt %s --split-input-file -p int-dot-quads | filecheck %s
// RUN: xlir-opt %s --split-input-file -p int-dot-quads,int-dot-quads | filecheck %s
// RUN: xlir-opt %s --split-input-file -p int-dot-quads,int-dot-in-f32,dot-layout | filecheck %s --check-prefix=KEPT

// An int8 dot into i32 contracting a multiple of 4 becomes a dot of byte
// quads: the lhs split to [m, k/4, 4], the rhs plus 128 as ui8 (the
// unsigned operand of vpdpbusd) with the four consecutive k of a column
// together ([k/4, n, 4]), and 128 * rowsum(lhs) subtracted. Running the
// pass twice changes nothing more; int-dot-in-f32 and dot-layout leave the
// quad dot alone (KEPT).

// CHECK-LABEL: func.func @signed
// CHECK:      %[[A:.*]] = stablehlo.reshape %a : (tensor<8x64xi8>) -> tensor<8x16x4xi8>
// CHECK-NEXT: %[[C:.*]] = stablehlo.constant dense<-128> : tensor<i8>
// CHECK-NEXT: %[[CS:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = [] : (tensor<i8>) -> tensor<64x32xi8>
// CHECK-NEXT: %[[X:.*]] = stablehlo.xor %b, %[[CS]] : tensor<64x32xi8>
// CHECK-NEXT: %[[U:.*]] = stablehlo.bitcast_convert %[[X]] : (tensor<64x32xi8>) -> tensor<64x32xui8>
// CHECK-NEXT: %[[S:.*]] = stablehlo.reshape %[[U]] : (tensor<64x32xui8>) -> tensor<16x4x32xui8>
// CHECK-NEXT: %[[B:.*]] = stablehlo.transpose %[[S]], dims = [0, 2, 1] : (tensor<16x4x32xui8>) -> tensor<16x32x4xui8>
// CHECK-NEXT: %[[Q:.*]] = stablehlo.dot_general %[[A]], %[[B]], contracting_dims = [1, 2] x [0, 2] : (tensor<8x16x4xi8>, tensor<16x32x4xui8>) -> tensor<8x32xi32>
// CHECK-NEXT: %[[W:.*]] = stablehlo.convert %a : (tensor<8x64xi8>) -> tensor<8x64xi32>
// CHECK-NEXT: %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %[[SUM:.*]] = stablehlo.reduce(%[[W]] init: %[[Z]]) applies stablehlo.add across dimensions = [1] : (tensor<8x64xi32>, tensor<i32>) -> tensor<8xi32>
// CHECK-NEXT: %[[H:.*]] = stablehlo.constant dense<128> : tensor<8xi32>
// CHECK-NEXT: %[[SCALED:.*]] = stablehlo.multiply %[[SUM]], %[[H]] : tensor<8xi32>
// CHECK-NEXT: %[[SPREAD:.*]] = stablehlo.broadcast_in_dim %[[SCALED]], dims = [0] : (tensor<8xi32>) -> tensor<8x32xi32>
// CHECK-NEXT: %[[R:.*]] = stablehlo.subtract %[[Q]], %[[SPREAD]] : tensor<8x32xi32>
// CHECK-NEXT: func.return %[[R]]
// KEPT-LABEL: func.func @signed
// KEPT: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1, 2] x [0, 2] : (tensor<8x16x4xi8>, tensor<16x32x4xui8>) -> tensor<8x32xi32>
func.func @signed(%a: tensor<8x64xi8>, %b: tensor<64x32xi8>) -> tensor<8x32xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x64xi8>, tensor<64x32xi8>) -> tensor<8x32xi32>
  func.return %0 : tensor<8x32xi32>
}

// -----

// An unsigned lhs is vpdpbusd's operand as it is: no offset, no correction.
// A rhs contracted along its last dim (A.B^T) is split and transposed alike.
// CHECK-LABEL: func.func @unsigned_lhs_transposed_rhs
// CHECK-NOT:  stablehlo.xor
// CHECK:      %[[A:.*]] = stablehlo.reshape %a : (tensor<4x8xui8>) -> tensor<4x2x4xui8>
// CHECK-NEXT: %[[S:.*]] = stablehlo.reshape %b : (tensor<16x8xi8>) -> tensor<16x2x4xi8>
// CHECK-NEXT: %[[B:.*]] = stablehlo.transpose %[[S]], dims = [1, 0, 2] : (tensor<16x2x4xi8>) -> tensor<2x16x4xi8>
// CHECK-NEXT: %[[Q:.*]] = stablehlo.dot_general %[[A]], %[[B]], contracting_dims = [1, 2] x [0, 2] : (tensor<4x2x4xui8>, tensor<2x16x4xi8>) -> tensor<4x16xi32>
// CHECK-NEXT: func.return %[[Q]]
func.func @unsigned_lhs_transposed_rhs(%a: tensor<4x8xui8>, %b: tensor<16x8xi8>) -> tensor<4x16xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<4x8xui8>, tensor<16x8xi8>) -> tensor<4x16xi32>
  func.return %0 : tensor<4x16xi32>
}

// -----

// A lhs contracted along its first dim is transposed to rows first.
// CHECK-LABEL: func.func @lhs_contracted_first
// CHECK:      %[[T:.*]] = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x4xi8>) -> tensor<4x8xi8>
// CHECK:      stablehlo.reshape %[[T]] : (tensor<4x8xi8>) -> tensor<4x2x4xi8>
// CHECK:      stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1, 2] x [0, 2] : (tensor<4x2x4xi8>, tensor<2x16x4xui8>) -> tensor<4x16xi32>
// CHECK:      stablehlo.convert %[[T]] : (tensor<4x8xi8>) -> tensor<4x8xi32>
func.func @lhs_contracted_first(%a: tensor<8x4xi8>, %b: tensor<8x16xi8>) -> tensor<4x16xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<8x4xi8>, tensor<8x16xi8>) -> tensor<4x16xi32>
  func.return %0 : tensor<4x16xi32>
}

// -----

// Left alone: k not a multiple of 4, other element types (i16, ui8 x ui8,
// f32, an i64 result), a batched dot, fewer than 16 columns or 4 rows.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:  stablehlo.reshape
// CHECK-NOT:  stablehlo.transpose
// CHECK-NOT:  stablehlo.xor
// CHECK:      return
func.func @left_alone(%a: tensor<8x66xi8>, %b: tensor<66x32xi8>, %c: tensor<8x64xi16>, %d: tensor<64x32xi16>, %e: tensor<8x64xi8>, %f: tensor<64x32xui8>, %uu: tensor<8x64xui8>, %g: tensor<8x64xf32>, %h: tensor<64x32xf32>, %i: tensor<2x8x64xi8>, %j: tensor<2x64x32xi8>, %k: tensor<64x8xi8>, %l: tensor<2x64xi8>, %jj: tensor<64x32xi8>) -> (tensor<8x32xi32>, tensor<8x32xi32>, tensor<8x32xi32>, tensor<8x32xf32>, tensor<8x32xi64>, tensor<2x8x32xi32>, tensor<8x8xi32>, tensor<2x32xi32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x66xi8>, tensor<66x32xi8>) -> tensor<8x32xi32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<8x64xi16>, tensor<64x32xi16>) -> tensor<8x32xi32>
  %2 = stablehlo.dot_general %uu, %f, contracting_dims = [1] x [0] : (tensor<8x64xui8>, tensor<64x32xui8>) -> tensor<8x32xi32>
  %3 = stablehlo.dot_general %g, %h, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %4 = stablehlo.dot_general %e, %jj, contracting_dims = [1] x [0] : (tensor<8x64xi8>, tensor<64x32xi8>) -> tensor<8x32xi64>
  %5 = stablehlo.dot_general %i, %j, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x8x64xi8>, tensor<2x64x32xi8>) -> tensor<2x8x32xi32>
  %6 = stablehlo.dot_general %e, %k, contracting_dims = [1] x [0] : (tensor<8x64xi8>, tensor<64x8xi8>) -> tensor<8x8xi32>
  %7 = stablehlo.dot_general %l, %jj, contracting_dims = [1] x [0] : (tensor<2x64xi8>, tensor<64x32xi8>) -> tensor<2x32xi32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<8x32xi32>, tensor<8x32xi32>, tensor<8x32xi32>, tensor<8x32xf32>, tensor<8x32xi64>, tensor<2x8x32xi32>, tensor<8x8xi32>, tensor<2x32xi32>
}
