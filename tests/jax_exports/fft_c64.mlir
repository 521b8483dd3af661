module @jit_fft_c64 attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x8xcomplex<f32>>, %arg1: tensor<4x16xf32>) -> (tensor<3x8xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<3x8xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<4x9xcomplex<f32>> {jax.result_info = "result[2]"}) {
    %0 = call @fft(%arg0) : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    %1 = call @fft_0(%arg0) : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    %2 = call @fft_1(%arg1) : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
    return %0, %1, %2 : tensor<3x8xcomplex<f32>>, tensor<3x8xcomplex<f32>>, tensor<4x9xcomplex<f32>>
  }
  func.func private @fft(%arg0: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    return %0 : tensor<3x8xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    return %0 : tensor<3x8xcomplex<f32>>
  }
  func.func private @fft_1(%arg0: tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [16] : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
    return %0 : tensor<4x9xcomplex<f32>>
  }
}
