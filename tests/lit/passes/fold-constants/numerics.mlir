// RUN: xlir-run --check --split-input-file %s | filecheck %s
// RUN: xlir-opt %s --split-input-file -p fold-constants | xlir-run --check --split-input-file - | filecheck %s

// Folded constants hold the values the interpreter computes at run time, bit
// for bit (the check ops compare exactly), for every element type.

// CHECK: PASS @every_type
func.func @every_type() {
  %a = stablehlo.constant dense<[100, -128]> : tensor<2xi8>
  %0 = stablehlo.multiply %a, %a : tensor<2xi8>
  check.expect_eq_const %0, dense<[16, 0]> : tensor<2xi8>
  %u = stablehlo.constant dense<[65535, 2]> : tensor<2xui16>
  %1 = stablehlo.add %u, %u : tensor<2xui16>
  check.expect_eq_const %1, dense<[65534, 4]> : tensor<2xui16>
  %f = stablehlo.constant dense<[1.0e+30, -0.0]> : tensor<2xf32>
  %2 = stablehlo.multiply %f, %f : tensor<2xf32>
  check.expect_eq_const %2, dense<[0x7F800000, 0.0]> : tensor<2xf32>
  %h = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xbf16>
  %3 = stablehlo.divide %h, %h : tensor<2xbf16>
  %4 = stablehlo.exponential %h : tensor<2xbf16>
  check.expect_eq_const %3, dense<1.0> : tensor<2xbf16>
  check.expect_eq_const %4, dense<[2.718750e+00, 2.012500e+01]> : tensor<2xbf16>
  %d = stablehlo.constant dense<[0.1, 0.2]> : tensor<2xf64>
  %5 = stablehlo.add %d, %d : tensor<2xf64>
  check.expect_eq_const %5, dense<[0.2, 0.4]> : tensor<2xf64>
  %g = stablehlo.constant dense<[0.1, 6.0e+04]> : tensor<2xf16>
  %6 = stablehlo.add %g, %g : tensor<2xf16>
  check.expect_eq_const %6, dense<[0.2, 0x7C00]> : tensor<2xf16>
  %p = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %7 = stablehlo.xor %p, %p : tensor<2xi1>
  check.expect_eq_const %7, dense<false> : tensor<2xi1>
  func.return
}

// -----

// The iota stays, so the reduce stays; its constant inputs are used as they are.
// CHECK: PASS @argmax_reduce
func.func @argmax_reduce() {
  %x = stablehlo.constant dense<[[1.0, 5.0, 2.0], [7.0, 0x7FC00000, 1.0]]> : tensor<2x3xf32>
  %i = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %lo = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%x init: %lo), (%i init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %d: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %pick = stablehlo.or %gt, %nan : tensor<i1>
    %v = stablehlo.select %pick, %a, %b : tensor<i1>, tensor<f32>
    %w = stablehlo.select %pick, %c, %d : tensor<i1>, tensor<i32>
    stablehlo.return %v, %w : tensor<f32>, tensor<i32>
  }
  check.expect_eq_const %0#0, dense<[5.0, 0x7FC00000]> : tensor<2xf32>
  check.expect_eq_const %0#1, dense<[1, 1]> : tensor<2xi32>
  func.return
}
