// RUN: xlir-opt %s -p sort-routines --split-input-file | filecheck %s

// JAX's float comparator after `simplify`: the totalOrder of canonicalized
// floats, ascending on the lhs side; the payload moves along.
// CHECK-LABEL: func.func @canonical
// CHECK:         "stablehlo.sort"(%k, %v)
// CHECK:         xlir.sort_routine = "canonical ascending 0"
func.func @canonical(%k: tensor<8xf32>, %v: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %r:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %below = stablehlo.not %ge : tensor<i1>
    %ordered = stablehlo.compare EQ, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = stablehlo.and %below, %ordered : tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  func.return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}

// -----

// The same with the sides swapped (and the `and` operands too): descending.
// CHECK-LABEL: func.func @canonical_descending
// CHECK:         xlir.sort_routine = "canonical descending 0"
func.func @canonical_descending(%k: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %r = "stablehlo.sort"(%k) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %ge = stablehlo.compare GE, %b, %a, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %below = stablehlo.not %ge : tensor<i1>
    %ordered = stablehlo.compare EQ, %b, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %gt = stablehlo.and %ordered, %below : tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  func.return %r : tensor<4x8xbf16>
}

// -----

// totalOrder on floats; integers signed, unsigned, or by their type; a key
// that is not the first operand; GT, or LT with the sides swapped:
// descending.
// CHECK-LABEL: func.func @compares
// CHECK:         xlir.sort_routine = "total descending 0"
// CHECK:         xlir.sort_routine = "signed ascending 0"
// CHECK:         xlir.sort_routine = "unsigned descending 0"
// CHECK:         xlir.sort_routine = "unsigned ascending 1"
// CHECK:         xlir.sort_routine = "signed descending 0"
func.func @compares(%f: tensor<5xf64>, %i: tensor<5xi64>, %u: tensor<5xui8>, %w: tensor<5xui64>) -> (tensor<5xf64>, tensor<5xi64>, tensor<5xui64>, tensor<5xui8>, tensor<5xi64>) {
  %0 = "stablehlo.sort"(%f) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %c = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<5xf64>) -> tensor<5xf64>
  %1 = "stablehlo.sort"(%i) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %c = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<5xi64>) -> tensor<5xi64>
  %2 = "stablehlo.sort"(%w) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<ui64>, %b: tensor<ui64>):
    %c = stablehlo.compare LT, %b, %a, UNSIGNED : (tensor<ui64>, tensor<ui64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<5xui64>) -> tensor<5xui64>
  %3:2 = "stablehlo.sort"(%i, %u) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<ui8>, %d: tensor<ui8>):
    %lt = stablehlo.compare LT, %c, %d : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<5xi64>, tensor<5xui8>) -> (tensor<5xi64>, tensor<5xui8>)
  %4 = "stablehlo.sort"(%i) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %c = stablehlo.compare GT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<5xi64>) -> tensor<5xi64>
  func.return %0, %1, %2, %3#1, %4 : tensor<5xf64>, tensor<5xi64>, tensor<5xui64>, tensor<5xui8>, tensor<5xi64>
}

// -----

// Left to the inline kernel: a plain float compare (NaN makes it no strict
// weak order), two keys, a compare of two operands' arguments, a compare of
// one side with itself, a comparator that computes on its keys, and a row
// of 2^31 elements (the routine's positions are i32).
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     xlir.sort_routine
func.func @kept(%f: tensor<5xf32>, %i: tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>, tensor<5xf32>, tensor<5xf32>, tensor<5xi32>) {
  %0 = "stablehlo.sort"(%f) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<5xf32>) -> tensor<5xf32>
  %1:2 = "stablehlo.sort"(%f, %i) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %then = stablehlo.compare LT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %then : tensor<i1>
    %r = stablehlo.or %lt, %tie : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<5xf32>, tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  %2:2 = "stablehlo.sort"(%f, %f) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %d, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<5xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>)
  %3 = "stablehlo.sort"(%f) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %neg = stablehlo.negate %a : tensor<f32>
    %lt = stablehlo.compare LT, %neg, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<5xf32>) -> tensor<5xf32>
  %4 = "stablehlo.sort"(%i) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %a, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<5xi32>) -> tensor<5xi32>
  func.return %0, %1#1, %2#0, %3, %4 : tensor<5xf32>, tensor<5xi32>, tensor<5xf32>, tensor<5xf32>, tensor<5xi32>
}

// -----

// CHECK-LABEL: func.func @long_row
// CHECK-NOT:     xlir.sort_routine
func.func @long_row(%i: tensor<2147483648xi8>) -> tensor<2147483648xi8> {
  %0 = "stablehlo.sort"(%i) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<2147483648xi8>) -> tensor<2147483648xi8>
  func.return %0 : tensor<2147483648xi8>
}
