// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @complex_parts
func.func @complex_parts(%re: tensor<2xf64>, %im: tensor<2xf64>) -> tensor<2xf64> {
  // CHECK: %{{.*}} = stablehlo.complex %{{.*}}, %{{.*}} : tensor<2xcomplex<f64>>
  // GENERIC: "stablehlo.complex"(%{{.*}}, %{{.*}}) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xcomplex<f64>>
  %c = stablehlo.complex %re, %im : tensor<2xcomplex<f64>>
  // CHECK: stablehlo.real %{{.*}} : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %r = stablehlo.real %c : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  // CHECK: stablehlo.imag %{{.*}} : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %i = stablehlo.imag %c : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  // CHECK: stablehlo.abs %{{.*}} : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %a = stablehlo.abs %c : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  // CHECK: stablehlo.real %{{.*}} : tensor<2xf64>
  %rr = stablehlo.real %r : tensor<2xf64>
  // CHECK: stablehlo.reduce_precision %{{.*}}, format = e5m10 : tensor<2xf64>
  // GENERIC: "stablehlo.reduce_precision"(%{{.*}}) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<2xf64>) -> tensor<2xf64>
  %p = stablehlo.reduce_precision %rr, format = e5m10 : tensor<2xf64>
  // CHECK: stablehlo.compare EQ, %{{.*}}, %{{.*}}, FLOAT : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<2xi1>
  %e = stablehlo.compare EQ, %c, %c, FLOAT : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<2xi1>
  func.return %p : tensor<2xf64>
}

// CHECK-LABEL: func.func @narrow_types
func.func @narrow_types() -> tensor<2xf8E4M3FN> {
  // CHECK: stablehlo.constant dense<[-8, 7]> : tensor<2xi4>
  %0 = stablehlo.constant dense<[-8, 7]> : tensor<2xi4>
  // CHECK: stablehlo.constant dense<[0, 3]> : tensor<2xui2>
  %1 = stablehlo.constant dense<[0, 3]> : tensor<2xui2>
  // CHECK: stablehlo.constant dense<[1.000000e+00, 4.480000e+02]> : tensor<2xf8E4M3FN>
  %2 = stablehlo.constant dense<[1.0, 448.0]> : tensor<2xf8E4M3FN>
  // CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<2xf8E4M3FN>) -> tensor<2xi8>
  %3 = stablehlo.bitcast_convert %2 : (tensor<2xf8E4M3FN>) -> tensor<2xi8>
  // CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<2xi4>) -> tensor<i8>
  %4 = stablehlo.bitcast_convert %0 : (tensor<2xi4>) -> tensor<i8>
  func.return %2 : tensor<2xf8E4M3FN>
}

// CHECK-LABEL: func.func @tuples_and_tokens
func.func @tuples_and_tokens(%x: tensor<2xf32>, %y: tensor<i64>) -> tensor<i64> {
  // CHECK: %{{.*}} = stablehlo.tuple %{{.*}}, %{{.*}} : tuple<tensor<2xf32>, tensor<i64>>
  // GENERIC: "stablehlo.tuple"(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<i64>) -> tuple<tensor<2xf32>, tensor<i64>>
  %t = stablehlo.tuple %x, %y : tuple<tensor<2xf32>, tensor<i64>>
  // CHECK: stablehlo.get_tuple_element %{{.*}}[1] : (tuple<tensor<2xf32>, tensor<i64>>) -> tensor<i64>
  // GENERIC: "stablehlo.get_tuple_element"(%{{.*}}) <{index = 1 : i32}>
  %e = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tensor<i64>>) -> tensor<i64>
  // CHECK: %{{.*}} = stablehlo.after_all : !stablehlo.token
  %a = stablehlo.after_all : !stablehlo.token
  // CHECK: stablehlo.after_all %{{.*}}, %{{.*}} : !stablehlo.token
  %b = stablehlo.after_all %a, %a : !stablehlo.token
  // CHECK: stablehlo.create_token : !stablehlo.token
  %c = stablehlo.create_token : !stablehlo.token
  func.return %e : tensor<i64>
}

// CHECK-LABEL: func.func @if
func.func @if(%p: tensor<i1>, %x: tensor<2xi64>) -> tensor<2xi64> {
  // CHECK: "stablehlo.if"(%{{.*}}) ({
  // CHECK: }, {
  // CHECK: }) : (tensor<i1>) -> tensor<2xi64>
  %r = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<2xi64>
  }, {
    %n = stablehlo.negate %x : tensor<2xi64>
    stablehlo.return %n : tensor<2xi64>
  }) : (tensor<i1>) -> tensor<2xi64>
  func.return %r : tensor<2xi64>
}

// CHECK-LABEL: func.func @map
func.func @map(%a: tensor<2x2xi64>, %b: tensor<2x2xi64>) -> tensor<2x2xi64> {
  // CHECK: "stablehlo.map"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 0, 1>}> ({
  %r = "stablehlo.map"(%a, %b) ({
    ^bb0(%x: tensor<i64>, %y: tensor<i64>):
      %m = stablehlo.multiply %x, %y : tensor<i64>
      stablehlo.return %m : tensor<i64>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %r : tensor<2x2xi64>
}
