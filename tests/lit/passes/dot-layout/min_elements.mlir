// RUN: xlir-opt %s -p 'dot-layout{min-elements=256}' | filecheck %s

// `min-elements` sets the smallest rhs that gets a transpose.

// CHECK-LABEL: func.func @small_rhs
func.func @small_rhs(%a: tensor<8x16xf32>, %b: tensor<16x16xf32>) -> tensor<8x16xf32> {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %b, dims = [1, 0]
  // CHECK-NEXT: stablehlo.dot_general %a, %[[T]], contracting_dims = [1] x [0]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  func.return %0 : tensor<8x16xf32>
}
