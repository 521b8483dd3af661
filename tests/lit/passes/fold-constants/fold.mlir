// RUN: xlir-opt %s --split-input-file -p fold-constants | filecheck %s
// RUN: xlir-opt %s --split-input-file -p 'fold-constants{max-elements=4}' | filecheck %s --check-prefix=CAP
// RUN: xlir-opt %s --split-input-file -p fold-constants | xlir-opt --split-input-file | filecheck %s

// Ops of constant operands become constants, computed by the interpreter's
// kernels; the literals round-trip exactly (NaN and inf as bit patterns).

// Integers wrap around; signed division truncates, x / 0 is -1.
// CHECK-LABEL: func.func @integers
func.func @integers() -> (tensor<4xi8>, tensor<4xui8>, tensor<3xi32>, tensor<2xi64>) {
  // CHECK-DAG: stablehlo.constant dense<[-56, -128, 127, 10]> : tensor<4xi8>
  // CHECK-DAG: stablehlo.constant dense<[244, 2, 4, 6]> : tensor<4xui8>
  // CHECK-DAG: stablehlo.constant dense<[-3, -1, -2147483648]> : tensor<3xi32>
  // CHECK-DAG: stablehlo.constant dense<[-8, 9223372036854775807]> : tensor<2xi64>
  // CHECK-NOT: stablehlo.add
  // CHECK-NOT: stablehlo.divide
  %a = stablehlo.constant dense<[100, 127, -128, 5]> : tensor<4xi8>
  %b = stablehlo.constant dense<[100, 1, -1, 5]> : tensor<4xi8>
  %0 = stablehlo.add %a, %b : tensor<4xi8>
  %u = stablehlo.constant dense<[250, 1, 2, 3]> : tensor<4xui8>
  %1 = stablehlo.add %u, %u : tensor<4xui8>
  %n = stablehlo.constant dense<[-7, 5, -2147483648]> : tensor<3xi32>
  %d = stablehlo.constant dense<[2, 0, -1]> : tensor<3xi32>
  %2 = stablehlo.divide %n, %d : tensor<3xi32>
  %l = stablehlo.constant dense<[-1, 9223372036854775807]> : tensor<2xi64>
  %s = stablehlo.constant dense<[3, 0]> : tensor<2xi64>
  %3 = stablehlo.shift_left %l, %s : tensor<2xi64>
  func.return %0, %1, %2, %3 : tensor<4xi8>, tensor<4xui8>, tensor<3xi32>, tensor<2xi64>
}

// -----

// Floats: NaN, ±inf and -0.0 come out as bit patterns or signed zeros (the
// sign of a NaN the host makes is the host's).
// CHECK-LABEL: func.func @floats
func.func @floats() -> (tensor<4xf32>, tensor<2xf64>, tensor<2xf16>) {
  // CHECK-DAG: stablehlo.constant dense<[{{0x[7f]fc00000}}, 0xff800000, 0x7f800000, -0.000000e+00]> : tensor<4xf32>
  // CHECK-DAG: stablehlo.constant dense<[1.4142135623730951, {{0x[7f]ff8000000000000}}]> : tensor<2xf64>
  // CHECK-DAG: stablehlo.constant dense<[6.550400e+04, 0x7c00]> : tensor<2xf16>
  %x = stablehlo.constant dense<[0.0, -1.0, 1.0, -0.0]> : tensor<4xf32>
  %y = stablehlo.constant dense<[0.0, 0.0, 0.0, 1.0]> : tensor<4xf32>
  %0 = stablehlo.divide %x, %y : tensor<4xf32>
  %r = stablehlo.constant dense<[2.0, -1.0]> : tensor<2xf64>
  %1 = stablehlo.sqrt %r : tensor<2xf64>
  %h = stablehlo.constant dense<[3.2752e+04, 3.2768e+04]> : tensor<2xf16>
  %2 = stablehlo.add %h, %h : tensor<2xf16>
  func.return %0, %1, %2 : tensor<4xf32>, tensor<2xf64>, tensor<2xf16>
}

// -----

// bf16 results are rounded to bf16 (1/3 → 0.333984375), converts and compares.
// CHECK-LABEL: func.func @bf16_and_booleans
func.func @bf16_and_booleans() -> (tensor<2xbf16>, tensor<3xi1>, tensor<3xi1>) {
  // CHECK-DAG: stablehlo.constant dense<[3.339840e-01, 1.000000e+00]> : tensor<2xbf16>
  // CHECK-DAG: stablehlo.constant dense<[false, true, false]> : tensor<3xi1>
  // CHECK-DAG: stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %a = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 3.0]> : tensor<2xf32>
  %0 = stablehlo.divide %a, %b : tensor<2xf32>
  %1 = stablehlo.convert %0 : (tensor<2xf32>) -> tensor<2xbf16>
  %x = stablehlo.constant dense<[0x7FC00000, 1.0, 2.0]> : tensor<3xf32>
  %y = stablehlo.constant dense<[0x7FC00000, 1.0, 3.0]> : tensor<3xf32>
  %2 = stablehlo.compare EQ, %x, %y, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %3 = stablehlo.not %2 : tensor<3xi1>
  func.return %1, %2, %3 : tensor<2xbf16>, tensor<3xi1>, tensor<3xi1>
}

// -----

// Data movement and a reduce (a region the interpreter runs).
// CHECK-LABEL: func.func @movement_and_reduce
func.func @movement_and_reduce() -> (tensor<3x2xi32>, tensor<i32>, tensor<2xi32>) {
  // CHECK-DAG: stablehlo.constant dense<{{\[\[}}1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
  // CHECK-DAG: stablehlo.constant dense<21> : tensor<i32>
  // CHECK-DAG: stablehlo.constant dense<[3, 6]> : tensor<2xi32>
  // CHECK-NOT: stablehlo.reduce
  // CHECK-NOT: stablehlo.transpose
  %m = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<i32>
  %2 = stablehlo.slice %m [0:2, 2:3] : (tensor<2x3xi32>) -> tensor<2x1xi32>
  %3 = stablehlo.reshape %2 : (tensor<2x1xi32>) -> tensor<2xi32>
  func.return %0, %1, %3 : tensor<3x2xi32>, tensor<i32>, tensor<2xi32>
}

// -----

// Kept: a non-constant operand; a splat broadcast; iota; a result over the
// cap (with max-elements=4 the 6-element transpose is kept, the rest folds).
// CHECK-LABEL: func.func @kept
// CAP-LABEL: func.func @kept
func.func @kept(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<64x64xf32>, tensor<8xi32>, tensor<3x2xi32>, tensor<2xf32>) {
  // CHECK:     stablehlo.add %x
  // CHECK:     stablehlo.broadcast_in_dim
  // CHECK:     stablehlo.iota
  // CHECK-NOT: stablehlo.transpose
  // CHECK-NOT: stablehlo.multiply
  // CAP:       stablehlo.transpose
  // CAP-NOT:   stablehlo.multiply
  %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = stablehlo.add %x, %c : tensor<2xf32>
  %s = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
  %2 = stablehlo.iota dim = 0 : tensor<8xi32>
  %m = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %3 = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %4 = stablehlo.multiply %c, %c : tensor<2xf32>
  func.return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<64x64xf32>, tensor<8xi32>, tensor<3x2xi32>, tensor<2xf32>
}

// -----

// A result over the default cap of 1024 elements stays an op.
// CHECK-LABEL: func.func @over_default_cap
func.func @over_default_cap() -> tensor<2048xi32> {
  // CHECK: stablehlo.broadcast_in_dim
  %v = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<2xi32>) -> tensor<1024x2xi32>
  %1 = stablehlo.reshape %0 : (tensor<1024x2xi32>) -> tensor<2048xi32>
  func.return %1 : tensor<2048xi32>
}

// -----

// Never: effects (custom_call), random bits, loops; folding chains inside a
// loop body is fine.
// CHECK-LABEL: func.func @never
func.func @never() -> (tensor<2xi32>, tensor<2xui64>, tensor<4xui32>, tensor<i32>) {
  // CHECK: stablehlo.custom_call
  // CHECK: stablehlo.rng_bit_generator
  // CHECK: stablehlo.while
  // CHECK:   stablehlo.constant dense<2> : tensor<i32>
  // CHECK-NOT: stablehlo.multiply
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = stablehlo.custom_call @f(%c) : (tensor<2xi32>) -> tensor<2xi32>
  %k = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %1:2 = stablehlo.rng_bit_generator %k, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %z = stablehlo.constant dense<0> : tensor<i32>
  %2 = stablehlo.while(%i = %z) : tensor<i32>
   cond {
    %t = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %t, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %two = stablehlo.multiply %one, %one : tensor<i32>
    %three = stablehlo.add %two, %one : tensor<i32>
    %n = stablehlo.add %i, %three : tensor<i32>
    stablehlo.return %n : tensor<i32>
  }
  func.return %0, %1#0, %1#1, %2 : tensor<2xi32>, tensor<2xui64>, tensor<4xui32>, tensor<i32>
}
