// RUN: xlir-opt %s -p decompose | filecheck %s

// chlo.square (JAX's lax.square, jnp.var) is x * x, for floats, complex
// numbers and integers alike.

// CHECK-LABEL: func.func @square
func.func @square(%x: tensor<4xf32>, %c: tensor<2xcomplex<f64>>, %i: tensor<3xi8>) -> (tensor<4xf32>, tensor<2xcomplex<f64>>, tensor<3xi8>) {
  // CHECK: stablehlo.multiply %x, %x : tensor<4xf32>
  %0 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: stablehlo.multiply %c, %c : tensor<2xcomplex<f64>>
  %1 = chlo.square %c : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  // CHECK: stablehlo.multiply %i, %i : tensor<3xi8>
  %2 = chlo.square %i : tensor<3xi8> -> tensor<3xi8>
  // CHECK-NOT: chlo.square
  func.return %0, %1, %2 : tensor<4xf32>, tensor<2xcomplex<f64>>, tensor<3xi8>
}
