// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @shape(%x: tensor<4xf32>) -> tensor<5xf32> {
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}
// CHECK: ops_invalid.mlir:4:3: error: 'chlo.erf' op result shape [5] must equal the operand shape [4]

// -----

func.func @float_only(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = chlo.erfc %x : tensor<4xi32> -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}
// CHECK: ops_invalid.mlir:12:3: error: 'chlo.erfc' op operand must have float elements, but has i32

// -----

func.func @no_complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = chlo.lgamma %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}
// CHECK: ops_invalid.mlir:20:3: error: 'chlo.lgamma' op operand must have float elements, but has complex<f32>

// -----

func.func @float_or_complex(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = chlo.cosh %x : tensor<4xi8> -> tensor<4xi8>
  func.return %0 : tensor<4xi8>
}
// CHECK: ops_invalid.mlir:28:3: error: 'chlo.cosh' op operand must have float or complex elements, but has i8

// -----

func.func @element_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = chlo.tan %x : tensor<4xf32> -> tensor<4xf16>
  func.return %0 : tensor<4xf16>
}
// CHECK: ops_invalid.mlir:36:3: error: 'chlo.tan' op result element type f16 must equal the operand element type f32

// -----

func.func @predicate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: ops_invalid.mlir:44:3: error: 'chlo.is_inf' op result must have i1 elements, but has f32

// -----

func.func @predicate_operand(%x: tensor<4xi32>) -> tensor<4xi1> {
  %0 = chlo.is_pos_inf %x : tensor<4xi32> -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
// CHECK: ops_invalid.mlir:52:3: error: 'chlo.is_pos_inf' op operand must have float elements, but has i32

// -----

func.func @k_too_large(%x: tensor<2x4xf32>) -> tensor<2x5xf32> {
  %v, %i = chlo.top_k(%x, k = 5) : tensor<2x4xf32> -> (tensor<2x5xf32>, tensor<2x5xi32>)
  func.return %v : tensor<2x5xf32>
}
// CHECK: ops_invalid.mlir:60:3: error: 'chlo.top_k' op k = 5 is larger than the last dimension 4 of the operand

// -----

func.func @k_negative(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %v:2 = "chlo.top_k"(%x) <{k = -1 : i64}> : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>)
  func.return %v#0 : tensor<2x4xf32>
}
// CHECK: ops_invalid.mlir:68:3: error: 'chlo.top_k' op k must be non-negative, got -1

// -----

func.func @rank0(%x: tensor<f32>) -> tensor<f32> {
  %v, %i = chlo.top_k(%x, k = 1) : tensor<f32> -> (tensor<f32>, tensor<i32>)
  func.return %v : tensor<f32>
}
// CHECK: ops_invalid.mlir:76:3: error: 'chlo.top_k' op operand must have rank 1 or more, but has rank 0

// -----

func.func @values_shape(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x4xf32> -> (tensor<2x2xf32>, tensor<2x3xi32>)
  func.return %v : tensor<2x2xf32>
}
// CHECK: ops_invalid.mlir:84:3: error: 'chlo.top_k' op values shape [2, 2] must be the operand shape without its last dimension, then k: [2, 3]

// -----

func.func @indices_shape(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x4xf32> -> (tensor<2x3xf32>, tensor<3xi32>)
  func.return %v : tensor<2x3xf32>
}
// CHECK: ops_invalid.mlir:92:3: error: 'chlo.top_k' op indices shape [3] must be the operand shape without its last dimension, then k: [2, 3]

// -----

func.func @values_type(%x: tensor<2x4xf32>) -> tensor<2x3xf16> {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x4xf32> -> (tensor<2x3xf16>, tensor<2x3xi32>)
  func.return %v : tensor<2x3xf16>
}
// CHECK: ops_invalid.mlir:100:3: error: 'chlo.top_k' op values element type f16 must equal the operand element type f32

// -----

func.func @indices_type(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x4xf32> -> (tensor<2x3xf32>, tensor<2x3xf32>)
  func.return %v : tensor<2x3xf32>
}
// CHECK: ops_invalid.mlir:108:3: error: 'chlo.top_k' op indices must have integer elements, but have f32

// -----

func.func @missing_arrow(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.erf %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: ops_invalid.mlir:117:3: error: {{.*}}->
