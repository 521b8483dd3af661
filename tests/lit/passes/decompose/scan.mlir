// RUN: xlir-opt %s --split-input-file -p decompose | filecheck %s
// RUN: xlir-run --check --split-input-file --target interpreter,cpu %s | filecheck %s --check-prefix=RAN

// A scan is a while loop carrying the position, the inputs, the outputs so
// far (zeros at first) and the carries; each trip slices the inputs at the
// position, runs the body, and writes the output slices back.

// CHECK-LABEL: func.func @cumsum(%x: tensor<2x3xi32>, %init: tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>) {
// CHECK-NEXT:    %[[START:.+]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %[[ZERO:.+]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[ZEROS:.+]] = stablehlo.broadcast_in_dim %[[ZERO]], dims = [] : (tensor<i32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.+}}, %{{.+}}, %[[OUT:.+]], %[[CARRY:.+]] = stablehlo.while(%[[I:.+]] = %[[START]], %[[X:.+]] = %x, %[[BUILT:.+]] = %[[ZEROS]], %[[C:.+]] = %init)
// CHECK:         cond {
// CHECK-NEXT:      %[[N:.+]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:      %[[MORE:.+]] = stablehlo.compare LT, %[[I]], %[[N]]
// CHECK-NEXT:      stablehlo.return %[[MORE]] : tensor<i1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:      %[[Z:.+]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:      %[[SL:.+]] = stablehlo.dynamic_slice %[[X]], %[[Z]], %[[I]], sizes = [2, 1]
// CHECK-NEXT:      %[[ROW:.+]] = stablehlo.reshape %[[SL]] : (tensor<2x1xi32>) -> tensor<2xi32>
// CHECK-NEXT:      %s = stablehlo.add %[[ROW]], %[[C]] : tensor<2xi32>
// CHECK-NEXT:      %[[WIDE:.+]] = stablehlo.reshape %s : (tensor<2xi32>) -> tensor<2x1xi32>
// CHECK-NEXT:      %[[Z2:.+]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:      %[[UP:.+]] = stablehlo.dynamic_update_slice %[[BUILT]], %[[WIDE]], %[[Z2]], %[[I]]
// CHECK-NEXT:      %[[ONE:.+]] = stablehlo.constant dense<1> : tensor<i64>
// CHECK-NEXT:      %[[NEXT:.+]] = stablehlo.add %[[I]], %[[ONE]] : tensor<i64>
// CHECK-NEXT:      stablehlo.return %[[NEXT]], %[[X]], %[[UP]], %s
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[OUT]], %[[CARRY]]
func.func @cumsum(%x: tensor<2x3xi32>, %init: tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>) {
  %0:2 = chlo.scan(%x) inits(%init) dimension=1 {
  ^bb0(%a: tensor<2xi32>, %c: tensor<2xi32>):
    %s = stablehlo.add %a, %c : tensor<2xi32>
    stablehlo.return %s, %s : tensor<2xi32>, tensor<2xi32>
  } : (tensor<2x3xi32>, tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>)
  func.return %0#0, %0#1 : tensor<2x3xi32>, tensor<2xi32>
}

// -----

// Reversed, the position runs from the end down to 0. Float running
// products, two inputs and one carry; the second output is the running
// count of the elements above 1.

// CHECK-LABEL: func.func @reverse
// CHECK:         stablehlo.constant dense<3> : tensor<i64>
// CHECK:         cond {
// CHECK-NEXT:      %[[Z:.+]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:      stablehlo.compare GE, %{{.+}}, %[[Z]]
// CHECK:           stablehlo.constant dense<-1> : tensor<i64>
// CHECK-NOT:     chlo.scan

// RAN: == target interpreter ==
// RAN-NEXT: PASS @reverse
// RAN: == target cpu ==
// RAN-NEXT: PASS @reverse
func.func @reverse() {
  %x = stablehlo.constant dense<[1.5, 2.0, 0.5, 4.0]> : tensor<4xf32>
  %w = stablehlo.constant dense<[1.0, 3.0, 0.5, 2.0]> : tensor<4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %0:3 = chlo.scan(%x, %w) inits(%one) dimension=0 attributes {is_reverse = true} {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>):
    %p = stablehlo.multiply %a, %c : tensor<f32>
    %big = stablehlo.compare GT, %b, %one : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p, %big, %p : tensor<f32>, tensor<i1>, tensor<f32>
  } : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xi1>, tensor<f32>)
  check.expect_eq_const %0#0, dense<[6.0, 4.0, 2.0, 4.0]> : tensor<4xf32>
  check.expect_eq_const %0#1, dense<[false, true, false, true]> : tensor<4xi1>
  check.expect_eq_const %0#2, dense<6.0> : tensor<f32>
  func.return
}
