// RUN: xlir-opt %s --split-input-file -p simplify | filecheck %s

// JAX's float sort comparator: both sides canonicalized (-0 as +0, every
// NaN as one positive NaN), then a total-order LT. It becomes float
// compares of the arguments themselves that answer the same,
// !(a >= b) && a == a, and the canonicalizations die.

// CHECK-LABEL: func.func @ascending
// CHECK:       ^{{.*}}(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK-NEXT:    %[[GE:.*]] = stablehlo.compare GE, %[[A]], %[[B]], FLOAT
// CHECK-NEXT:    %[[BELOW:.*]] = stablehlo.not %[[GE]]
// CHECK-NEXT:    %[[ORDERED:.*]] = stablehlo.compare EQ, %[[A]], %[[A]], FLOAT
// CHECK-NEXT:    %[[LESS:.*]] = stablehlo.and %[[BELOW]], %[[ORDERED]]
// CHECK-NEXT:    stablehlo.return %[[LESS]]
func.func @ascending(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %1 = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %zero, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %b, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %zero, %b : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// A descending one (GT) compares the other way round; outside a
// comparator, on whole tensors, the rewrite is the same.

// CHECK-LABEL: func.func @descending
// CHECK-SAME:    (%[[X:.*]]: tensor<4xbf16>, %[[Y:.*]]: tensor<4xbf16>)
// CHECK-NEXT:    %[[GE:.*]] = stablehlo.compare GE, %[[Y]], %[[X]], FLOAT
// CHECK-NEXT:    %[[BELOW:.*]] = stablehlo.not %[[GE]]
// CHECK-NEXT:    %[[ORDERED:.*]] = stablehlo.compare EQ, %[[Y]], %[[Y]], FLOAT
// CHECK-NEXT:    %[[MORE:.*]] = stablehlo.and %[[BELOW]], %[[ORDERED]]
// CHECK-NEXT:    func.return %[[MORE]]
func.func @descending(%x: tensor<4xbf16>, %y: tensor<4xbf16>) -> tensor<4xi1> {
  %zero = stablehlo.constant dense<-0.0> : tensor<4xbf16>
  %nan = stablehlo.constant dense<0x7FC0> : tensor<4xbf16>
  %1 = stablehlo.compare EQ, %x, %zero, FLOAT : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
  %2 = stablehlo.select %1, %zero, %x : tensor<4xi1>, tensor<4xbf16>
  %3 = stablehlo.compare NE, %x, %x, FLOAT : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
  %4 = stablehlo.select %3, %nan, %2 : tensor<4xi1>, tensor<4xbf16>
  %5 = stablehlo.compare EQ, %y, %zero, FLOAT : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
  %6 = stablehlo.select %5, %zero, %y : tensor<4xi1>, tensor<4xbf16>
  %7 = stablehlo.compare NE, %y, %y, FLOAT : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
  %8 = stablehlo.select %7, %nan, %6 : tensor<4xi1>, tensor<4xbf16>
  %9 = stablehlo.compare GT, %4, %8, TOTALORDER : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
  return %9 : tensor<4xi1>
}

// -----

// A negative canonical NaN sorts below -inf in the total order, and a side
// that is not canonicalized keeps its NaNs apart: both are left alone.

// CHECK-LABEL: func.func @negative_nan
// CHECK:         stablehlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER
// CHECK-LABEL: func.func @one_side_raw
// CHECK:         stablehlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER
func.func @negative_nan(%x: tensor<f32>, %y: tensor<f32>) -> tensor<i1> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %nan = stablehlo.constant dense<0xFFC00000> : tensor<f32>
  %1 = stablehlo.compare EQ, %x, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %2 = stablehlo.select %1, %zero, %x : tensor<i1>, tensor<f32>
  %3 = stablehlo.compare NE, %x, %x, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
  %5 = stablehlo.compare EQ, %y, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %6 = stablehlo.select %5, %zero, %y : tensor<i1>, tensor<f32>
  %7 = stablehlo.compare NE, %y, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
  %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %9 : tensor<i1>
}

func.func @one_side_raw(%x: tensor<f32>, %y: tensor<f32>) -> tensor<i1> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %1 = stablehlo.compare EQ, %x, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %2 = stablehlo.select %1, %zero, %x : tensor<i1>, tensor<f32>
  %3 = stablehlo.compare NE, %x, %x, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
  %9 = stablehlo.compare LT, %4, %y, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %9 : tensor<i1>
}
