// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @cholesky_not_square(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.cholesky %a, lower = true : tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
// CHECK: cholesky_batch_norm_invalid.mlir:4:3: error: 'stablehlo.cholesky' op a must be square matrices, but has shape [3, 2]

// -----

func.func @cholesky_integers(%a: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %0 = stablehlo.cholesky %a : tensor<2x2xi32>
  func.return %0 : tensor<2x2xi32>
}
// CHECK: cholesky_batch_norm_invalid.mlir:12:3: error: 'stablehlo.cholesky' op a must have float or complex elements, not i32

// -----

func.func @batch_norm_feature_index(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
// CHECK: cholesky_batch_norm_invalid.mlir:20:3: error: 'stablehlo.batch_norm_inference' op feature_index 2 is out of range for rank 2

// -----

func.func @batch_norm_scale_size(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<2x3xf32> {
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>)
  func.return %0#0 : tensor<2x3xf32>
}
// CHECK: cholesky_batch_norm_invalid.mlir:28:3: error: 'stablehlo.batch_norm_training' op scale must have type tensor<3xf32> (one element per feature), but has tensor<2xf32>

// -----

func.func @batch_norm_grad_output(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %g: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %g) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return %0#0 : tensor<2x3xf32>
}
// CHECK: cholesky_batch_norm_invalid.mlir:36:3: error: 'stablehlo.batch_norm_grad' op grad_output must have the operand's type tensor<2x3xf32>, but has tensor<3x2xf32>
