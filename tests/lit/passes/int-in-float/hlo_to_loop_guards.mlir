// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop,int-in-float | filecheck %s

// hlo-to-loop's guard of each float to integer conversion (lowering/
// scalar.py's `float_to_int`) is the one int-in-float drops: no compare
// with the bounds (`oge`, `ole`), no `ori`/`xori` of them, no conversion
// is left: each kernel is the float code of its conversion alone.
// bf16 is compared in f32 (extended first); f16 to i32 has infinite
// bounds.
// CHECK-NOT:     arith.cmpf oge
// CHECK-NOT:     arith.cmpf ole
// CHECK-NOT:     arith.ori
// CHECK-NOT:     arith.xori
// CHECK-NOT:     arith.fpto
// CHECK-COUNT-4: math.trunc
// CHECK-NOT:     arith.cmpf oge
// CHECK-NOT:     arith.cmpf ole
// CHECK-NOT:     arith.ori
// CHECK-NOT:     arith.xori
// CHECK-NOT:     arith.fpto
// CHECK:         func.func @main
func.func @main(%a: tensor<64xf32>, %b: tensor<64xbf16>, %c: tensor<64xf16>, %d: tensor<64xf64>) -> (tensor<64xui8>, tensor<64xi8>, tensor<64xi32>, tensor<64xui32>) {
  %0 = stablehlo.convert %a : (tensor<64xf32>) -> tensor<64xui8>
  %1 = stablehlo.convert %b : (tensor<64xbf16>) -> tensor<64xi8>
  %2 = stablehlo.convert %c : (tensor<64xf16>) -> tensor<64xi32>
  %3 = stablehlo.convert %d : (tensor<64xf64>) -> tensor<64xui32>
  return %0, %1, %2, %3 : tensor<64xui8>, tensor<64xi8>, tensor<64xi32>, tensor<64xui32>
}
