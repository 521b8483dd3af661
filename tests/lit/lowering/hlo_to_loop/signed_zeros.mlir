// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | filecheck %s

// A kernel's scalar constants are made once per value, and -0.0 is another
// value than 0.0 (they compare equal): x + 0.0 then times -0.0 keeps both.
// CHECK-LABEL: loop.kernel
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[MINUS_ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:         %[[SUM:.*]] = arith.addf %{{.*}}, %[[ZERO]] : f32
// CHECK:         arith.mulf %[[SUM]], %[[MINUS_ZERO]] : f32
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<4xf32>
  %minus_zero = stablehlo.constant dense<-0.0> : tensor<4xf32>
  %sum = stablehlo.add %x, %zero : tensor<4xf32>
  %product = stablehlo.multiply %sum, %minus_zero : tensor<4xf32>
  return %product : tensor<4xf32>
}

