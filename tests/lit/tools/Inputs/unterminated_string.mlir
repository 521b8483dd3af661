func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {note = "an attribute whose string literal is never closed: xDSL's own expression for it takes time exponential in this line's length \q
  func.return %a : tensor<4xf32>
}
