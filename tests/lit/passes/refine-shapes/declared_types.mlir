// RUN: xlir-opt %s -p refine-shapes | filecheck %s

// Without types the declared argument types are the ones: static arguments
// whose program computes in dynamic shapes are refined all the same.

// CHECK-LABEL: func.func @main(%arg0: tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<6xf32>
func.func @main(%arg0: tensor<2x3xf32>) -> tensor<?xf32> {
  %six = stablehlo.constant dense<6> : tensor<1xi64>
  %0 = stablehlo.dynamic_reshape %arg0, %six : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
