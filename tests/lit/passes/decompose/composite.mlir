// RUN: xlir-opt %s --split-input-file -p decompose | filecheck %s

// A composite becomes its decomposition's body; a chlo op inside it is
// decomposed in turn, and the function goes.

// CHECK-LABEL: func.func public @main
// CHECK-NEXT:    stablehlo.iota
// CHECK-NEXT:    "stablehlo.sort"
// CHECK:         stablehlo.slice
// CHECK:         stablehlo.slice
// CHECK-NOT:     stablehlo.composite
// CHECK-NOT:     chlo.top_k
// CHECK-NOT:     func.func
func.func public @main(%arg0: tensor<16xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0:2 = stablehlo.composite "chlo.top_k" %arg0 {composite_attributes = {k = 4 : i64}, decomposition = @chlo.top_k.impl} : (tensor<16xf32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}
func.func private @chlo.top_k.impl(%arg0: tensor<16xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %values, %indices = chlo.top_k(%arg0, k = 4) : tensor<16xf32> -> (tensor<4xf32>, tensor<4xi32>)
  return %values, %indices : tensor<4xf32>, tensor<4xi32>
}

// -----

// A decomposition function still called elsewhere stays.

// CHECK-LABEL: func.func public @shared
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %arg0
// CHECK-NEXT:    %[[C:.*]] = func.call @neg.impl(%[[N]])
// CHECK-LABEL: func.func private @neg.impl
func.func public @shared(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.composite "my.neg" %arg0 {decomposition = @neg.impl} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @neg.impl(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @neg.impl(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
