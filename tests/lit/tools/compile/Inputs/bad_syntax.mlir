func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.add %x, : tensor<4xf32>
  func.return %y : tensor<4xf32>
}
