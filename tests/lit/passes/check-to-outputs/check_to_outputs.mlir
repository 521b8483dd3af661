// RUN: xlir-opt %s --split-input-file -p check-to-outputs | filecheck %s
// RUN: xlir-opt %s --split-input-file -p 'check-to-outputs{constants-as-inputs=false}' | filecheck %s --check-prefix=KEEP

// The checked values become results, in the order first read; the checks
// move to @f.checks, the top-level constants to @f.inputs.

// CHECK-LABEL: func.func @two_checks(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
// CHECK-NEXT:    %sum = stablehlo.add %x, %y : tensor<2xf32>
// CHECK-NEXT:    func.return %sum, %x : tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @two_checks.inputs() -> (tensor<2xf32>, tensor<2xf32>) {
// CHECK-NEXT:    %x = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %y = stablehlo.constant dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    func.return %x, %y : tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @two_checks.checks(%0: tensor<2xf32>, %1: tensor<2xf32>) {
// CHECK-NEXT:    check.expect_almost_eq_const %0, dense<[4.000000e+00, 6.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    check.expect_eq %1, %0 : tensor<2xf32>
// CHECK-NEXT:    check.expect_eq_const %1, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// KEEP-LABEL: func.func @two_checks() -> (tensor<2xf32>, tensor<2xf32>) {
// KEEP-NEXT:    %x = stablehlo.constant
// KEEP-NEXT:    %y = stablehlo.constant
// KEEP-NEXT:    %sum = stablehlo.add %x, %y : tensor<2xf32>
// KEEP-NEXT:    func.return %sum, %x : tensor<2xf32>, tensor<2xf32>
// KEEP-NEXT:  }
// KEEP-NOT:   @two_checks.inputs
// KEEP:       func.func private @two_checks.checks(%0: tensor<2xf32>, %1: tensor<2xf32>) {
func.func @two_checks() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %sum = stablehlo.add %x, %y : tensor<2xf32>
  check.expect_almost_eq_const %sum, dense<[4.0, 6.0]> : tensor<2xf32>
  check.expect_eq %x, %sum : tensor<2xf32>
  check.expect_eq_const %x, dense<[1.0, 2.0]> : tensor<2xf32>
  func.return
}

// -----

// The function's own arguments and results come first. A constant that a
// region reads stays (the region may need it as a constant); so does a dead
// one.

// CHECK-LABEL: func.func @own_results(%a: tensor<3xi32>, %init: tensor<i32>) -> (tensor<3xi32>, tensor<i32>) {
// CHECK-NEXT:    %zero = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %dead = stablehlo.constant dense<7> : tensor<i32>
// CHECK-NEXT:    %r = stablehlo.reduce(%a init: %init) across dimensions = [0]
// CHECK:         func.return %a, %r : tensor<3xi32>, tensor<i32>
// CHECK:       func.func private @own_results.inputs() -> tensor<i32> {
// CHECK-NEXT:    %init = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:    func.return %init : tensor<i32>
// CHECK:       func.func private @own_results.checks(%0: tensor<i32>) {
// CHECK-NEXT:    check.expect_eq_const %0, dense<7> : tensor<i32>
func.func @own_results(%a: tensor<3xi32>) -> tensor<3xi32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %init = stablehlo.constant dense<1> : tensor<i32>
  %dead = stablehlo.constant dense<7> : tensor<i32>
  %r = stablehlo.reduce(%a init: %init) across dimensions = [0] : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
   reducer(%p: tensor<i32>, %q: tensor<i32>) {
    %s = stablehlo.add %p, %q : tensor<i32>
    %t = stablehlo.add %s, %zero : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }
  check.expect_eq_const %r, dense<7> : tensor<i32>
  func.return %a : tensor<3xi32>
}

// -----

// A probe at the top level moves to the checker with the value it records,
// before the check that reads its record.

// CHECK-LABEL: func.func @probed(%x: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
// CHECK-NEXT:    %y = stablehlo.add %x, %x : tensor<i64>
// CHECK-NEXT:    %z = stablehlo.multiply %y, %y : tensor<i64>
// CHECK-NEXT:    func.return %y, %x : tensor<i64>, tensor<i64>
// CHECK:       func.func private @probed.checks(%0: tensor<i64>, %1: tensor<i64>) {
// CHECK-NEXT:    %p = interpreter.probe %0, probe_id = "y" : tensor<i64>
// CHECK-NEXT:    check.expect_serialized_eq %1, probe_id = "y" : tensor<i64>
// CHECK-NEXT:    func.return
func.func @probed() {
  %x = stablehlo.constant dense<2> : tensor<i64>
  %y = stablehlo.add %x, %x : tensor<i64>
  %p = interpreter.probe %y, probe_id = "y" : tensor<i64>
  %z = stablehlo.multiply %p, %p : tensor<i64>
  check.expect_serialized_eq %x, probe_id = "y" : tensor<i64>
  func.return
}

// -----

// A constant that a dynamic-shape op reads stays a constant (refine-shapes
// needs its shape operands constant); its data operands are lifted.

// CHECK-LABEL: func.func @shapes(%x: tensor<2xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT:    %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-NEXT:    %b = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0]
// CHECK:       func.func private @shapes.inputs() -> tensor<2xf32> {
// CHECK-NEXT:    %x = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
func.func @shapes() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %b = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0] : (tensor<2xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  check.expect_eq_const %b, dense<[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]> : tensor<2x3xf32>
  func.return
}

// -----

// Functions without checks are left as they are.

// CHECK-LABEL: func.func @plain() -> tensor<i1> {
// CHECK-NEXT:    %c = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT:    func.return %c : tensor<i1>
// CHECK-NOT:   @plain.
func.func @plain() -> tensor<i1> {
  %c = stablehlo.constant dense<true> : tensor<i1>
  func.return %c : tensor<i1>
}
