// RUN: xlir-opt %s --split-input-file -p 'refine-shapes{types="tensor<3x8xf32>"}' | filecheck %s

// Every dynamic op whose shape operands JAX computes from the dimension
// variable becomes its static form; ops between them take the shapes their
// operands give.

// CHECK-LABEL: func.func @main(%arg0: tensor<3x8xf32>) -> (tensor<2xf32>, tensor<6x4xf32>)
// CHECK-NEXT:    %[[X:.*]] = stablehlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<3x8xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.broadcast_in_dim %[[X]], dims = [] : (tensor<f32>) -> tensor<6x4xf32>
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %[[R]], %[[S]] : tensor<6x4xf32>
// CHECK-NEXT:    %[[I:.*]] = stablehlo.iota dim = 0 : tensor<6x4xf32>
// CHECK-NEXT:    %[[P:.*]] = stablehlo.pad %[[M]], %[[X]], low = [1, 0], high = [0, 0], interior = [0, 0] : (tensor<6x4xf32>, tensor<f32>) -> tensor<7x4xf32>
// CHECK-NEXT:    %[[L:.*]] = stablehlo.slice %[[P]] [0:6, 0:4:2] : (tensor<7x4xf32>) -> tensor<6x2xf32>
// CHECK-NEXT:    %[[T:.*]] = stablehlo.transpose %[[L]], dims = [1, 0] : (tensor<6x2xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %[[C:.*]] = stablehlo.concatenate %[[T]], %[[T]], dim = 1 : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x12xf32>
// CHECK:         stablehlo.reduce(%[[C]] init: %[[X]]) applies stablehlo.add across dimensions = [1] : (tensor<2x12xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK:         stablehlo.add %[[M]], %[[I]] : tensor<6x4xf32>
// CHECK:         func.return %{{.*}}, %{{.*}} : tensor<2xf32>, tensor<6x4xf32>
func.func @main(%arg0: tensor<?x8xf32>) -> (tensor<?xf32>, tensor<?x4xf32>) {
  %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %four = stablehlo.constant dense<4> : tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %b = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %b2 = stablehlo.multiply %b, %two : tensor<i32>
  %b2v = stablehlo.reshape %b2 : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %b2v, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = stablehlo.dynamic_reshape %arg0, %shape : (tensor<?x8xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  %s = stablehlo.dynamic_broadcast_in_dim %cst, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>
  %m = stablehlo.multiply %r, %s : tensor<?x4xf32>
  %i = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi32>) -> tensor<?x4xf32>
  %lo = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %zero = stablehlo.constant dense<0> : tensor<2xi64>
  %p = stablehlo.dynamic_pad %m, %cst, %lo, %zero, %zero : (tensor<?x4xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x4xf32>
  %limit = stablehlo.convert %shape : (tensor<2xi32>) -> tensor<2xi64>
  %strides = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %l = stablehlo.real_dynamic_slice %p, %zero, %limit, %strides : (tensor<?x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %t = stablehlo.transpose %l, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = stablehlo.concatenate %t, %t, dim = 1 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %sum = stablehlo.reduce(%c init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %a = stablehlo.add %m, %i : tensor<?x4xf32>
  return %sum, %a : tensor<?xf32>, tensor<?x4xf32>
}

// -----

// A function called with two shapes is refined in place for the first and
// cloned for the second; a while loop carries the refined types.

// CHECK-LABEL: func.func @main(%arg0: tensor<3x8xf32>) -> (tensor<3x8xf32>, tensor<8x3xf32>)
// CHECK:         func.call @double(%{{.*}}) : (tensor<3x8xf32>) -> tensor<3x8xf32>
// CHECK:         func.call @double_1(%{{.*}}) : (tensor<8x3xf32>) -> tensor<8x3xf32>
// CHECK:         stablehlo.while(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : tensor<i32>, tensor<8x3xf32>
// CHECK:         func.func private @double(%arg0: tensor<3x8xf32>) -> tensor<3x8xf32>
// CHECK:         func.func private @double_1(%arg0: tensor<8x3xf32>) -> tensor<8x3xf32>
func.func @main(%arg0: tensor<?x8xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %b = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %bv = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %eight = stablehlo.constant dense<8> : tensor<1xi32>
  %shape = stablehlo.concatenate %bv, %eight, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %x = stablehlo.dynamic_reshape %arg0, %shape : (tensor<?x8xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %0 = call @double(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = stablehlo.transpose %x, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = call @double(%1) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %3:2 = stablehlo.while(%i = %zero, %y = %2) : tensor<i32>, tensor<?x?xf32>
    cond {
      %three = stablehlo.constant dense<3> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %three, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %z = stablehlo.add %y, %y : tensor<?x?xf32>
      stablehlo.return %next, %z : tensor<i32>, tensor<?x?xf32>
    }
  return %0, %3#1 : tensor<?x?xf32>, tensor<?x?xf32>
}
func.func private @double(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}


// -----

// dynamic_gather and dynamic_conv with constant slice sizes and padding.

// CHECK-LABEL: func.func @main(%arg0: tensor<3x8xf32>) -> (tensor<2x8xf32>, tensor<1x3x8x1xf32>)
// CHECK:         "stablehlo.gather"(%arg0, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<3x8xf32>, tensor<2x1xi32>) -> tensor<2x8xf32>
// CHECK:         stablehlo.reshape %arg0 : (tensor<3x8xf32>) -> tensor<1x3x8x1xf32>
// CHECK:         stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = {{\[\[}}1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x8x1xf32>
func.func @main(%arg0: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<1x?x?x1xf32>) {
  %indices = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %sizes = stablehlo.constant dense<[1, 8]> : tensor<2xi64>
  %g = "stablehlo.dynamic_gather"(%arg0, %indices, %sizes) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>
  } : (tensor<?x8xf32>, tensor<2x1xi32>, tensor<2xi64>) -> tensor<?x8xf32>
  %b = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %bv = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %eight = stablehlo.constant dense<8> : tensor<1xi32>
  %shape = stablehlo.concatenate %one, %bv, %eight, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %image = stablehlo.dynamic_reshape %arg0, %shape : (tensor<?x8xf32>, tensor<4xi32>) -> tensor<1x?x8x1xf32>
  %kernel = stablehlo.constant dense<1.0> : tensor<3x3x1x1xf32>
  %padding = stablehlo.constant dense<1> : tensor<2x2xi64>
  %c = "stablehlo.dynamic_conv"(%image, %kernel, %padding) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    batch_group_count = 1 : i64,
    feature_group_count = 1 : i64
  } : (tensor<1x?x8x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x?x1xf32>
  return %g, %c : tensor<?x8xf32>, tensor<1x?x?x1xf32>
}

// -----

// JAX's cumsum over a symbolic dimension: a `stablehlo.dynamic_reduce_window`
// custom call whose body is a function; it becomes a reduce_window.

// CHECK-LABEL: func.func @main(%arg0: tensor<3x8xf32>) -> tensor<3x8xf32>
// CHECK:         "stablehlo.reduce_window"(%arg0, %{{.*}}) <{window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 1, 1>, base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>, padding = dense<{{\[\[}}2, 0], [0, 0]]> : tensor<2x2xi64>}> ({
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
// CHECK-NEXT:      %[[S:.*]] = stablehlo.add
// CHECK-NEXT:      stablehlo.return %[[S]] : tensor<f32>
// CHECK-NEXT:    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
func.func @main(%arg0: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %nil = stablehlo.constant dense<0> : tensor<1xi32>
  %minus = stablehlo.constant dense<-1> : tensor<i32>
  %b = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %bv = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %window = stablehlo.concatenate %bv, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %ones = stablehlo.concatenate %one, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %low = stablehlo.add %b, %minus : tensor<i32>
  %lowv = stablehlo.reshape %low : (tensor<i32>) -> tensor<1xi32>
  %pad0 = stablehlo.concatenate %lowv, %nil, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %pad1 = stablehlo.concatenate %nil, %nil, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %p0 = stablehlo.reshape %pad0 : (tensor<2xi32>) -> tensor<1x2xi32>
  %p1 = stablehlo.reshape %pad1 : (tensor<2xi32>) -> tensor<1x2xi32>
  %padding = stablehlo.concatenate %p0, %p1, dim = 0 : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<2x2xi32>
  %0 = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%arg0, %zero, %window, %ones, %ones, %ones, %padding) {api_version = 2 : i32, called_computations = [@sum]} : (tensor<?x8xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
func.func @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
