// RUN: xlir-opt %s --split-input-file -p decompose | filecheck %s

// CHECK-LABEL: func.func @top_k
// CHECK-NEXT:    %[[IOTA:.*]] = stablehlo.iota dim = 1 : tensor<3x6xi32>
// CHECK-NEXT:    %[[S:.*]], %[[I:.*]] = "stablehlo.sort"(%arg0, %[[IOTA]]) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
// CHECK-NEXT:      %[[GT:.*]] = stablehlo.compare GT, %[[A]], %[[B]], TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:      stablehlo.return %[[GT]] : tensor<i1>
// CHECK-NEXT:    }) : (tensor<3x6xf32>, tensor<3x6xi32>) -> (tensor<3x6xf32>, tensor<3x6xi32>)
// CHECK-NEXT:    %[[V:.*]] = stablehlo.slice %[[S]] [0:3, 0:4] : (tensor<3x6xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    %[[X:.*]] = stablehlo.slice %[[I]] [0:3, 0:4] : (tensor<3x6xi32>) -> tensor<3x4xi32>
// CHECK-NEXT:    func.return %[[V]], %[[X]]
func.func @top_k(%arg0: tensor<3x6xf32>) -> (tensor<3x4xf32>, tensor<3x4xi32>) {
  %values, %indices = chlo.top_k(%arg0, k = 4) : tensor<3x6xf32> -> (tensor<3x4xf32>, tensor<3x4xi32>)
  func.return %values, %indices : tensor<3x4xf32>, tensor<3x4xi32>
}

// -----

// Unsigned keys compare as unsigned; the indices keep their i64 type.

// CHECK-LABEL: func.func @top_k_unsigned
// CHECK:         stablehlo.iota dim = 0 : tensor<8xi64>
// CHECK:         stablehlo.compare GT, %{{.*}}, %{{.*}}, UNSIGNED
// CHECK:         stablehlo.slice %{{.*}} [0:2] : (tensor<8xui32>) -> tensor<2xui32>
func.func @top_k_unsigned(%arg0: tensor<8xui32>) -> (tensor<2xui32>, tensor<2xi64>) {
  %values, %indices = chlo.top_k(%arg0, k = 2) : tensor<8xui32> -> (tensor<2xui32>, tensor<2xi64>)
  func.return %values, %indices : tensor<2xui32>, tensor<2xi64>
}
