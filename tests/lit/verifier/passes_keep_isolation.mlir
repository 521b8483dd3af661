// CSE, simplify and fold-constants never move a value into or out of an
// isolated region (xlir-opt verifies after each pass): equal constants in a
// fusion, in its function and in another function stay apart.
// RUN: xlir-opt %s -p cse,simplify,fold-constants,cse | filecheck %s

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<4xf32>
  %m = stablehlo.multiply %a, %c : tensor<4xf32>
  %0 = "hlo.fusion"(%m) <{kind = #hlo<fusion_kind loop>}> ({
  ^bb0(%x: tensor<4xf32>):
    %c2 = stablehlo.constant dense<2.0> : tensor<4xf32>
    %1 = stablehlo.add %x, %c2 : tensor<4xf32>
    "hlo.yield"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<4xf32>
  %m = stablehlo.multiply %a, %c : tensor<4xf32>
  func.return %m : tensor<4xf32>
}
// CHECK-LABEL: func.func @f
// CHECK:         %[[C:.*]] = stablehlo.constant dense<2.000000e+00>
// CHECK:         stablehlo.multiply %{{.*}}, %[[C]]
// CHECK:         hlo.fusion
// CHECK:           %[[C2:.*]] = stablehlo.constant dense<2.000000e+00>
// CHECK:           stablehlo.add %{{.*}}, %[[C2]]
// CHECK-LABEL: func.func @g
// CHECK:         %[[G:.*]] = stablehlo.constant dense<2.000000e+00>
// CHECK:         stablehlo.multiply %{{.*}}, %[[G]]
