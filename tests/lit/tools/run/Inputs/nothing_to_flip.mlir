func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = stablehlo.exponential %x : tensor<4xf32>
  %n = stablehlo.negate %e : tensor<4xf32>
  func.return %n : tensor<4xf32>
}
