// RUN: xlir-opt %s --split-input-file -p simplify | filecheck %s

// A threshold test reads the clamped value the program already computes:
// x > c becomes max(x, m) > c when m <= c (exact, NaN included).

// relu's backward mask: x > 0 reads relu(x) = max(x, 0).
// CHECK-LABEL: func.func @relu_mask
// CHECK:       %[[R:.*]] = stablehlo.maximum %x, %[[Z:.*]] : tensor<64xf32>
// CHECK-NEXT:  %[[M:.*]] = stablehlo.compare GT, %[[R]], %[[Z]], FLOAT
// CHECK-NEXT:  func.return %[[R]], %[[M]]
func.func @relu_mask(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xi1>) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %z = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<64xf32>
  %r = stablehlo.maximum %x, %z : tensor<64xf32>
  %m = stablehlo.compare GT, %x, %z, FLOAT : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  func.return %r, %m : tensor<64xf32>, tensor<64xi1>
}

// -----

// c < x with the maximum's operands swapped and m < c, on integers.
// CHECK-LABEL: func.func @lt_swapped
// CHECK:       %[[R:.*]] = stablehlo.maximum %{{.*}}, %x : tensor<4xi32>
// CHECK-NEXT:  stablehlo.compare LT, %{{.*}}, %[[R]], SIGNED
func.func @lt_swapped(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi1>) {
  %m = stablehlo.constant dense<-3> : tensor<4xi32>
  %c = stablehlo.constant dense<5> : tensor<4xi32>
  %r = stablehlo.maximum %m, %x : tensor<4xi32>
  %t = stablehlo.compare LT, %c, %x, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  func.return %r, %t : tensor<4xi32>, tensor<4xi1>
}

// -----

// Must not fire: GE (x = -1 fails x >= 0 but max(x, 0) >= 0 holds) and a
// TOTALORDER compare (a NaN may compare greater there).
// CHECK-LABEL: func.func @not_exact
// CHECK:       stablehlo.compare GE, %x,
// CHECK:       stablehlo.compare GT, %x, {{.*}} TOTALORDER
func.func @not_exact(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xi1>) {
  %zero = stablehlo.constant dense<0.0> : tensor<4xf32>
  %r = stablehlo.maximum %x, %zero : tensor<4xf32>
  %ge = stablehlo.compare GE, %x, %zero, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %total = stablehlo.compare GT, %x, %zero, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return %r, %ge, %total : tensor<4xf32>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Must not fire: a clamp above the threshold (x = 0 fails x > 1, but
// max(x, 2) > 1 holds), and a maximum computed after the compare.
// CHECK-LABEL: func.func @not_available
// CHECK:       stablehlo.compare GT, %x, {{.*}} FLOAT
// CHECK:       stablehlo.compare GT, %x, {{.*}} FLOAT
func.func @not_available(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<4xf32>
  %half = stablehlo.constant dense<0.5> : tensor<4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %two = stablehlo.constant dense<2.0> : tensor<4xf32>
  %r = stablehlo.maximum %x, %two : tensor<4xf32>
  %above = stablehlo.compare GT, %x, %one, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %early = stablehlo.compare GT, %x, %half, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %late = stablehlo.maximum %x, %zero : tensor<4xf32>
  func.return %r, %above, %early, %late : tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
}
