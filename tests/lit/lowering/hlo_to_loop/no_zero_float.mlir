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

// -----

// next_after's compares with zero too (from 2^-127 toward 2 or more it took
// the "zero" branch, the code of y's top bit).
// CHECK-LABEL: loop.kernel
// CHECK:         %[[X:.*]] = arith.extf %{{.*}} : f8E8M0FNU to f32
// CHECK:         arith.cmpf ogt, %[[X]], %{{.*}} : f32
// CHECK:         %[[X2:.*]] = arith.extf %{{.*}} : f8E8M0FNU to f32
// CHECK:         arith.cmpf oeq, %[[X2]], %{{.*}} : f32
func.func @main(%x: tensor<4xf8E8M0FNU>, %y: tensor<4xf8E8M0FNU>) -> tensor<4xf8E8M0FNU> {
  %r = chlo.next_after %x, %y : tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU> -> tensor<4xf8E8M0FNU>
  return %r : tensor<4xf8E8M0FNU>
}

// -----

// FNUZ types have no -0 (the sign bit alone is NaN): a step down from the
// smallest negative value toward zero gives +0.
// CHECK-LABEL: loop.kernel
// CHECK:         %[[SIGN:.*]] = arith.constant -128 : i8
// CHECK:         %[[STEPPED:.*]] = arith.addi
// CHECK:         %[[NAN:.*]] = arith.cmpi eq, %[[STEPPED]], %[[SIGN]] : i8
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK:         arith.select %[[NAN]], %[[ZERO]], %[[STEPPED]] : i8
func.func @main(%x: tensor<4xf8E5M2FNUZ>, %y: tensor<4xf8E5M2FNUZ>) -> tensor<4xf8E5M2FNUZ> {
  %r = chlo.next_after %x, %y : tensor<4xf8E5M2FNUZ>, tensor<4xf8E5M2FNUZ> -> tensor<4xf8E5M2FNUZ>
  return %r : tensor<4xf8E5M2FNUZ>
}

// -----

// Formats with -0 step onto it.
// CHECK-LABEL: loop.kernel
// CHECK:         %[[STEPPED:.*]] = arith.addi
// CHECK-NOT:     arith.cmpi eq, %[[STEPPED]]
// CHECK:         arith.bitcast %[[STEPPED]] : i8 to f8E5M2
func.func @main(%x: tensor<4xf8E5M2>, %y: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> {
  %r = chlo.next_after %x, %y : tensor<4xf8E5M2>, tensor<4xf8E5M2> -> tensor<4xf8E5M2>
  return %r : tensor<4xf8E5M2>
}
