// RUN: not xlir-run --check --split-input-file %s | filecheck %s

// A probe records its operand at each execution; expect_serialized_eq
// compares with the record of one execution (the first by default).

// CHECK: PASS @probe_in_loop
func.func @probe_in_loop() {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %two = stablehlo.constant dense<2> : tensor<i64>
  %three = stablehlo.constant dense<3> : tensor<i64>
  %i, %sum = stablehlo.while(%a = %zero, %b = %zero) : tensor<i64>, tensor<i64>
  cond {
    %c = stablehlo.compare LT, %a, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %b, %two : tensor<i64>
    %p = interpreter.probe %n, probe_id = "sum" : tensor<i64>
    %next = stablehlo.add %a, %one : tensor<i64>
    stablehlo.return %next, %p : tensor<i64>, tensor<i64>
  }
  %four = stablehlo.constant dense<4> : tensor<i64>
  %six = stablehlo.constant dense<6> : tensor<i64>
  check.expect_serialized_eq %two, probe_id = "sum" : tensor<i64>
  check.expect_serialized_eq %four, probe_id = "sum", iter = 1 : tensor<i64>
  check.expect_serialized_eq %six, probe_id = "sum", iter = 2 : tensor<i64>
  func.return
}

// -----

// CHECK: FAIL @probe_mismatch
// CHECK-NEXT: probe.mlir:[[# @LINE + 5]]:3: error: check.expect_serialized_eq failed (exact): 1 element(s) differ; first at index [1]: got 2.5, expected 2.0
func.func @probe_mismatch() {
  %x = stablehlo.constant dense<[1.0, 2.5]> : tensor<2xf32>
  %p = interpreter.probe %x, probe_id = "x" : tensor<2xf32>
  %y = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_serialized_eq %y, probe_id = "x" : tensor<2xf32>
  func.return
}

// -----

// CHECK: FAIL @probe_missing_iteration
// CHECK-NEXT: probe.mlir:[[# @LINE + 4]]:3: error: check.expect_serialized_eq failed: probe 'x' recorded 1 value(s), so it has no iteration 1
func.func @probe_missing_iteration() {
  %x = stablehlo.constant dense<1> : tensor<i32>
  %p = interpreter.probe %x, probe_id = "x" : tensor<i32>
  check.expect_serialized_eq %x, probe_id = "x", iter = 1 : tensor<i32>
  func.return
}

// CHECK: {{^}}1 passed, 2 failed
