// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @broadcast_size(%x: tensor<3xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
// CHECK: data_movement_invalid.mlir:4:3: error: 'stablehlo.broadcast_in_dim' op operand dimension 0 has size 3, which must be 1 or equal result dimension 1 of size 4

// -----

func.func @broadcast_rank(%x: tensor<3xf32>) -> tensor<3x3xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<3xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}
// CHECK: error: 'stablehlo.broadcast_in_dim' op broadcast_dimensions has 2 entries but the operand has rank 1

// -----

func.func @transpose_shape(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
// CHECK: error: 'stablehlo.transpose' op result shape [2, 3] does not match the inferred shape [3, 2]

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<7xf32> {
  %0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<7xf32>
  func.return %0 : tensor<7xf32>
}
// CHECK: error: 'stablehlo.reshape' op operand has 6 elements but result has 7; reshape must keep the number of elements

// -----

func.func @reverse_dims(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.reverse %x, dims = [2] : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
// CHECK: error: 'stablehlo.reverse' op dimensions [2] has dimension 2 out of range [0, 2)

// -----

func.func @iota_dim() -> tensor<4xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}
// CHECK: error: 'stablehlo.iota' op iota_dimension 1 is out of range [0, 1)

// -----

func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<2x6xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>
  func.return %0 : tensor<2x6xf32>
}
// CHECK: error: 'stablehlo.concatenate' op input #1 has size 3 in dimension 0 but input #0 has 2; inputs may differ only in dimension 1

// -----

func.func @slice_bounds(%x: tensor<4xf32>) -> tensor<2xf32> {
  %0 = stablehlo.slice %x [3:5] : (tensor<4xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK: error: 'stablehlo.slice' op dimension 0 needs 0 <= start (3) <= limit (5) <= size (4)

// -----

func.func @slice_result(%x: tensor<8xf32>) -> tensor<3xf32> {
  %0 = stablehlo.slice %x [0:8:2] : (tensor<8xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: error: 'stablehlo.slice' op result shape [3] does not match the inferred shape [4]

// -----

func.func @pad_result(%x: tensor<4xf32>, %v: tensor<f32>) -> tensor<10xf32> {
  %0 = stablehlo.pad %x, %v, low = [1], high = [1], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<10xf32>
  func.return %0 : tensor<10xf32>
}
// CHECK: error: 'stablehlo.pad' op result shape [10] does not match the inferred shape [9]

// -----

func.func @pad_interior(%x: tensor<4xf32>, %v: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.pad %x, %v, low = [0], high = [0], interior = [-1] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: error: 'stablehlo.pad' op interior padding -1 in dimension 0 must be >= 0

// -----

func.func @dynamic_slice_size(%x: tensor<4xf32>, %i: tensor<i32>) -> tensor<5xf32> {
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [5] : (tensor<4xf32>, tensor<i32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}
// CHECK: error: 'stablehlo.dynamic_slice' op slice size 5 in dimension 0 must be in [0, 4]

// -----

func.func @dus_rank(%x: tensor<4xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<4xf32>, tensor<2xf32>, tensor<i32>, tensor<i32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: error: 'stablehlo.dynamic_update_slice' op 2 start indices given but the operand has rank 1

// -----

func.func @constant_type() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  func.return %0 : tensor<2xf32>
}
// CHECK: data_movement_invalid.mlir:109:15: error: operand is used with type tensor<2xf32>, but has been previously used or defined with type tensor<f32>
