// RUN: not xlir-run --check --split-input-file --target interpreter,cpu %s | filecheck %s
// RUN: not xlir-run --check --target cpu,no-such-target %s 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not xlir-run --target interpreter,cpu %s 2>&1 | filecheck %s --check-prefix=SINGLE

// Each target runs every test and reports on its own. On cpu the program is
// compiled with its constants as arguments (so the target computes the add,
// not the constant folder) and the checks run on the interpreter over its
// results, with the same messages.

// CHECK-LABEL: == target interpreter ==
// CHECK-NEXT:  PASS @computed
// CHECK-NEXT:  FAIL @wrong
// CHECK-NEXT:    targets.mlir:[[# @LINE + 27]]:3: error: check.expect_eq_const failed (exact): 1 element(s) differ; first at index [1]: got 4, expected 5
// CHECK:       PASS @probe_in_loop
// CHECK-NEXT:  2 passed, 1 failed on interpreter
// CHECK-NEXT:  == target cpu ==
// CHECK-NEXT:  PASS @computed
// CHECK-NEXT:  FAIL @wrong
// CHECK-NEXT:    targets.mlir:[[# @LINE + 21]]:3: error: check.expect_eq_const failed (exact): 1 element(s) differ; first at index [1]: got 4, expected 5
// CHECK:       FAIL @probe_in_loop
// CHECK-NEXT:    targets.mlir:[[# @LINE + 33]]:5: error: check-to-outputs: 'interpreter.probe' inside a region cannot become a result
// CHECK:       1 passed, 2 failed on cpu

// UNKNOWN: error: unknown target 'no-such-target' (known targets:
// SINGLE: xlir-run: error: --target interpreter,cpu: several targets run only with --check

func.func @computed() {
  %0 = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %1 = stablehlo.add %0, %0 : tensor<2xf32>
  check.expect_almost_eq_const %1, dense<[3.0, -4.0]> : tensor<2xf32>
  check.expect_eq %0, %0 : tensor<2xf32>
  func.return
}

// -----

func.func @wrong() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %1 = stablehlo.multiply %0, %0 : tensor<2xi32>
  check.expect_eq_const %1, dense<[1, 5]> : tensor<2xi32>
  func.return
}

// -----

func.func @probe_in_loop() {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %n = stablehlo.while(%a = %zero) : tensor<i64>
  cond {
    %c = stablehlo.compare LT, %a, %one : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = interpreter.probe %a, probe_id = "a" : tensor<i64>
    %next = stablehlo.add %p, %one : tensor<i64>
    stablehlo.return %next : tensor<i64>
  }
  check.expect_serialized_eq %zero, probe_id = "a" : tensor<i64>
  func.return
}
