// RUN: xlir-opt %s --split-input-file | filecheck %s
// RUN: xlir-opt %s --split-input-file | xlir-opt --split-input-file | filecheck %s

// Float literals keep every bit of their NaNs through parse and print: a
// literal with a NaN whose bits a Python float would change (an f32 or bf16
// signaling NaN, an f16 NaN's payload) prints as its bytes; f64 NaNs, the
// quiet f32 NaNs and every other literal print as elements.

// CHECK-LABEL: func.func @nan_bits
// CHECK-NEXT:    stablehlo.constant dense<"0x0100C07F2301C0FF0100807F"> : tensor<3xf32>
// CHECK-NEXT:    stablehlo.constant dense<[0x7ff8000000000123, 0xfff0000000000001]> : tensor<2xf64>
// CHECK-NEXT:    stablehlo.constant dense<"0xC17F81FF"> : tensor<2xbf16>
// CHECK-NEXT:    stablehlo.constant dense<"0x017E01FC"> : tensor<2xf16>
// CHECK-NEXT:    stablehlo.constant dense<"0x0300807F"> : tensor<200xf32>
// CHECK-NEXT:    stablehlo.constant dense<"0x0100807F0000803F"> : tensor<2x2xcomplex<f32>>
func.func @nan_bits() -> (tensor<3xf32>, tensor<2xf64>, tensor<2xbf16>, tensor<2xf16>, tensor<200xf32>, tensor<2x2xcomplex<f32>>) {
  %a = stablehlo.constant dense<[0x7FC00001, 0xFFC00123, 0x7F800001]> : tensor<3xf32>
  %b = stablehlo.constant dense<[0x7FF8000000000123, 0xFFF0000000000001]> : tensor<2xf64>
  %c = stablehlo.constant dense<[0x7FC1, 0xFF81]> : tensor<2xbf16>
  %d = stablehlo.constant dense<[0x7E01, 0xFC01]> : tensor<2xf16>
  %e = stablehlo.constant dense<0x7F800003> : tensor<200xf32>
  %f = stablehlo.constant dense<(0x7F800001, 0x3F800000)> : tensor<2x2xcomplex<f32>>
  func.return %a, %b, %c, %d, %e, %f : tensor<3xf32>, tensor<2xf64>, tensor<2xbf16>, tensor<2xf16>, tensor<200xf32>, tensor<2x2xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @plain
// CHECK-NEXT:    stablehlo.constant dense<[0x7fc00000, 0xff800000, 1.500000e+00]> : tensor<3xf32>
// CHECK-NEXT:    stablehlo.constant dense<[0x7e00, 0x7e00, 0x7e00, 0x7e00]> : tensor<4xf16>
func.func @plain() -> (tensor<3xf32>, tensor<4xf16>) {
  %a = stablehlo.constant dense<[0x7FC00000, 0xFF800000, 1.5]> : tensor<3xf32>
  %b = stablehlo.constant dense<0x7E00> : tensor<4xf16>
  func.return %a, %b : tensor<3xf32>, tensor<4xf16>
}
