// RUN: xlir-opt %s --split-input-file -p dce | filecheck %s

// dce with regions: dead pure ops go, at any depth; an op with regions goes
// when its regions hold only pure ops (a reduce, a while loop — as in XLA
// and MLIR, a dead side-effect-free loop is removed even though it might not
// terminate); anything that may have effects (custom_call, in a region or
// not) stays.

// CHECK-LABEL: func.func @dead_pure
func.func @dead_pure(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK-NOT: stablehlo.multiply
  // CHECK-NOT: stablehlo.reduce
  // CHECK-NOT: stablehlo.constant
  // CHECK:     func.return %x
  %m = stablehlo.multiply %x, %x : tensor<8x4xf32>
  %a = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%m init: %a) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %x : tensor<8x4xf32>
}

// -----

// Dead ops inside a loop body and a reducer are removed; the loop stays.
// CHECK-LABEL: func.func @dead_inside
func.func @dead_inside(%n: tensor<i32>, %x: tensor<4xi32>) -> (tensor<i32>, tensor<i32>) {
  // CHECK:      stablehlo.while
  // CHECK:      } do {
  // CHECK-NEXT:   %[[ONE:.*]] = stablehlo.constant dense<1>
  // CHECK-NEXT:   %[[A:.*]] = stablehlo.add %{{.*}}, %[[ONE]]
  // CHECK-NEXT:   stablehlo.return %[[A]]
  // CHECK:      stablehlo.reduce(%x init: %{{.*}}) applies stablehlo.add
  %0 = stablehlo.while(%i = %n) : tensor<i32>
   cond {
    %c = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %dead = stablehlo.multiply %i, %i : tensor<i32>
    %1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }
  %z = stablehlo.constant dense<0> : tensor<i32>
  %2 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
   reducer(%p: tensor<i32>, %q: tensor<i32>) {
    %dead = stablehlo.multiply %p, %q : tensor<i32>
    %s = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  func.return %0, %2 : tensor<i32>, tensor<i32>
}

// -----

// CHECK-LABEL: func.func @dead_pure_while
func.func @dead_pure_while(%n: tensor<i32>) -> tensor<i32> {
  // CHECK-NOT: stablehlo.while
  // CHECK:     func.return %n
  %0 = stablehlo.while(%i = %n) : tensor<i32>
   cond {
    %c = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }
  func.return %n : tensor<i32>
}

// -----

// A loop whose body calls out keeps running, and so does a lone custom_call.
// CHECK-LABEL: func.func @effects_stay
func.func @effects_stay(%n: tensor<i32>) -> tensor<i32> {
  // CHECK: stablehlo.while
  // CHECK: stablehlo.custom_call @log(%{{.*}})
  // CHECK: stablehlo.custom_call @log(%n)
  %0 = stablehlo.while(%i = %n) : tensor<i32>
   cond {
    %c = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %i, %one : tensor<i32>
    %2 = stablehlo.custom_call @log(%1) : (tensor<i32>) -> tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }
  %3 = stablehlo.custom_call @log(%n) : (tensor<i32>) -> tensor<i32>
  func.return %n : tensor<i32>
}

// -----

// after_all is pure (as upstream): a token nothing reads goes.
// CHECK-LABEL: func.func @dead_token
func.func @dead_token(%t: !stablehlo.token) -> !stablehlo.token {
  // CHECK-NEXT: %[[KEPT:.*]] = stablehlo.after_all %t
  // CHECK-NEXT: func.return %[[KEPT]]
  %dead = stablehlo.after_all : !stablehlo.token
  %kept = stablehlo.after_all %t : !stablehlo.token
  func.return %kept : !stablehlo.token
}
