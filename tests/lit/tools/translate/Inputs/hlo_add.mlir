func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %sum = stablehlo.add %x, %y : tensor<4xf32>
  %twice = stablehlo.add %sum, %sum : tensor<4xf32>
  return %twice : tensor<4xf32>
}
