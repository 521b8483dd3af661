func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
