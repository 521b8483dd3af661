// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @reduce_result_shape(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<8xf32> {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
// CHECK: reduction_invalid.mlir:4:3: error: 'stablehlo.reduce' op result #0 has shape [8] but reducing [4, 8] over dimensions [1] gives [4]

// -----

func.func @reduce_dim_range(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [2] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:12:3: error: 'stablehlo.reduce' op dimensions [2] has dimension 2 out of range [0, 2)

// -----

func.func @reduce_dim_repeated(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:20:3: error: 'stablehlo.reduce' op dimensions [1, 1] must not repeat a dimension

// -----

func.func @reduce_input_shapes(%x: tensor<4x8xf32>, %y: tensor<4x9xi32>, %z: tensor<f32>, %c: tensor<i32>) -> tensor<4xf32> {
  %0:2 = stablehlo.reduce(%x init: %z), (%y init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x9xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>)  {
    stablehlo.return %a, %i : tensor<f32>, tensor<i32>
  }
  func.return %0#0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:28:3: error: 'stablehlo.reduce' op input #1 has shape [4, 9] but input #0 has shape [4, 8]; all inputs must have the same shape

// -----

func.func @reduce_init_rank(%x: tensor<4x8xf32>, %z: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    stablehlo.return %a : tensor<f32>
  }
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:39:3: error: 'stablehlo.reduce' op init value #0 must be rank 0, but has shape [4]

// -----

func.func @reduce_init_type(%x: tensor<4x8xf32>, %z: tensor<i32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<i32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    stablehlo.return %a : tensor<f32>
  }
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:50:3: error: 'stablehlo.reduce' op init value #0 has element type i32 but input #0 has f32

// -----

func.func @reduce_result_count(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0:2 = "stablehlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return %0#0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:61:3: error: 'stablehlo.reduce' op has 1 inputs but 2 results; each input gives one result

// -----

func.func @reduce_body_arity(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = "stablehlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:72:3: error: 'stablehlo.reduce' op body must take 2 arguments (two per input), but takes 3

// -----

func.func @reduce_body_rank(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<2xf32>, %b: tensor<2xf32>)  {
    stablehlo.return %a : tensor<2xf32>
  }
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:83:3: error: 'stablehlo.reduce' op body argument #0 must be a rank-0 tensor, but is tensor<2xf32>

// -----

func.func @reduce_body_pair(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f64>)  {
    stablehlo.return %a : tensor<f32>
  }
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:94:3: error: 'stablehlo.reduce' op body arguments #0 and #1 must have the same type, but have tensor<f32> and tensor<f64>

// -----

func.func @reduce_body_promotion(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf16> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf16>
   reducer(%a: tensor<f16>, %b: tensor<f16>)  {
    stablehlo.return %a : tensor<f16>
  }
  func.return %0 : tensor<4xf16>
}
// CHECK: reduction_invalid.mlir:105:3: error: 'stablehlo.reduce' op body argument #0 has element type f16, which input #0 with element type f32 cannot be promoted to

// -----

func.func @reduce_body_return_count(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    stablehlo.return %a, %b : tensor<f32>, tensor<f32>
  }
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:116:3: error: 'stablehlo.reduce' op body must return 1 values, but returns 2

// -----

func.func @reduce_body_return_type(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:127:3: error: 'stablehlo.reduce' op body returns tensor<i1> as value #0, but the accumulator has type tensor<f32>

// -----

func.func @reduce_body_terminator(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = "stablehlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "func.return"(%a) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:139:3: error: 'stablehlo.reduce' op body must end with stablehlo.return, but ends with 'func.return'

// -----

func.func @reduce_result_element(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xi32> {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}
// CHECK: reduction_invalid.mlir:150:3: error: 'stablehlo.reduce' op result #0 has element type i32 but the body accumulates f32

// -----

func.func @reduce_compact_not_commutative(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.subtract across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:158:46: error: expected the reducer after `applies` to be a commutative binary op of the stablehlo dialect (stablehlo.add, stablehlo.multiply, stablehlo.maximum, stablehlo.minimum, stablehlo.and, stablehlo.or, stablehlo.xor), found 'stablehlo.subtract'

// -----

func.func @reduce_window_rank(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:166:3: error: 'stablehlo.reduce_window' op window_dimensions has 1 entries but the operand has rank 2

// -----

func.func @reduce_window_stride(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:178:3: error: 'stablehlo.reduce_window' op window_strides [1, 0] must be positive, but dimension 1 is 0

// -----

func.func @reduce_window_dilation_rank(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.reduce_window"(%x, %z) <{base_dilations = array<i64: 1, 1, 1>, window_dimensions = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:190:3: error: 'stablehlo.reduce_window' op base_dilations has 3 entries but the operand has rank 2

// -----

func.func @reduce_window_padding(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<0> : tensor<2x3xi64>, window_dimensions = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:202:3: error: 'stablehlo.reduce_window' op padding must have shape [2, 2] (a low and a high padding per operand dimension), but has shape [2, 3]

// -----

func.func @reduce_window_result(%x: tensor<8x28x28x16xf32>, %z: tensor<f32>) -> tensor<8x28x28x16xf32> {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x28x28x16xf32>, tensor<f32>) -> tensor<8x28x28x16xf32>
  func.return %0 : tensor<8x28x28x16xf32>
}
// CHECK: reduction_invalid.mlir:214:3: error: 'stablehlo.reduce_window' op result #0 has shape [8, 28, 28, 16] but the window attributes give [8, 14, 14, 16]

// -----

func.func @reduce_window_body(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:226:3: error: 'stablehlo.reduce_window' op body must take 2 arguments (two per input), but takes 1

// -----

func.func @select_and_scatter_source(%x: tensor<8x28x28x16xf32>, %src: tensor<8x28x28x16xf32>, %z: tensor<f32>) -> tensor<8x28x28x16xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %src, %z) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x28x28x16xf32>, tensor<8x28x28x16xf32>, tensor<f32>) -> tensor<8x28x28x16xf32>
  func.return %0 : tensor<8x28x28x16xf32>
}
// CHECK: reduction_invalid.mlir:237:3: error: 'stablehlo.select_and_scatter' op source has shape [8, 28, 28, 16] but the operand has [8, 14, 14, 16] windows

// -----

func.func @select_and_scatter_select(%x: tensor<4x8xf32>, %src: tensor<2x4xf32>, %z: tensor<f32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %src, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:253:3: error: 'stablehlo.select_and_scatter' op select region returns (tensor<f32>) but must return (tensor<i1>)

// -----

func.func @select_and_scatter_scatter(%x: tensor<4x8xf32>, %src: tensor<2x4xf32>, %z: tensor<f32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %src, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:268:3: error: 'stablehlo.select_and_scatter' op scatter region must take 2 arguments, but takes 3

// -----

func.func @select_and_scatter_element(%x: tensor<4x8xf32>, %src: tensor<2x4xi32>, %z: tensor<f32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %src, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x4xi32>, tensor<f32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:283:3: error: 'stablehlo.select_and_scatter' op source has element type i32 but the operand has f32

// -----

func.func @sort_dimension(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 2 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:299:3: error: 'stablehlo.sort' op dimension 2 is out of range [-2, 2)

// -----

func.func @sort_comparator_args(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>) -> tensor<4x8xf32> {
  %0:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %r = stablehlo.compare LT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  func.return %0#0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:311:3: error: 'stablehlo.sort' op comparator takes (tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) but must take (tensor<f32>, tensor<f32>, tensor<i32>, tensor<i32>)

// -----

func.func @sort_comparator_result(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:323:3: error: 'stablehlo.sort' op comparator returns (tensor<f32>) but must return (tensor<i1>)

// -----

func.func @sort_result_types(%x: tensor<4x8xf32>) -> tensor<4x8xi32> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4x8xf32>) -> tensor<4x8xi32>
  func.return %0 : tensor<4x8xi32>
}
// CHECK: reduction_invalid.mlir:334:3: error: 'stablehlo.sort' op result types (tensor<4x8xi32>) must equal the input types (tensor<4x8xf32>)

// -----

func.func @sort_input_shapes(%x: tensor<4x8xf32>, %y: tensor<8x4xi32>) -> tensor<4x8xf32> {
  %0:2 = "stablehlo.sort"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<4x8xf32>, tensor<8x4xi32>) -> (tensor<4x8xf32>, tensor<8x4xi32>)
  func.return %0#0 : tensor<4x8xf32>
}
// CHECK: reduction_invalid.mlir:346:3: error: 'stablehlo.sort' op input #1 has shape [8, 4] but input #0 has shape [4, 8]; all inputs must have the same shape

// -----

// The op built for the compact form is checked too, at the place of its name.
func.func @reduce_compact_inner(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.and across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: reduction_invalid.mlir:359:46: error: 'stablehlo.and' op operand must have integer or boolean (i1) elements, but has f32
