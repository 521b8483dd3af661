// RUN: xlir-opt %s -p fold-constants | filecheck %s

// Folded results are rounded to their element type before they become
// literals: 4-bit integers wrap around, float8 and bf16 round to nearest
// even; complex values keep both parts.

// CHECK-LABEL: func.func @main
func.func @main() -> (tensor<2xi4>, tensor<2xf8E4M3FN>, tensor<2xbf16>, tensor<2xcomplex<f32>>) {
  %a = stablehlo.constant dense<[7, -8]> : tensor<2xi4>
  %b = stablehlo.constant dense<[1, -1]> : tensor<2xi4>
  // CHECK: stablehlo.constant dense<[-8, 7]> : tensor<2xi4>
  %c = stablehlo.add %a, %b : tensor<2xi4>
  %f = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf8E4M3FN>
  %g = stablehlo.constant dense<[0.0625, 0.25]> : tensor<2xf8E4M3FN>
  // CHECK: stablehlo.constant dense<[1.000000e+00, 3.250000e+00]> : tensor<2xf8E4M3FN>
  %h = stablehlo.add %f, %g : tensor<2xf8E4M3FN>
  %x = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xbf16>
  %y = stablehlo.constant dense<[0.00390625, 0.1]> : tensor<2xbf16>
  // CHECK: stablehlo.constant dense<[1.000000e+00, 3.093750e+00]> : tensor<2xbf16>
  %z = stablehlo.add %x, %y : tensor<2xbf16>
  %p = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  // CHECK: stablehlo.constant dense<[(-3.000000e+00,4.000000e+00), (-7.000000e+00,2.400000e+01)]> : tensor<2xcomplex<f32>>
  %q = stablehlo.multiply %p, %p : tensor<2xcomplex<f32>>
  return %c, %h, %z, %q : tensor<2xi4>, tensor<2xf8E4M3FN>, tensor<2xbf16>, tensor<2xcomplex<f32>>
}

// An op with several results folds into one constant per result.
// CHECK-LABEL: func.func @sort_two_results
func.func @sort_two_results() -> (tensor<3xi64>, tensor<3xi64>) {
  %k = stablehlo.constant dense<[3, 1, 2]> : tensor<3xi64>
  %v = stablehlo.constant dense<[30, 10, 20]> : tensor<3xi64>
  // CHECK-DAG: %[[K:.*]] = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  // CHECK-DAG: %[[V:.*]] = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi64>
  // CHECK: func.return %[[K]], %[[V]]
  %s:2 = "stablehlo.sort"(%k, %v) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>, %d: tensor<i64>):
      %lt = stablehlo.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<3xi64>, tensor<3xi64>) -> (tensor<3xi64>, tensor<3xi64>)
  func.return %s#0, %s#1 : tensor<3xi64>, tensor<3xi64>
}
