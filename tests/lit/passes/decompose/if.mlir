// RUN: xlir-opt %s -p decompose | filecheck %s
// RUN: xlir-run --check --target interpreter,cpu %s | filecheck %s --check-prefix=RAN

// `if` becomes a `case` on convert(not(pred)): index 0 runs the true branch,
// 1 the false one; the branches move as they are.

// CHECK-LABEL: func.func @choose(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:    %[[NOT:.+]] = stablehlo.not %p : tensor<i1>
// CHECK-NEXT:    %[[INDEX:.+]] = stablehlo.convert %[[NOT]] : (tensor<i1>) -> tensor<i32>
// CHECK-NEXT:    %[[CASE:.+]] = "stablehlo.case"(%[[INDEX]]) ({
// CHECK-NEXT:      %a = stablehlo.add %x, %x : tensor<2xf32>
// CHECK-NEXT:      stablehlo.return %a : tensor<2xf32>
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %m = stablehlo.multiply %x, %x : tensor<2xf32>
// CHECK-NEXT:      stablehlo.return %m : tensor<2xf32>
// CHECK-NEXT:    }) : (tensor<i32>) -> tensor<2xf32>
// CHECK-NEXT:    func.return %[[CASE]] : tensor<2xf32>
// CHECK-NOT:   stablehlo.if
func.func @choose(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "stablehlo.if"(%p) ({
    %a = stablehlo.add %x, %x : tensor<2xf32>
    stablehlo.return %a : tensor<2xf32>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<2xf32>
    stablehlo.return %m : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// RAN: PASS @both_branches
// RAN: 1 passed, 0 failed on interpreter
// RAN: PASS @both_branches
// RAN: 1 passed, 0 failed on cpu
func.func @both_branches() {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %x = stablehlo.constant dense<[3.0, -1.5]> : tensor<2xf32>
  %a = func.call @choose(%t, %x) : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %b = func.call @choose(%f, %x) : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const %a, dense<[6.0, -3.0]> : tensor<2xf32>
  check.expect_eq_const %b, dense<[9.0, 2.25]> : tensor<2xf32>
  func.return
}
