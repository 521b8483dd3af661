// RUN: xlir-opt %s --split-input-file -p simplify | filecheck %s

// Slices, pads and concatenates.

// CHECK-LABEL: func.func @noop_slice_pad_concat
func.func @noop_slice_pad_concat(%x: tensor<4x6xf32>, %v: tensor<f32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  // CHECK-NOT: stablehlo.slice
  // CHECK-NOT: stablehlo.pad
  // CHECK-NOT: stablehlo.concatenate
  // CHECK: func.return %x, %x, %x
  %0 = stablehlo.slice %x [0:4, 0:6] : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %1 = stablehlo.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  %2 = stablehlo.concatenate %x, dim = 1 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return %0, %1, %2 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// A pad that keeps the shape but shifts (low -1, high 1) is no no-op, nor is
// a slice that changes the shape.
// CHECK-LABEL: func.func @shifting_pad
func.func @shifting_pad(%x: tensor<4xf32>, %v: tensor<f32>) -> (tensor<4xf32>, tensor<2xf32>) {
  // CHECK: stablehlo.pad %x, %v, low = [-1], high = [1], interior = [0]
  // CHECK: stablehlo.slice %x [1:3]
  %0 = stablehlo.pad %x, %v, low = [-1], high = [1], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.slice %x [1:3] : (tensor<4xf32>) -> tensor<2xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<2xf32>
}

// -----

// x[2:14:2][1:5:2] reads x[4], x[8]: one slice [4:9:4].
// CHECK-LABEL: func.func @slice_of_slice
func.func @slice_of_slice(%x: tensor<16x8xf32>) -> tensor<2x3xf32> {
  // CHECK:      %[[S:.*]] = stablehlo.slice %x [4:9:4, 3:6] : (tensor<16x8xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: func.return %[[S]]
  %0 = stablehlo.slice %x [2:14:2, 1:7] : (tensor<16x8xf32>) -> tensor<6x6xf32>
  %1 = stablehlo.slice %0 [1:5:2, 2:5] : (tensor<6x6xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// -----

// An empty slice of a slice reads nothing: its start past the inner slice's
// last element (x[0:3:2][2:2:2]) would lie past x's end, so it starts at 0.
// CHECK-LABEL: func.func @empty_slice_of_slice
func.func @empty_slice_of_slice(%x: tensor<3x3xf32>) -> tensor<0x0xf32> {
  // CHECK:      %[[S:.*]] = stablehlo.slice %x [0:0, 0:0] : (tensor<3x3xf32>) -> tensor<0x0xf32>
  // CHECK-NEXT: func.return %[[S]]
  %0 = stablehlo.slice %x [0:3:2, 1:2:2] : (tensor<3x3xf32>) -> tensor<2x1xf32>
  %1 = stablehlo.slice %0 [2:2:2, 1:1:1] : (tensor<2x1xf32>) -> tensor<0x0xf32>
  func.return %1 : tensor<0x0xf32>
}

// -----

// A slice that reads only %b (rows 4..7 of the concatenation, stride 2).
// CHECK-LABEL: func.func @slice_of_concat_one
func.func @slice_of_concat_one(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>, %c: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // CHECK:      %[[S:.*]] = stablehlo.slice %b [0:3:2, 1:3] : (tensor<4x3xf32>) -> tensor<2x2xf32>
  // CHECK-NEXT: func.return %[[S]]
  %0 = stablehlo.concatenate %a, %b, %c, dim = 0 : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<10x3xf32>
  %1 = stablehlo.slice %0 [4:7:2, 1:3] : (tensor<10x3xf32>) -> tensor<2x2xf32>
  func.return %1 : tensor<2x2xf32>
}

// -----

// Rows 2..5 read the end of %a and the start of %b: a smaller concatenate.
// CHECK-LABEL: func.func @slice_of_concat_several
func.func @slice_of_concat_several(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>, %c: tensor<2x3xf32>) -> tensor<4x1xf32> {
  // CHECK:      %[[A:.*]] = stablehlo.slice %a [2:4, 0:3]
  // CHECK-NEXT: %[[B:.*]] = stablehlo.slice %b [0:2, 0:3]
  // CHECK-NEXT: %[[C:.*]] = stablehlo.concatenate %[[A]], %[[B]], dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // CHECK-NEXT: %[[S:.*]] = stablehlo.slice %[[C]] [0:4, 2:3]
  // CHECK-NEXT: func.return %[[S]]
  %0 = stablehlo.concatenate %a, %b, %c, dim = 0 : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<10x3xf32>
  %1 = stablehlo.slice %0 [2:6, 2:3] : (tensor<10x3xf32>) -> tensor<4x1xf32>
  func.return %1 : tensor<4x1xf32>
}

// -----

// A slice reading every operand, or several with a stride, stays.
// CHECK-LABEL: func.func @slice_of_concat_kept
func.func @slice_of_concat_kept(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> (tensor<8xf32>, tensor<3xf32>) {
  // CHECK:      %[[C:.*]] = stablehlo.concatenate %a, %b, %c, dim = 0
  // CHECK-NEXT: stablehlo.slice %[[C]] [2:10]
  // CHECK-NEXT: stablehlo.slice %[[C]] [1:7:2]
  %0 = stablehlo.concatenate %a, %b, %c, dim = 0 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<12xf32>
  %1 = stablehlo.slice %0 [2:10] : (tensor<12xf32>) -> tensor<8xf32>
  %2 = stablehlo.slice %0 [1:7:2] : (tensor<12xf32>) -> tensor<3xf32>
  func.return %1, %2 : tensor<8xf32>, tensor<3xf32>
}

// -----

// Slicing the whole of one operand leaves just that operand.
// CHECK-LABEL: func.func @slice_is_operand
func.func @slice_is_operand(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NOT: stablehlo.slice
  // CHECK: func.return %b
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %1 = stablehlo.slice %0 [4:8] : (tensor<8xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
