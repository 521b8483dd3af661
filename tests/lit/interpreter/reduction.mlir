// RUN: xlir-run --check --split-input-file %s | filecheck %s

// CHECK: PASS @reduce_compact
func.func @reduce_compact() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 0x7FC00000, 6.0]]> : tensor<2x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %0, dense<[5.0, 0x7FC00000, 9.0]> : tensor<3xf32>
  %1 = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %1, dense<[3.0, 0x7FC00000]> : tensor<2xf32>
  %i = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %2 = stablehlo.reduce(%i init: %one) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<2x2xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %2, dense<24> : tensor<i32>
  // the init value takes part: 10 + 1 + 2 + 3 + 4
  %ten = stablehlo.constant dense<10> : tensor<i32>
  %3 = stablehlo.reduce(%i init: %ten) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x2xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %3, dense<20> : tensor<i32>
  %b = stablehlo.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %4 = stablehlo.reduce(%b init: %t) applies stablehlo.and across dimensions = [1] : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %4, dense<[false, true]> : tensor<2xi1>
  // reducing an empty dimension gives the init value
  %e = stablehlo.constant dense<> : tensor<3x0xf32>
  %5 = stablehlo.reduce(%e init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<3x0xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %5, dense<0xFF800000> : tensor<3xf32>
  func.return
}

// -----

// CHECK: PASS @reduce_variadic_argmax
func.func @reduce_variadic_argmax() {
  %x = stablehlo.constant dense<[[1.0, 5.0, 5.0, 2.0, -1.0], [0x7FC00000, 1.0, 2.0, 3.0, 0.0], [-3.0, -2.0, -1.0, -1.0, -7.0]]> : tensor<3x5xf32>
  %idx = stablehlo.iota dim = 1 : tensor<3x5xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%x init: %ninf), (%idx init: %c0) across dimensions = [1] : (tensor<3x5xf32>, tensor<3x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>)  {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %pick = stablehlo.or %gt, %nan : tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %pick_i = stablehlo.or %pick, %tie : tensor<i1>
    %v = stablehlo.select %pick, %a, %b : tensor<i1>, tensor<f32>
    %i = stablehlo.select %pick_i, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %v, %i : tensor<f32>, tensor<i32>
  }
  check.expect_eq_const %0#0, dense<[5.0, 0x7FC00000, -1.0]> : tensor<3xf32>
  check.expect_eq_const %0#1, dense<[1, 0, 2]> : tensor<3xi32>
  func.return
}

// -----

// A body that is not elementwise-only runs element by element.
// CHECK: PASS @reduce_general_body
func.func @reduce_general_body() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
   reducer(%a: tensor<i32>, %b: tensor<i32>)  {
    %r = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %s = stablehlo.reshape %r : (tensor<1xi32>) -> tensor<i32>
    %m = stablehlo.multiply %s, %s : tensor<i32>
    %sum = stablehlo.add %a, %m : tensor<i32>
    stablehlo.return %sum : tensor<i32>
  }
  check.expect_eq_const %0, dense<[14, 77]> : tensor<2xi32>
  func.return
}

// -----

// CHECK: PASS @reduce_window
func.func @reduce_window() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // cumulative sum: window 5 padded by 4 on the left
  %0 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[4, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 5>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_eq_const %0, dense<[1.0, 3.0, 6.0, 10.0, 15.0]> : tensor<5xf32>
  // base dilation 2 -> [1,0,2,0,3,0,4,0,5]; window 3 dilated by 2; stride 2
  %1 = "stablehlo.reduce_window"(%x, %z) <{base_dilations = array<i64: 2>, padding = dense<[[0, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 2>, window_dimensions = array<i64: 3>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %1, dense<[6.0, 9.0, 12.0]> : tensor<3xf32>
  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %2 = "stablehlo.reduce_window"(%m, %ninf) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x4xf32>, tensor<f32>) -> tensor<1x2xf32>
  check.expect_eq_const %2, dense<[[6.0, 8.0]]> : tensor<1x2xf32>
  func.return
}

// -----

// CHECK: PASS @select_and_scatter
func.func @select_and_scatter() {
  %x = stablehlo.constant dense<[[1.0, 5.0, 2.0, 2.0], [3.0, 4.0, 2.0, 2.0]]> : tensor<2x4xf32>
  %src = stablehlo.constant dense<[[10.0, 20.0]]> : tensor<1x2xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %src, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x4xf32>, tensor<1x2xf32>, tensor<f32>) -> tensor<2x4xf32>
  // ties keep the first element of the window
  check.expect_eq_const %0, dense<[[0.0, 10.0, 20.0, 0.0], [0.0, 0.0, 0.0, 0.0]]> : tensor<2x4xf32>
  // overlapping windows accumulate; padding is never selected
  %y = stablehlo.constant dense<[1.0, 3.0, 2.0]> : tensor<3xf32>
  %s2 = stablehlo.constant dense<[1.0, 2.0, 4.0]> : tensor<3xf32>
  %1 = "stablehlo.select_and_scatter"(%y, %s2, %z) <{padding = dense<[[1, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %1, dense<[0.0, 7.0, 0.0]> : tensor<3xf32>
  func.return
}

// -----

// CHECK: PASS @sort
func.func @sort() {
  %k = stablehlo.constant dense<[3.0, -0.0, 0x7FC00000, 0.0, 1.0, 3.0]> : tensor<6xf32>
  %v = stablehlo.iota dim = 0 : tensor<6xi32>
  %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<6xf32>, tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>)
  check.expect_eq_const %0#0, dense<[-0.0, 0.0, 1.0, 3.0, 3.0, 0x7FC00000]> : tensor<6xf32>
  check.expect_eq_const %0#1, dense<[1, 3, 4, 0, 5, 2]> : tensor<6xi32>
  %m = stablehlo.constant dense<[[3, 1, 2], [0, 9, 9]]> : tensor<2x3xi32>
  %1 = "stablehlo.sort"(%m) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %1, dense<[[3, 2, 1], [9, 9, 0]]> : tensor<2x3xi32>
  %2 = "stablehlo.sort"(%m) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %2, dense<[[0, 1, 2], [3, 9, 9]]> : tensor<2x3xi32>
  func.return
}

// -----

// A two-key comparator (by first key descending, then second ascending) runs
// as a general comparator on whole arrays.
// CHECK: PASS @sort_general_comparator
func.func @sort_general_comparator() {
  %a = stablehlo.constant dense<[1, 2, 1, 2, 0]> : tensor<5xi32>
  %b = stablehlo.constant dense<[5, 4, 3, 9, 1]> : tensor<5xi32>
  %0:2 = "stablehlo.sort"(%a, %b) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x0: tensor<i32>, %y0: tensor<i32>, %x1: tensor<i32>, %y1: tensor<i32>):
    %gt = stablehlo.compare GT, %x0, %y0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %x0, %y0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %x1, %y1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %r = stablehlo.or %gt, %tie : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<5xi32>, tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>)
  check.expect_eq_const %0#0, dense<[2, 2, 1, 1, 0]> : tensor<5xi32>
  check.expect_eq_const %0#1, dense<[4, 9, 3, 5, 1]> : tensor<5xi32>
  func.return
}

// -----

// A sort of an empty tensor (along either dimension) has nothing to order.
// CHECK: PASS @sort_empty
func.func @sort_empty() {
  %y = stablehlo.constant dense<> : tensor<3x0xi32>
  %t:2 = "stablehlo.sort"(%y, %y) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %eq = stablehlo.compare EQ, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %lt2 = stablehlo.compare LT, %c, %d : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %and = stablehlo.and %eq, %lt2 : tensor<i1>
      %or = stablehlo.or %lt, %and : tensor<i1>
      stablehlo.return %or : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<3x0xi32>, tensor<3x0xi32>) -> (tensor<3x0xi32>, tensor<3x0xi32>)
  %u:2 = "stablehlo.sort"(%y, %y) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %eq = stablehlo.compare EQ, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %lt2 = stablehlo.compare LT, %c, %d : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %and = stablehlo.and %eq, %lt2 : tensor<i1>
      %or = stablehlo.or %lt, %and : tensor<i1>
      stablehlo.return %or : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<3x0xi32>, tensor<3x0xi32>) -> (tensor<3x0xi32>, tensor<3x0xi32>)
  check.expect_eq_const %t#0, dense<> : tensor<3x0xi32>
  check.expect_eq_const %u#1, dense<> : tensor<3x0xi32>
  func.return
}

// CHECK: {{^}}8 passed, 0 failed
