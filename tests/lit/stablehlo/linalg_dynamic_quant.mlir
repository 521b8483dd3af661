// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @linalg
func.func @linalg(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>, %c: tensor<2x4xcomplex<f32>>, %r: tensor<8xf32>) -> tensor<3x1xf32> {
  // CHECK: "stablehlo.triangular_solve"(%{{.*}}, %{{.*}}) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  // CHECK: stablehlo.fft %{{.*}}, type = FFT, length = [2, 4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  // GENERIC: "stablehlo.fft"(%{{.*}}) <{fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 2, 4>}>
  %f = stablehlo.fft %c, type = FFT, length = [2, 4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  // CHECK: stablehlo.fft %{{.*}}, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  %rf = stablehlo.fft %r, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  // CHECK: stablehlo.fft %{{.*}}, type = IRFFT, length = [8] : (tensor<5xcomplex<f32>>) -> tensor<8xf32>
  %ir = stablehlo.fft %rf, type = IRFFT, length = [8] : (tensor<5xcomplex<f32>>) -> tensor<8xf32>
  func.return %x : tensor<3x1xf32>
}

// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%x: tensor<?x4xf32>, %shape: tensor<2xi64>, %v: tensor<f32>, %p: tensor<2xi64>) -> tensor<?x4xf32> {
  // CHECK: stablehlo.dynamic_iota %{{.*}}, dim = 1 : (tensor<2xi64>) -> tensor<?x4xi64>
  // GENERIC: "stablehlo.dynamic_iota"(%{{.*}}) <{iota_dimension = 1 : i64}>
  %i = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<?x4xi64>
  // CHECK: stablehlo.dynamic_broadcast_in_dim %{{.*}}, %{{.*}}, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  %b = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  // CHECK: stablehlo.dynamic_reshape %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  %r = stablehlo.dynamic_reshape %b, %shape : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  // CHECK: stablehlo.dynamic_pad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %d = stablehlo.dynamic_pad %r, %v, %p, %p, %p : (tensor<?x4xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %r : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @quantized
func.func @quantized(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: stablehlo.uniform_quantize %{{.*}} : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  // CHECK: stablehlo.uniform_quantize %{{.*}} : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2x!quant.uniform<i8<-127:127>:f32:0, {0.1:-30,0.5}>>
  %p = stablehlo.uniform_quantize %q : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2x!quant.uniform<i8<-127:127>:f32:0, {0.1:-30, 0.5:0}>>
  // CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  %s = stablehlo.add %q, %q : tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  // CHECK: stablehlo.uniform_dequantize %{{.*}} : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2xf32>
  %d = stablehlo.uniform_dequantize %s : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2xf32>
  func.return %d : tensor<2xf32>
}

// CHECK-LABEL: func.func @cholesky_batch_norm
func.func @cholesky_batch_norm(%a: tensor<3x3xf32>, %x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<3x3xf32> {
  // CHECK: stablehlo.cholesky %{{.*}}, lower = true : tensor<3x3xf32>
  // GENERIC: "stablehlo.cholesky"(%{{.*}}) <{lower = true}> : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %l = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  // CHECK: "stablehlo.batch_norm_inference"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %y = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %l : tensor<3x3xf32>
}
