// Valid uses across regions and blocks verify and print back.
// RUN: xlir-opt %s --split-input-file | filecheck %s

// A while loop's regions use values defined before the loop; a case branch
// captures operands; a comparator uses a constant from its function.
func.func @nested(%n: tensor<i32>, %x: tensor<8xf32>, %p: tensor<i32>) -> (tensor<i32>, tensor<8xf32>, tensor<f32>) {
  %limit = stablehlo.constant dense<10> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %0 = stablehlo.while(%i = %n) : tensor<i32>
  cond {
    %c = stablehlo.compare LT, %i, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j : tensor<i32>
  }
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %a1 = stablehlo.add %a, %zero : tensor<f32>
    %lt = stablehlo.compare LT, %a1, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "stablehlo.case"(%p) ({
    stablehlo.return %zero : tensor<f32>
  }, {
    %s = stablehlo.reduce(%1 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  func.return %0, %1, %2 : tensor<i32>, tensor<8xf32>, tensor<f32>
}
// CHECK-LABEL: func.func @nested
// CHECK: stablehlo.compare LT, %i, %limit
// CHECK: stablehlo.add %a, %zero
// CHECK: stablehlo.return %zero

// -----

// A fusion sees only its arguments.
func.func @fusion(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.fusion"(%a) <{kind = #hlo<fusion_kind loop>}> ({
  ^bb0(%x: tensor<4xf32>):
    %1 = stablehlo.add %x, %x : tensor<4xf32>
    "hlo.yield"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @fusion
// CHECK: stablehlo.add %x, %x

// -----

// The module's region is a graph region: its ops may stand in any order.
%b = stablehlo.negate %a : tensor<4xf32>
%a = stablehlo.constant dense<1.0> : tensor<4xf32>
// CHECK: %b = stablehlo.negate %a
// CHECK: %a = stablehlo.constant

// -----

// Branches: the entry dominates every block; a join sees the entry's values,
// its own arguments and what the blocks dominating it define.
llvm.func @branches(%c: i1, %x: i32) -> i32 {
  %e = llvm.add %x, %x : i32
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  %a = llvm.add %e, %x : i32
  llvm.br ^bb3(%a : i32)
^bb2:
  llvm.br ^bb3(%e : i32)
^bb3(%r: i32):
  %s = llvm.add %r, %e : i32
  llvm.cond_br %c, ^bb4, ^bb3(%s : i32)
^bb4:
  %t = llvm.add %s, %r : i32
  llvm.return %t : i32
^dead:
  %u = llvm.add %a, %w : i32
  llvm.return %u : i32
^dead2:
  %w = llvm.add %x, %x : i32
  llvm.br ^dead
}
// CHECK-LABEL: llvm.func @branches
// CHECK: %t = llvm.add %s, %r
// CHECK: %u = llvm.add %a, %w
