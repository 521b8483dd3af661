// RUN: xlir-opt %s --split-input-file -p decompose | filecheck %s
// RUN: xlir-run --check --split-input-file --target interpreter,cpu %s | filecheck %s --check-prefix=RAN

// An elementwise computation runs once on the whole inputs; its constants
// are broadcast to the map's shape.

// CHECK-LABEL: func.func @axpy(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT:    %[[TWO:.+]] = stablehlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[TWOS:.+]] = stablehlo.broadcast_in_dim %[[TWO]], dims = [] : (tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[M:.+]] = stablehlo.multiply %[[TWOS]], %a : tensor<2x3xf32>
// CHECK-NEXT:    %[[S:.+]] = stablehlo.add %[[M]], %b : tensor<2x3xf32>
// CHECK-NEXT:    %[[C:.+]] = stablehlo.compare GT, %[[S]], %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %[[R:.+]] = stablehlo.select %[[C]], %[[S]], %b : tensor<2x3xi1>, tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x3xf32>
func.func @axpy(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %m = stablehlo.multiply %two, %x : tensor<f32>
    %s = stablehlo.add %m, %y : tensor<f32>
    %c = stablehlo.compare GT, %s, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %z = stablehlo.select %c, %s, %y : tensor<i1>, tensor<f32>
    stablehlo.return %z : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

// A computation that reads a value from outside, or does more than map
// elements, stays a map.

// CHECK-LABEL: func.func @captures
// CHECK:         stablehlo.map
func.func @captures(%a: tensor<4xi32>, %k: tensor<i32>) -> tensor<4xi32> {
  %r = "stablehlo.map"(%a) ({
  ^bb0(%x: tensor<i32>):
    %s = stablehlo.add %x, %k : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<4xi32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

// RAN: == target interpreter ==
// RAN-NEXT: PASS @returns_an_argument
// RAN: == target cpu ==
// RAN-NEXT: PASS @returns_an_argument
func.func @returns_an_argument() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<[4, 5, 6]> : tensor<3xi32>
  %r = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    stablehlo.return %y : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %r, dense<[4, 5, 6]> : tensor<3xi32>
  func.return
}
