// RUN: xlir-opt %s | filecheck %s
// RUN: xlir-run %s | filecheck %s --check-prefix=EXEC

// Hex float literals of every width are bit patterns (at most the type's
// width; fewer digits are leading zeros), and a hex blob holds one element
// (a splat) or all of them.

func.func @main() -> (tensor<f16>, tensor<bf16>, tensor<f32>, tensor<f64>, tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<3xf32>) {
  %0 = stablehlo.constant dense<0x7C00> : tensor<f16>
  %1 = stablehlo.constant dense<0xFF80> : tensor<bf16>
  %2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %3 = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
  %4 = stablehlo.constant dense<0x1> : tensor<f32>
  %5 = stablehlo.constant dense<"0x0000803F"> : tensor<f32>
  %6 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %7 = stablehlo.constant dense<"0x00004040"> : tensor<3xf32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<f16>, tensor<bf16>, tensor<f32>, tensor<f64>, tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<3xf32>
}
// CHECK: stablehlo.constant dense<0x7c00> : tensor<f16>
// CHECK: stablehlo.constant dense<0xff80> : tensor<bf16>
// CHECK: stablehlo.constant dense<0xff800000> : tensor<f32>
// CHECK: stablehlo.constant dense<0x7ff0000000000000> : tensor<f64>
// CHECK: stablehlo.constant dense<1.401300e-45> : tensor<f32>
// CHECK: stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK: stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: stablehlo.constant dense<3.000000e+00> : tensor<3xf32>

// EXEC: out0: tensor<f16> = inf
// EXEC: out1: tensor<bf16> = -inf
// EXEC: out2: tensor<f32> = -inf
// EXEC: out3: tensor<f64> = inf
// EXEC: out4: tensor<f32> = 1.e-45
// EXEC: out5: tensor<f32> = 1.
// EXEC: out6: tensor<2xf32> = [1. 2.]
// EXEC: out7: tensor<3xf32> = [3. 3. 3.]
