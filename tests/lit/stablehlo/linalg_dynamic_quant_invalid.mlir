// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @solve_not_square(%a: tensor<3x2xf32>, %b: tensor<3x1xf32>) -> tensor<3x1xf32> {
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x2xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  func.return %x : tensor<3x1xf32>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:4:3: error: 'stablehlo.triangular_solve' op a must be square matrices, but has shape [3, 2]

// -----

func.func @solve_side(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>) -> tensor<3x1xf32> {
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  func.return %x : tensor<3x1xf32>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:12:3: error: 'stablehlo.triangular_solve' op b must have 3 columns to match a, but has shape [3, 1]

// -----

func.func @solve_integers(%a: tensor<3x3xi32>, %b: tensor<3x1xi32>) -> tensor<3x1xi32> {
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xi32>, tensor<3x1xi32>) -> tensor<3x1xi32>
  func.return %x : tensor<3x1xi32>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:20:3: error: 'stablehlo.triangular_solve' op a must have float or complex elements, not i32

// -----

func.func @fft_real_operand(%x: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:28:3: error: 'stablehlo.fft' op FFT needs complex elements in its operand, not f32

// -----

func.func @rfft_shape(%x: tensor<8xf32>) -> tensor<8xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  func.return %0 : tensor<8xcomplex<f32>>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:36:3: error: 'stablehlo.fft' op result shape [8] must be [5] for RFFT of length [8]

// -----

func.func @fft_type(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = DFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:44:33: error: Expected `FFT`, `IFFT`, `RFFT`, or `IRFFT`.

// -----

func.func @iota_shape_size(%s: tensor<3xi64>) -> tensor<3x4xi64> {
  %0 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<3xi64>) -> tensor<3x4xi64>
  func.return %0 : tensor<3x4xi64>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:52:3: error: 'stablehlo.dynamic_iota' op output_shape must be a 1-D tensor of 2 integers, but has type tensor<3xi64>

// -----

func.func @reshape_count(%x: tensor<2x3xf32>, %s: tensor<1xi64>) -> tensor<5xf32> {
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:60:3: error: 'stablehlo.dynamic_reshape' op cannot reshape 6 elements into shape [5]

// -----

func.func @broadcast_dims(%x: tensor<3xf32>, %s: tensor<2xi64>) -> tensor<2x4xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:68:3: error: 'stablehlo.dynamic_broadcast_in_dim' op operand dimension 0 of size 3 cannot broadcast to result dimension 1 of size 4

// -----

func.func @pad_value(%x: tensor<2xf32>, %v: tensor<f64>, %p: tensor<1xi64>) -> tensor<?xf32> {
  %0 = stablehlo.dynamic_pad %x, %v, %p, %p, %p : (tensor<2xf32>, tensor<f64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:76:3: error: 'stablehlo.dynamic_pad' op padding_value must be a rank-0 tensor of the operand's element type, but has type tensor<f64>

// -----

func.func @quantize_to_float(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:84:3: error: 'stablehlo.uniform_quantize' op result must have quantized elements, not f32

// -----

func.func @dequantize_type(%q: tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf16> {
  %0 = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf16>
  func.return %0 : tensor<2xf16>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:92:3: error: 'stablehlo.uniform_dequantize' op result must have the expressed type f32 elements, not f16

// -----

func.func @quant_storage_range(%q: tensor<2x!quant.uniform<i8<-200:127>:f32, 0.5>>) -> tensor<2x!quant.uniform<i8<-200:127>:f32, 0.5>> {
  func.return %q : tensor<2x!quant.uniform<i8<-200:127>:f32, 0.5>>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:99:63: error: storage range [-200, 127] does not fit i8 ([-128, 127])

// -----

func.func @quant_storage_type(%q: tensor<2x!quant.uniform<f8E4M3FN:f32, 0.5>>) -> tensor<2x!quant.uniform<f8E4M3FN:f32, 0.5>> {
  func.return %q : tensor<2x!quant.uniform<f8E4M3FN:f32, 0.5>>
}
// CHECK: linalg_dynamic_quant_invalid.mlir:106:59: error: expected an integer storage type, found f8E4M3FN
