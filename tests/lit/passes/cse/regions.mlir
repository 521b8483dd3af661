// RUN: xlir-opt %s --split-input-file -p cse | filecheck %s

// cse on ops with regions: equal ops (same operands, attributes and bodies)
// merge; bodies that differ, or that read different outer values, do not;
// ops with effects (custom_call) never merge.

// CHECK-LABEL: func.func @equal_reduces
func.func @equal_reduces(%x: tensor<8x4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK:      %[[R:.*]] = stablehlo.reduce(%x init: %{{.*}}) applies stablehlo.add across dimensions = [0]
  // CHECK-NOT:  stablehlo.reduce
  // CHECK:      func.return %[[R]], %[[R]]
  %a = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %a) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.reduce(%x init: %b) across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%p: tensor<f32>, %q: tensor<f32>) {
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Different reducers, different dimensions: three reduces stay.
// CHECK-LABEL: func.func @different_reduces
func.func @different_reduces(%x: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK-COUNT-3: stablehlo.reduce
  %a = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %a) applies stablehlo.add across dimensions = [0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.reduce(%x init: %a) applies stablehlo.maximum across dimensions = [0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = stablehlo.reduce(%x init: %a) applies stablehlo.add across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Bodies that read different values from outside are different.
// CHECK-LABEL: func.func @captures
func.func @captures(%x: tensor<8xf32>, %s: tensor<f32>, %t: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK-COUNT-2: stablehlo.reduce
  %a = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %a) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
   reducer(%p: tensor<f32>, %q: tensor<f32>) {
    %m = stablehlo.multiply %p, %s : tensor<f32>
    %r = stablehlo.add %m, %q : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }
  %1 = stablehlo.reduce(%x init: %a) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
   reducer(%p: tensor<f32>, %q: tensor<f32>) {
    %m = stablehlo.multiply %p, %t : tensor<f32>
    %r = stablehlo.add %m, %q : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }
  func.return %0, %1 : tensor<f32>, tensor<f32>
}

// -----

// Inside a while body: duplicates merge, and an op equal to one outside the
// loop reuses it (the body is not isolated from above).
// CHECK-LABEL: func.func @in_while
func.func @in_while(%n: tensor<i32>, %k: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  // CHECK:      %[[KK:.*]] = stablehlo.add %k, %k
  // CHECK:      stablehlo.while
  // CHECK:      } do {
  // CHECK-NEXT:   %[[A:.*]] = stablehlo.add %{{.*}}, %[[KK]]
  // CHECK-NEXT:   %[[M:.*]] = stablehlo.multiply %[[A]], %[[A]]
  // CHECK-NEXT:   stablehlo.return %[[M]]
  %kk = stablehlo.add %k, %k : tensor<i32>
  %0 = stablehlo.while(%i = %n) : tensor<i32>
   cond {
    %c = stablehlo.constant dense<100> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %again = stablehlo.add %k, %k : tensor<i32>
    %1 = stablehlo.add %i, %again : tensor<i32>
    %2 = stablehlo.add %i, %again : tensor<i32>
    %3 = stablehlo.multiply %1, %2 : tensor<i32>
    stablehlo.return %3 : tensor<i32>
  }
  func.return %0, %kk : tensor<i32>, tensor<i32>
}

// -----

// Two equal loops of pure bodies compute the same: one remains.
// CHECK-LABEL: func.func @equal_whiles
func.func @equal_whiles(%n: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  // CHECK:     %[[W:.*]] = stablehlo.while
  // CHECK-NOT: stablehlo.while
  // CHECK:     func.return %[[W]], %[[W]]
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
  %2 = stablehlo.while(%i = %n) : tensor<i32>
   cond {
    %c = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }
  func.return %0, %2 : tensor<i32>, tensor<i32>
}

// -----

// custom_call may have effects: equal calls stay, even unused ones.
// CHECK-LABEL: func.func @custom_calls
func.func @custom_calls(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-COUNT-3: stablehlo.custom_call @foo(%x)
  %0 = stablehlo.custom_call @foo(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.custom_call @foo(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.custom_call @foo(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Equal sorts (a comparator region) merge.
// CHECK-LABEL: func.func @equal_sorts
func.func @equal_sorts(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK:     %[[S:.*]] = "stablehlo.sort"
  // CHECK-NOT: "stablehlo.sort"
  // CHECK:     func.return %[[S]], %[[S]]
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
