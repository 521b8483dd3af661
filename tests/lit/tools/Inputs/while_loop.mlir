func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
   cond {
     %n = stablehlo.constant dense<3> : tensor<i32>
     %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
     stablehlo.return %p : tensor<i1>
   } do {
     %one = stablehlo.constant dense<1> : tensor<i32>
     %j = stablehlo.add %i, %one : tensor<i32>
     %w = stablehlo.exponential %v : tensor<4xf32>
     stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
   }
  func.return %r#1 : tensor<4xf32>
}
