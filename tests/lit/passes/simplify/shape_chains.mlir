// RUN: xlir-opt %s --split-input-file -p simplify | filecheck %s

// Chains of transpose, reshape and broadcast_in_dim, and ops that leave
// their operand as it is.

// CHECK-LABEL: func.func @transpose_chain
func.func @transpose_chain(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>) {
  // [1, 2, 0] then [2, 0, 1] is the identity; [1, 2, 0] then [1, 2, 0] is [2, 0, 1].
  // CHECK:      %[[T:.*]] = stablehlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK-NEXT: func.return %x, %[[T]]
  %0 = stablehlo.transpose %x, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = stablehlo.transpose %0, dims = [2, 0, 1] : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %2 = stablehlo.transpose %0, dims = [1, 2, 0] : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  func.return %1, %2 : tensor<2x3x4xf32>, tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_identity
func.func @transpose_identity(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  // CHECK:      %[[T:.*]] = stablehlo.transpose %x, dims = [1, 0]
  // CHECK-NEXT: func.return %x, %[[T]]
  %0 = stablehlo.transpose %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_chain
func.func @reshape_chain(%x: tensor<2x6xf32>) -> (tensor<3x4xf32>, tensor<2x6xf32>, tensor<2x6xf32>) {
  // CHECK:      %[[R:.*]] = stablehlo.reshape %x : (tensor<2x6xf32>) -> tensor<3x4xf32>
  // CHECK-NEXT: func.return %[[R]], %x, %x
  %0 = stablehlo.reshape %x : (tensor<2x6xf32>) -> tensor<12xf32>
  %1 = stablehlo.reshape %0 : (tensor<12xf32>) -> tensor<3x4xf32>
  %2 = stablehlo.reshape %0 : (tensor<12xf32>) -> tensor<2x6xf32>
  %3 = stablehlo.reshape %x : (tensor<2x6xf32>) -> tensor<2x6xf32>
  func.return %1, %2, %3 : tensor<3x4xf32>, tensor<2x6xf32>, tensor<2x6xf32>
}

// -----

// A reshape of a transpose is no reshape chain.
// CHECK-LABEL: func.func @reshape_of_transpose
func.func @reshape_of_transpose(%x: tensor<2x6xf32>) -> tensor<12xf32> {
  // CHECK: stablehlo.transpose
  // CHECK: stablehlo.reshape
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x6xf32>) -> tensor<6x2xf32>
  %1 = stablehlo.reshape %0 : (tensor<6x2xf32>) -> tensor<12xf32>
  func.return %1 : tensor<12xf32>
}

// -----

// Operand dim 0 → middle dim 1 → result dim 2.
// CHECK-LABEL: func.func @broadcast_chain
func.func @broadcast_chain(%x: tensor<4xf32>, %y: tensor<1xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x5xf32>) {
  // CHECK:      %[[A:.*]] = stablehlo.broadcast_in_dim %x, dims = [2] : (tensor<4xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %y, dims = [1] : (tensor<1xf32>) -> tensor<2x3x5xf32>
  // CHECK-NEXT: func.return %[[A]], %[[B]]
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2] : (tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %2 = stablehlo.broadcast_in_dim %y, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
  %3 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<3xf32>) -> tensor<2x3x5xf32>
  func.return %1, %3 : tensor<2x3x4xf32>, tensor<2x3x5xf32>
}

// -----

// An identity broadcast goes; one whose dims permute is a transpose, and stays.
// CHECK-LABEL: func.func @broadcast_identity
func.func @broadcast_identity(%x: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  // CHECK:      %[[B:.*]] = stablehlo.broadcast_in_dim %x, dims = [1, 0]
  // CHECK-NEXT: func.return %x, %[[B]]
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %1 = stablehlo.broadcast_in_dim %x, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %0, %1 : tensor<3x3xf32>, tensor<3x3xf32>
}

// -----

// A small broadcast of a splat is a constant; a big one stays a broadcast;
// a broadcast of a constant that is not a splat stays.
// CHECK-LABEL: func.func @broadcast_splat
func.func @broadcast_splat() -> (tensor<2x4xf32>, tensor<64x64xf32>, tensor<2x2xi32>) {
  // CHECK-DAG: %[[S:.*]] = stablehlo.constant dense<-0.000000e+00> : tensor<2x4xf32>
  // CHECK-DAG: %[[C:.*]] = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
  // CHECK-DAG: %[[B:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = [] : (tensor<f32>) -> tensor<64x64xf32>
  // CHECK-DAG: %[[V:.*]] = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  // CHECK-DAG: %[[VB:.*]] = stablehlo.broadcast_in_dim %[[V]], dims = [1]
  // CHECK:     func.return %[[S]], %[[B]], %[[VB]]
  %c = stablehlo.constant dense<-0.0> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
  %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
  %v = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %2 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<2xi32>) -> tensor<2x2xi32>
  func.return %0, %1, %2 : tensor<2x4xf32>, tensor<64x64xf32>, tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @convert_and_reverse
func.func @convert_and_reverse(%x: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>) {
  // CHECK:      %[[C:.*]] = stablehlo.convert %x : (tensor<1x4xf32>) -> tensor<1x4xf16>
  // CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %x, dims = [1]
  // CHECK-NEXT: func.return %x, %[[C]], %x, %[[R]]
  %0 = stablehlo.convert %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = stablehlo.convert %x : (tensor<1x4xf32>) -> tensor<1x4xf16>
  %2 = stablehlo.reverse %x, dims = [0] : tensor<1x4xf32>
  %3 = stablehlo.reverse %x, dims = [1] : tensor<1x4xf32>
  func.return %0, %1, %2, %3 : tensor<1x4xf32>, tensor<1x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>
}


// -----

// An element of a tuple built in the program is the value it came from; the
// tuples, dead then, go.
// CHECK-LABEL: func.func @element_of_tuple
func.func @element_of_tuple(%x: tensor<2xf32>, %y: tensor<i64>) -> (tensor<i64>, tensor<2xf32>) {
  // CHECK-NEXT: func.return %y, %x : tensor<i64>, tensor<2xf32>
  %inner = stablehlo.tuple %y : tuple<tensor<i64>>
  %outer = stablehlo.tuple %x, %inner : tuple<tensor<2xf32>, tuple<tensor<i64>>>
  %0 = stablehlo.get_tuple_element %outer[1] : (tuple<tensor<2xf32>, tuple<tensor<i64>>>) -> tuple<tensor<i64>>
  %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<i64>>) -> tensor<i64>
  %2 = stablehlo.get_tuple_element %outer[0] : (tuple<tensor<2xf32>, tuple<tensor<i64>>>) -> tensor<2xf32>
  func.return %1, %2 : tensor<i64>, tensor<2xf32>
}

// -----

// The size of a static dimension is a constant.
// CHECK-LABEL: func.func @dimension_size
func.func @dimension_size(%x: tensor<2x3xf32>) -> tensor<i32> {
  // CHECK-NEXT: %[[THREE:.*]] = stablehlo.constant dense<3> : tensor<i32>
  // CHECK-NEXT: func.return %[[THREE]]
  %0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// A dynamic-shape op with static results and constant shape operands is
// its static op.
// CHECK-LABEL: func.func @known_shapes
func.func @known_shapes(%x: tensor<1x6xi64>) -> (tensor<6xi64>, tensor<2x3xi64>) {
  // CHECK-NEXT: %[[R:.*]] = stablehlo.reshape %x : (tensor<1x6xi64>) -> tensor<6xi64>
  // CHECK-NEXT: %[[I:.*]] = stablehlo.iota dim = 1 : tensor<2x3xi64>
  // CHECK-NEXT: func.return %[[R]], %[[I]]
  %six = stablehlo.constant dense<[6]> : tensor<1xi64>
  %0 = stablehlo.dynamic_reshape %x, %six : (tensor<1x6xi64>, tensor<1xi64>) -> tensor<6xi64>
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %1 = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<2x3xi64>
  func.return %0, %1 : tensor<6xi64>, tensor<2x3xi64>
}
