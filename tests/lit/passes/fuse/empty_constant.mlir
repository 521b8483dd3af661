// RUN: xlir-opt %s -p fuse | filecheck %s

// A constant with no elements (a splat literal of a zero-size shape) is as
// cheap as a scalar: it is copied into the fusion that uses it.

// CHECK-LABEL: func.func @main
// CHECK: hlo.fusion
// CHECK: stablehlo.constant dense<> : tensor<2x0x3xf32>
// CHECK: stablehlo.add
func.func @main(%x: tensor<2x0x3xf32>) -> tensor<2x0x3xf32> {
  %0 = stablehlo.constant dense<2.0> : tensor<2x0x3xf32>
  %1 = stablehlo.add %0, %x : tensor<2x0x3xf32>
  %2 = stablehlo.exponential %1 : tensor<2x0x3xf32>
  return %2 : tensor<2x0x3xf32>
}
