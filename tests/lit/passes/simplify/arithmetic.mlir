// RUN: xlir-opt %s --split-input-file -p simplify | filecheck %s

// Arithmetic identities without fast-math: each rule fires where it is exact
// for every input (NaN, ±inf, -0.0, integer wrap-around included) and stays
// where it is not.

// CHECK-LABEL: func.func @add_zero_int
func.func @add_zero_int(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  // CHECK-NOT: stablehlo.add
  // CHECK: func.return %x, %x
  %c = stablehlo.constant dense<0> : tensor<4xi32>
  %0 = stablehlo.add %x, %c : tensor<4xi32>
  %1 = stablehlo.add %c, %x : tensor<4xi32>
  func.return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// x + (-0.0) is x for every x; x + (+0.0) is not (-0.0 + 0.0 = +0.0).
// CHECK-LABEL: func.func @add_zero_float
func.func @add_zero_float(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK:      %[[POS:.*]] = stablehlo.add %x, %{{.*}} : tensor<4xf32>
  // CHECK-NEXT: func.return %x, %[[POS]]
  %neg = stablehlo.constant dense<-0.0> : tensor<4xf32>
  %pos = stablehlo.constant dense<0.0> : tensor<4xf32>
  %0 = stablehlo.add %neg, %x : tensor<4xf32>
  %1 = stablehlo.add %x, %pos : tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A zero that is not a splat, or not zero everywhere, is no identity.
// CHECK-LABEL: func.func @add_not_splat
func.func @add_not_splat(%x: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: stablehlo.add
  %c = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
  %0 = stablehlo.add %x, %c : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// x - (+0.0) is x + (-0.0); x - (-0.0) is x + 0.0, which is not x.
// CHECK-LABEL: func.func @subtract_zero
func.func @subtract_zero(%x: tensor<f32>, %i: tensor<i8>) -> (tensor<f32>, tensor<f32>, tensor<i8>) {
  // CHECK:      %[[NEG:.*]] = stablehlo.subtract %x, %{{.*}} : tensor<f32>
  // CHECK-NEXT: func.return %x, %[[NEG]], %i
  %pos = stablehlo.constant dense<0.0> : tensor<f32>
  %neg = stablehlo.constant dense<-0.0> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i8>
  %0 = stablehlo.subtract %x, %pos : tensor<f32>
  %1 = stablehlo.subtract %x, %neg : tensor<f32>
  %2 = stablehlo.subtract %i, %z : tensor<i8>
  func.return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<i8>
}

// -----

// 0 - x is not x.
// CHECK-LABEL: func.func @zero_minus_x
func.func @zero_minus_x(%x: tensor<i32>) -> tensor<i32> {
  // CHECK: stablehlo.subtract %{{.*}}, %x
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.subtract %z, %x : tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// x - x and x xor x are 0 for integers; x - x is NaN for x = inf or NaN.
// CHECK-LABEL: func.func @self_cancel
func.func @self_cancel(%i: tensor<3xi32>, %b: tensor<3xi1>, %f: tensor<3xf32>) -> (tensor<3xi32>, tensor<3xi1>, tensor<3xf32>) {
  // CHECK-DAG: %[[Z:.*]] = stablehlo.constant dense<0> : tensor<3xi32>
  // CHECK-DAG: %[[F:.*]] = stablehlo.constant dense<false> : tensor<3xi1>
  // CHECK-DAG: %[[S:.*]] = stablehlo.subtract %f, %f : tensor<3xf32>
  // CHECK:     func.return %[[Z]], %[[F]], %[[S]]
  %0 = stablehlo.subtract %i, %i : tensor<3xi32>
  %1 = stablehlo.xor %b, %b : tensor<3xi1>
  %2 = stablehlo.subtract %f, %f : tensor<3xf32>
  func.return %0, %1, %2 : tensor<3xi32>, tensor<3xi1>, tensor<3xf32>
}

// -----

// Complex x - x is NaN where a part is inf or NaN, and (inf + 0i) * 1 has
// a NaN part; quantized x - x is the zero point, not the storage integer 0:
// none of these is simplified.
// CHECK-LABEL: func.func @self_cancel_complex_quantized
func.func @self_cancel_complex_quantized(%c: tensor<3xcomplex<f32>>, %q: tensor<3x!quant.uniform<i8:f32, 0.5:3>>) -> (tensor<3xcomplex<f32>>, tensor<3x!quant.uniform<i8:f32, 0.5:3>>) {
  // CHECK: stablehlo.subtract %c, %c : tensor<3xcomplex<f32>>
  // CHECK: stablehlo.subtract %q, %q : tensor<3x!quant.uniform<i8:f32, 0.5:3>>
  // CHECK: stablehlo.multiply %{{.*}}, %{{.*}} : tensor<3xcomplex<f32>>
  // CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<3xcomplex<f32>>
  %0 = stablehlo.subtract %c, %c : tensor<3xcomplex<f32>>
  %1 = stablehlo.subtract %q, %q : tensor<3x!quant.uniform<i8:f32, 0.5:3>>
  %one = stablehlo.constant dense<(1.0, 0.0)> : tensor<3xcomplex<f32>>
  %2 = stablehlo.multiply %0, %one : tensor<3xcomplex<f32>>
  %zero = stablehlo.constant dense<(-0.0, -0.0)> : tensor<3xcomplex<f32>>
  %3 = stablehlo.add %2, %zero : tensor<3xcomplex<f32>>
  func.return %3, %1 : tensor<3xcomplex<f32>>, tensor<3x!quant.uniform<i8:f32, 0.5:3>>
}

// -----

// A big result is a broadcast scalar, not a literal of 4096 zeros.
// CHECK-LABEL: func.func @self_cancel_big
func.func @self_cancel_big(%i: tensor<64x64xi32>) -> tensor<64x64xi32> {
  // CHECK:      %[[Z:.*]] = stablehlo.constant dense<0> : tensor<i32>
  // CHECK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %[[Z]], dims = [] : (tensor<i32>) -> tensor<64x64xi32>
  // CHECK-NEXT: func.return %[[B]]
  %0 = stablehlo.subtract %i, %i : tensor<64x64xi32>
  func.return %0 : tensor<64x64xi32>
}

// -----

// x * 1 is x for floats too; x * 0 is 0 only for integers (inf * 0 is NaN,
// -1.0 * 0.0 is -0.0).
// CHECK-LABEL: func.func @multiply
func.func @multiply(%f: tensor<2xf32>, %i: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xf32>) {
  // CHECK-DAG: %[[ZI:.*]] = stablehlo.constant dense<0> : tensor<2xi32>
  // CHECK-DAG: %[[ZF:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<2xf32>
  // CHECK:     %[[M:.*]] = stablehlo.multiply %f, %[[ZF]] : tensor<2xf32>
  // CHECK:     func.return %f, %i, %[[ZI]], %[[M]]
  %one = stablehlo.constant dense<1.0> : tensor<2xf32>
  %onei = stablehlo.constant dense<1> : tensor<2xi32>
  %zi = stablehlo.constant dense<0> : tensor<2xi32>
  %zf = stablehlo.constant dense<0.0> : tensor<2xf32>
  %0 = stablehlo.multiply %one, %f : tensor<2xf32>
  %1 = stablehlo.multiply %i, %onei : tensor<2xi32>
  %2 = stablehlo.multiply %zi, %i : tensor<2xi32>
  %3 = stablehlo.multiply %f, %zf : tensor<2xf32>
  func.return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xf32>
}

// -----

// x / 1 → x; 1 / x stays.
// CHECK-LABEL: func.func @divide_one
func.func @divide_one(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK:      %[[D:.*]] = stablehlo.divide %{{.*}}, %x
  // CHECK-NEXT: func.return %x, %[[D]]
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.divide %x, %one : tensor<f32>
  %1 = stablehlo.divide %one, %x : tensor<f32>
  func.return %0, %1 : tensor<f32>, tensor<f32>
}

// -----

// Division by ±2^k becomes multiplication by its exact reciprocal, also for
// constants that are not splats.
// CHECK-LABEL: func.func @divide_power_of_two
func.func @divide_power_of_two(%x: tensor<3xf32>, %h: tensor<2xbf16>) -> (tensor<3xf32>, tensor<2xbf16>) {
  // CHECK-DAG: %[[R:.*]] = stablehlo.constant dense<[5.000000e-01, -2.500000e-01, 8.000000e+00]> : tensor<3xf32>
  // CHECK-DAG: %[[M:.*]] = stablehlo.multiply %x, %[[R]] : tensor<3xf32>
  // CHECK-DAG: %[[RH:.*]] = stablehlo.constant dense<1.250000e-01> : tensor<2xbf16>
  // CHECK-DAG: %[[MH:.*]] = stablehlo.multiply %h, %[[RH]] : tensor<2xbf16>
  // CHECK:     func.return %[[M]], %[[MH]]
  %c = stablehlo.constant dense<[2.0, -4.0, 0.125]> : tensor<3xf32>
  %0 = stablehlo.divide %x, %c : tensor<3xf32>
  %e = stablehlo.constant dense<8.0> : tensor<2xbf16>
  %1 = stablehlo.divide %h, %e : tensor<2xbf16>
  func.return %0, %1 : tensor<3xf32>, tensor<2xbf16>
}

// -----

// Not rewritten: 1/3 rounds; 1/2^127 is subnormal in f32; 2^-128 is itself
// subnormal (and 1/2^-128 overflows to inf); 1/0 is inf; integer division.
// CHECK-LABEL: func.func @divide_not_exact
func.func @divide_not_exact(%x: tensor<f32>, %i: tensor<i32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>) {
  // CHECK-COUNT-5: stablehlo.divide
  // CHECK-NOT: stablehlo.multiply
  %three = stablehlo.constant dense<3.0> : tensor<f32>
  %big = stablehlo.constant dense<1.70141183e+38> : tensor<f32>
  %tiny = stablehlo.constant dense<2.93873588e-39> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %0 = stablehlo.divide %x, %three : tensor<f32>
  %1 = stablehlo.divide %x, %big : tensor<f32>
  %2 = stablehlo.divide %x, %tiny : tensor<f32>
  %3 = stablehlo.divide %x, %zero : tensor<f32>
  %4 = stablehlo.divide %i, %two : tensor<i32>
  func.return %0, %1, %2, %3, %4 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>
}

// -----

// CHECK-LABEL: func.func @double_negation
func.func @double_negation(%x: tensor<4xf32>, %b: tensor<4xi1>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xi32>) {
  // CHECK:      %[[N:.*]] = stablehlo.negate %i
  // CHECK-NEXT: func.return %x, %b, %[[N]]
  %0 = stablehlo.negate %x : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  %2 = stablehlo.not %b : tensor<4xi1>
  %3 = stablehlo.not %2 : tensor<4xi1>
  %4 = stablehlo.negate %i : tensor<4xi32>
  func.return %1, %3, %4 : tensor<4xf32>, tensor<4xi1>, tensor<4xi32>
}

// -----

// not(negate x) is no double negation.
// CHECK-LABEL: func.func @mixed_negation
func.func @mixed_negation(%i: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: stablehlo.negate
  // CHECK: stablehlo.not
  %0 = stablehlo.negate %i : tensor<4xi32>
  %1 = stablehlo.not %0 : tensor<4xi32>
  func.return %1 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @idempotent
func.func @idempotent(%x: tensor<4xf32>, %b: tensor<4xi1>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
  // CHECK:      %[[M:.*]] = stablehlo.maximum %x, %y
  // CHECK-NEXT: func.return %x, %x, %b, %b, %[[M]]
  %0 = stablehlo.maximum %x, %x : tensor<4xf32>
  %1 = stablehlo.minimum %x, %x : tensor<4xf32>
  %2 = stablehlo.and %b, %b : tensor<4xi1>
  %3 = stablehlo.or %b, %b : tensor<4xi1>
  %4 = stablehlo.maximum %x, %y : tensor<4xf32>
  func.return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @select_constant
func.func @select_constant(%a: tensor<4xf32>, %b: tensor<4xf32>, %p: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK:      %[[S1:.*]] = stablehlo.select %{{.*}}, %a, %b
  // CHECK-NEXT: %[[S2:.*]] = stablehlo.select %p, %a, %b
  // CHECK-NEXT: func.return %a, %b, %[[S1]], %[[S2]]
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<4xi1>
  %m = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %0 = stablehlo.select %t, %a, %b : tensor<i1>, tensor<4xf32>
  %1 = stablehlo.select %f, %a, %b : tensor<4xi1>, tensor<4xf32>
  %2 = stablehlo.select %m, %a, %b : tensor<4xi1>, tensor<4xf32>
  %3 = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
  func.return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Integers: reflexive directions are true, strict ones false.
// CHECK-LABEL: func.func @compare_same_int
func.func @compare_same_int(%x: tensor<2xi32>, %u: tensor<2xui8>) -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  // CHECK-COUNT-3: stablehlo.constant dense<true> : tensor<2xi1>
  // CHECK-COUNT-3: stablehlo.constant dense<false> : tensor<2xi1>
  // CHECK-NOT: stablehlo.compare
  // CHECK:     func.return
  %0 = stablehlo.compare EQ, %x, %x, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %1 = stablehlo.compare GE, %u, %u, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  %2 = stablehlo.compare LE, %x, %x : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %3 = stablehlo.compare NE, %x, %x, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %4 = stablehlo.compare LT, %u, %u, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  %5 = stablehlo.compare GT, %x, %x, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  func.return %0, %1, %2, %3, %4, %5 : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}

// -----

// Floats: NaN != NaN, so only TOTALORDER compares fold (and x == y stays).
// CHECK-LABEL: func.func @compare_same_float
func.func @compare_same_float(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  // CHECK-DAG: %[[T:.*]] = stablehlo.constant dense<true> : tensor<2xi1>
  // CHECK-DAG: %[[C0:.*]] = stablehlo.compare EQ, %x, %x, FLOAT
  // CHECK-DAG: %[[C1:.*]] = stablehlo.compare NE, %x, %x, FLOAT
  // CHECK-DAG: %[[C3:.*]] = stablehlo.compare EQ, %x, %y, TOTALORDER
  // CHECK:     func.return %[[C0]], %[[C1]], %[[T]], %[[C3]]
  %0 = stablehlo.compare EQ, %x, %x, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %1 = stablehlo.compare NE, %x, %x, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %2 = stablehlo.compare GE, %x, %x, TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %3 = stablehlo.compare EQ, %x, %y, TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %0, %1, %2, %3 : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}

// -----

// Rules reach into regions, and run to a fixpoint: x * 1 + (-0.0) → x, so
// the body is a plain add again (printed in the compact form).
// CHECK-LABEL: func.func @in_region_and_chained
func.func @in_region_and_chained(%x: tensor<8xf32>) -> tensor<f32> {
  // CHECK:      stablehlo.reduce(%x init: %{{.*}}) applies stablehlo.add across dimensions = [0]
  // CHECK-NOT:  stablehlo.multiply
  %init = stablehlo.constant dense<-0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %nz = stablehlo.constant dense<-0.0> : tensor<f32>
    %m = stablehlo.multiply %a, %one : tensor<f32>
    %s = stablehlo.add %m, %nz : tensor<f32>
    %r = stablehlo.add %s, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
