// RUN: xlir-opt %s | xlir-opt | filecheck %s

// hlo.fft round-trips: a complex side is two tensors, a real side one.

// CHECK-LABEL: func.func @kinds(
// CHECK-NEXT:    %{{.*}}, %{{.*}} = hlo.fft %a, %b, type = FFT, length = [8] : (tensor<3x8xf32>, tensor<3x8xf32>) -> (tensor<3x8xf32>, tensor<3x8xf32>)
// CHECK-NEXT:    %{{.*}}, %{{.*}} = hlo.fft %r, type = RFFT, length = [4, 6] : (tensor<4x6xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>)
// CHECK-NEXT:    %{{.*}} = hlo.fft %hr, %hi, type = IRFFT, length = [4, 6] {name = "x"} : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x6xf64>
func.func @kinds(%a: tensor<3x8xf32>, %b: tensor<3x8xf32>, %r: tensor<4x6xf64>, %hr: tensor<4x4xf64>, %hi: tensor<4x4xf64>) -> tensor<4x6xf64> {
  %0, %1 = hlo.fft %a, %b, type = FFT, length = [8] : (tensor<3x8xf32>, tensor<3x8xf32>) -> (tensor<3x8xf32>, tensor<3x8xf32>)
  %2, %3 = hlo.fft %r, type = RFFT, length = [4, 6] : (tensor<4x6xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>)
  %4 = hlo.fft %hr, %hi, type = IRFFT, length = [4, 6] {name = "x"} : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x6xf64>
  func.return %4 : tensor<4x6xf64>
}
