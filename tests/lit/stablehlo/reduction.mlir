// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The compact form: a body that is one commutative binary op on the two
// block arguments.

// CHECK-LABEL: func.func @reduce_compact
func.func @reduce_compact(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4xf32>, tensor<f32>, tensor<8xi32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %0 = stablehlo.reduce(%x init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.maximum across dimensions = [0, 1] {foo = 1 : i64} : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reduce(%x init: %cst) applies stablehlo.maximum across dimensions = [0, 1] {foo = 1 : i64} : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.xor across dimensions = [0] : (tensor<4x8xi32>, tensor<i32>) -> tensor<8xi32>
  %2 = stablehlo.reduce(%i init: %c) applies stablehlo.xor across dimensions = [0] : (tensor<4x8xi32>, tensor<i32>) -> tensor<8xi32>
  func.return %0, %1, %2 : tensor<4xf32>, tensor<f32>, tensor<8xi32>
}

// GENERIC-LABEL: "func.func"() <{sym_name = "reduce_compact"
// GENERIC: "stablehlo.reduce"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 1>}> ({
// GENERIC-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// GENERIC-NEXT: %[[S:.*]] = "stablehlo.add"(%[[A]], %[[B]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// GENERIC-NEXT: "stablehlo.return"(%[[S]]) : (tensor<f32>) -> ()
// GENERIC-NEXT: }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
// GENERIC: "stablehlo.reduce"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 0, 1>}> ({
// GENERIC: }) {foo = 1 : i64} : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>

// The region form: a variadic reduce (argmax), with block arguments listed
// in pairs (accumulator, element) per input; the block holds them as
// (acc0, acc1, x0, x1).

// CHECK-LABEL: func.func @reduce_argmax
func.func @reduce_argmax(%arg0: tensor<1024x512xf32>, %0: tensor<1024x512xi32>) -> tensor<1024xi32> {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: %{{.*}}, %[[IDX:.*]] = stablehlo.reduce(%{{.*}} init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [1] : (tensor<1024x512xf32>, tensor<1024x512xi32>, tensor<f32>, tensor<i32>) -> (tensor<1024xf32>, tensor<1024xi32>)
  // CHECK-NEXT: {{^}}     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
  // CHECK-NEXT: stablehlo.compare GT, %arg1, %arg3, FLOAT
  // CHECK: stablehlo.compare LT, %arg2, %arg4, SIGNED
  // CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
  // CHECK-NEXT: }
  %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<1024x512xf32>, tensor<1024x512xi32>, tensor<f32>, tensor<i32>) -> (tensor<1024xf32>, tensor<1024xi32>)
   reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
    %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  // CHECK: func.return %[[IDX]] : tensor<1024xi32>
  func.return %1#1 : tensor<1024xi32>
}

// GENERIC-LABEL: "func.func"() <{sym_name = "reduce_argmax"
// GENERIC: "stablehlo.reduce"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{dimensions = array<i64: 1>}> ({
// GENERIC-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<i32>):

// Bodies that do not qualify for the compact form print as regions: a
// non-commutative op, swapped arguments, an op with an attribute.

// CHECK-LABEL: func.func @reduce_not_compact
func.func @reduce_not_compact(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK-NEXT: reducer(%a: tensor<f32>, %b: tensor<f32>)  {
  // CHECK-NEXT: stablehlo.subtract %a, %b : tensor<f32>
  %0 = stablehlo.reduce(%x init: %cst) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %s = stablehlo.subtract %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  // CHECK: reducer(%p: tensor<f32>, %q: tensor<f32>)  {
  // CHECK-NEXT: stablehlo.add %q, %p : tensor<f32>
  %1 = stablehlo.reduce(%x init: %cst) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%p: tensor<f32>, %q: tensor<f32>)  {
    %s = stablehlo.add %q, %p : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  // CHECK: reducer(%u: tensor<f32>, %v: tensor<f32>)  {
  // CHECK-NEXT: stablehlo.add %u, %v {tag} : tensor<f32>
  %2 = stablehlo.reduce(%x init: %cst) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%u: tensor<f32>, %v: tensor<f32>)  {
    %s = stablehlo.add %u, %v {tag} : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  func.return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// A region-form body that qualifies prints compactly; the generic form too.

// CHECK-LABEL: func.func @reduce_becomes_compact
func.func @reduce_becomes_compact(%x: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.multiply across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  %0 = stablehlo.reduce(%x init: %cst) across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %s = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.minimum across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "stablehlo.reduce"(%x, %cst) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// reduce_window as JAX prints it, lowered (every attribute) and exported
// (defaults dropped): max pooling and a cumulative sum.

// CHECK-LABEL: func.func @reduce_window
func.func @reduce_window(%x: tensor<8x28x28x16xf32>, %y: tensor<512x1024xf32>) -> (tensor<8x14x14x16xf32>, tensor<8x14x14x16xf32>, tensor<512x1024xf32>) {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: "stablehlo.reduce_window"(%{{.*}}, %{{.*}}) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  // CHECK-NEXT: ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
  // CHECK-NEXT: stablehlo.maximum %arg7, %arg8 : tensor<f32>
  // CHECK: }) : (tensor<8x28x28x16xf32>, tensor<f32>) -> tensor<8x14x14x16xf32>
  %0 = "stablehlo.reduce_window"(%x, %cst) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
    %m = stablehlo.maximum %arg7, %arg8 : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<8x28x28x16xf32>, tensor<f32>) -> tensor<8x14x14x16xf32>
  // CHECK: "stablehlo.reduce_window"(%{{.*}}, %{{.*}}) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  %1 = "stablehlo.reduce_window"(%x, %cst) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
    %m = stablehlo.maximum %arg7, %arg8 : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<8x28x28x16xf32>, tensor<f32>) -> tensor<8x14x14x16xf32>
  // CHECK: "stablehlo.reduce_window"(%{{.*}}, %{{.*}}) <{padding = dense<{{\[\[}}0, 0], [1023, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 1024>}> ({
  // CHECK: }) : (tensor<512x1024xf32>, tensor<f32>) -> tensor<512x1024xf32>
  %2 = "stablehlo.reduce_window"(%y, %zero) <{padding = dense<[[0, 0], [1023, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 1024>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %s = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<512x1024xf32>, tensor<f32>) -> tensor<512x1024xf32>
  func.return %0, %1, %2 : tensor<8x14x14x16xf32>, tensor<8x14x14x16xf32>, tensor<512x1024xf32>
}

// Dilated and strided windows: (5-1)*2+1 = 9 plus padding 1+0 gives 10; a
// window of (3-1)*2+1 = 5 with stride 2 fits 3 times.

// CHECK-LABEL: func.func @reduce_window_dilated
func.func @reduce_window_dilated(%x: tensor<5xf32>) -> tensor<3xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: "stablehlo.reduce_window"
  // CHECK-SAME: base_dilations = array<i64: 2>
  %0 = "stablehlo.reduce_window"(%x, %zero) <{base_dilations = array<i64: 2>, padding = dense<[[1, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 2>, window_dimensions = array<i64: 3>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @select_and_scatter
func.func @select_and_scatter(%x: tensor<8x28x28x16xf32>, %src: tensor<8x14x14x16xf32>) -> (tensor<8x28x28x16xf32>, tensor<8x28x28x16xf32>) {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: "stablehlo.select_and_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  // CHECK-NEXT: ^bb0(%a: tensor<f32>, %b: tensor<f32>):
  // CHECK-NEXT: stablehlo.compare GE, %a, %b, FLOAT
  // CHECK: }, {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK-NEXT: stablehlo.add
  // CHECK: }) : (tensor<8x28x28x16xf32>, tensor<8x14x14x16xf32>, tensor<f32>) -> tensor<8x28x28x16xf32>
  %0 = "stablehlo.select_and_scatter"(%x, %src, %zero) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x28x28x16xf32>, tensor<8x14x14x16xf32>, tensor<f32>) -> tensor<8x28x28x16xf32>
  // CHECK: "stablehlo.select_and_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  %1 = "stablehlo.select_and_scatter"(%x, %src, %zero) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x28x28x16xf32>, tensor<8x14x14x16xf32>, tensor<f32>) -> tensor<8x28x28x16xf32>
  func.return %0, %1 : tensor<8x28x28x16xf32>, tensor<8x28x28x16xf32>
}

// CHECK-LABEL: func.func @sort
func.func @sort(%keys: tensor<65536xf32>, %vals: tensor<65536xi32>, %m: tensor<512x1024xf32>) -> (tensor<65536xi32>, tensor<512x1024xf32>, tensor<512x1024xf32>) {
  // CHECK: %{{.*}}, %[[V:.*]] = "stablehlo.sort"(%{{.*}}, %{{.*}}) <{dimension = 0 : i64, is_stable = true}> ({
  // CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
  // CHECK-NEXT: stablehlo.compare LT, %arg1, %arg2, TOTALORDER
  // CHECK: }) : (tensor<65536xf32>, tensor<65536xi32>) -> (tensor<65536xf32>, tensor<65536xi32>)
  %0:2 = "stablehlo.sort"(%keys, %vals) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %c = stablehlo.compare LT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<65536xf32>, tensor<65536xi32>) -> (tensor<65536xf32>, tensor<65536xi32>)
  // CHECK: "stablehlo.sort"(%{{.*}}) <{dimension = 1 : i64, is_stable = true}> ({
  // CHECK: }) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %1 = "stablehlo.sort"(%m) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  // Without properties: the last dimension, not stable.
  // CHECK: "stablehlo.sort"(%{{.*}}) ({
  %2 = "stablehlo.sort"(%m) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  // CHECK: func.return %[[V]], %{{.*}}, %{{.*}} : tensor<65536xi32>, tensor<512x1024xf32>, tensor<512x1024xf32>
  func.return %0#1, %1, %2 : tensor<65536xi32>, tensor<512x1024xf32>, tensor<512x1024xf32>
}
