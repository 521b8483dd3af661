// RUN: xlir-opt %s --split-input-file -p check-to-outputs --verify-diagnostics | filecheck %s

// A check or probe in a region may run any number of times: it cannot
// become one result.

// CHECK: invalid.mlir:[[# @LINE + 8]]:5: error: check-to-outputs: 'interpreter.probe' inside a region cannot become a result (the region may run any number of times); only check ops at the top level of a function can
func.func @probe_in_loop() {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %n = stablehlo.while(%a = %zero) : tensor<i64>
  cond {
    %c = stablehlo.compare LT, %a, %a : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = interpreter.probe %a, probe_id = "a" : tensor<i64>
    stablehlo.return %p : tensor<i64>
  }
  check.expect_serialized_eq %zero, probe_id = "a" : tensor<i64>
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 5]]:5: error: check-to-outputs: 'check.expect_eq_const' inside a region cannot become a result
func.func @check_in_branch() {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %r = "stablehlo.if"(%t) ({
    %one = stablehlo.constant dense<1> : tensor<i32>
    check.expect_eq_const %one, dense<1> : tensor<i32>
    stablehlo.return %one : tensor<i32>
  }, {
    %two = stablehlo.constant dense<2> : tensor<i32>
    stablehlo.return %two : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  func.return
}

// -----

// The names the new functions take must be free.

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: check-to-outputs: the module already has a function @f.checks, the name this function's checks function would take
func.func @f() {
  %x = stablehlo.constant dense<1> : tensor<i32>
  check.expect_eq_const %x, dense<1> : tensor<i32>
  func.return
}
func.func @f.checks() {
  func.return
}
