// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop --split-input-file | filecheck %s

// f8E8M0FNU has no zero: sign and the convert to i1 compare it with 0.0 in
// f32 (its own constant 0.0 rounds to 2^-127, which compared equal; fuzzer
// seed 43500970).
// CHECK-LABEL: loop.kernel
// CHECK:         %[[X:.*]] = arith.extf %{{.*}} : f8E8M0FNU to f32
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         arith.cmpf ueq, %[[X]], %[[ZERO]] : f32
// CHECK-LABEL: loop.kernel
// CHECK:         %[[Y:.*]] = arith.extf %{{.*}} : f8E8M0FNU to f32
// CHECK:         arith.cmpf une, %[[Y]], %{{.*}} : f32
func.func @main(%x: tensor<4xf8E8M0FNU>) -> (tensor<4xf8E8M0FNU>, tensor<4xi1>) {
  %sign = stablehlo.sign %x : tensor<4xf8E8M0FNU>
  %truth = stablehlo.convert %x : (tensor<4xf8E8M0FNU>) -> tensor<4xi1>
  return %sign, %truth : tensor<4xf8E8M0FNU>, tensor<4xi1>
}

// -----

// Other float types compare with their own zero.
// CHECK-LABEL: loop.kernel
// CHECK-NOT:     arith.extf
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f8E4M3FN
// CHECK:         arith.cmpf ueq, %{{.*}}, %[[ZERO]] : f8E4M3FN
func.func @main(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %sign = stablehlo.sign %x : tensor<4xf8E4M3FN>
  return %sign : tensor<4xf8E4M3FN>
}
