// RUN: xlir-opt %s -p fold-constants | filecheck %s
// RUN: xlir-run --check %s | filecheck %s --check-prefix=EXEC

// An op with several results folds to one constant per result (a sort of
// two arrays by a general comparator), even when only one result is used.

// CHECK-LABEL: func.func @sort_two_results
// CHECK-NOT: stablehlo.sort
// CHECK-DAG: stablehlo.constant dense<[2, 2, 1, 1, 0]> : tensor<5xi32>
// CHECK-DAG: stablehlo.constant dense<[4, 9, 3, 5, 1]> : tensor<5xi32>
// EXEC: PASS @sort_two_results
func.func @sort_two_results() -> tensor<5xi32> {
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
  check.expect_eq_const %0#1, dense<[4, 9, 3, 5, 1]> : tensor<5xi32>
  func.return %0#0 : tensor<5xi32>
}
