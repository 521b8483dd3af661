func.func public @main(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %y = stablehlo.add %x, %x : tensor<4xbf16>
  func.return %y : tensor<4xbf16>
}
