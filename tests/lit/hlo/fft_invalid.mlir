// RUN: xlir-opt %s --split-input-file --verify-diagnostics

func.func @count(%a: tensor<8xf32>) {
  // expected-error@+1 {{'hlo.fft' op FFT takes 2 and gives 2 tensor(s) (a complex side is its real and imaginary parts), but has 1 operand(s) and 2 result(s)}}
  %0, %1 = hlo.fft %a, type = FFT, length = [8] : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  func.return
}

// -----

func.func @elements(%a: tensor<8xf32>, %b: tensor<8xf64>) {
  // expected-error@+1 {{'hlo.fft' op needs one float element type for every operand and result, but has f32, f64}}
  %0, %1 = hlo.fft %a, %b, type = IFFT, length = [8] : (tensor<8xf32>, tensor<8xf64>) -> (tensor<8xf32>, tensor<8xf32>)
  func.return
}

// -----

func.func @part_shapes(%a: tensor<8xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'hlo.fft' op real and imaginary parts must have one shape, but have tensor<8xf32>, tensor<4xf32>}}
  %0, %1 = hlo.fft %a, %b, type = FFT, length = [8] : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  func.return
}

// -----

func.func @rfft_shape(%a: tensor<8xf32>) {
  // expected-error@+1 {{'hlo.fft' op result shape [4] must be [5] for RFFT of length [8]}}
  %0, %1 = hlo.fft %a, type = RFFT, length = [8] : (tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return
}

// -----

func.func @fft_length(%a: tensor<8xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'hlo.fft' op FFT needs the operand's trailing dimensions to be [4], but its shape is [8]}}
  %0, %1 = hlo.fft %a, %b, type = FFT, length = [4] : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  func.return
}
