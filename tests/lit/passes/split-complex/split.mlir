// RUN: xlir-opt %s --split-input-file -p split-complex | filecheck %s

// At the function's boundary a complex tensor is its parts interleaved (S x 2,
// marked xlir.complex); inside, two real tensors. add acts on each part,
// imag picks one, complex pairs two real tensors.

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[A:.*]]: tensor<4x2xf32> {xlir.complex}, %[[B:.*]]: tensor<4xf32>) -> (tensor<4x2xf32> {xlir.complex}, tensor<4xf32>)
// CHECK-NEXT:    %[[S0:.*]] = stablehlo.slice %[[A]] [0:4, 0:1] : (tensor<4x2xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[RE:.*]] = stablehlo.reshape %[[S0]] : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[S1:.*]] = stablehlo.slice %[[A]] [0:4, 1:2] : (tensor<4x2xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[IM:.*]] = stablehlo.reshape %[[S1]] : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.add %[[RE]], %[[RE]] : tensor<4xf32>
// CHECK-NEXT:    %[[SUM_IM:.*]] = stablehlo.add %[[IM]], %[[IM]] : tensor<4xf32>
// CHECK-NEXT:    %[[C0:.*]] = stablehlo.reshape %[[B]] : (tensor<4xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[C1:.*]] = stablehlo.reshape %[[SUM_IM]] : (tensor<4xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[PACKED:.*]] = stablehlo.concatenate %[[C0]], %[[C1]], dim = 1 : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    func.return %[[PACKED]], %[[SUM_IM]] : tensor<4x2xf32>, tensor<4xf32>
func.func @main(%a: tensor<4xcomplex<f32>>, %b: tensor<4xf32>) -> (tensor<4xcomplex<f32>>, tensor<4xf32>) {
  %0 = stablehlo.add %a, %a : tensor<4xcomplex<f32>>
  %1 = stablehlo.imag %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %2 = stablehlo.complex %b, %1 : tensor<4xcomplex<f32>>
  return %2, %1 : tensor<4xcomplex<f32>>, tensor<4xf32>
}

// -----

// multiply: (ac - bd) + (ad + bc)i.

// CHECK-LABEL: func.func @multiply(
// CHECK:         %[[AC:.*]] = stablehlo.multiply %[[A:[^,]*]], %[[C:[^ ]*]] : tensor<3xf64>
// CHECK-NEXT:    %[[BD:.*]] = stablehlo.multiply %[[B:[^,]*]], %[[D:[^ ]*]] : tensor<3xf64>
// CHECK-NEXT:    %[[RE:.*]] = stablehlo.subtract %[[AC]], %[[BD]] : tensor<3xf64>
// CHECK-NEXT:    %[[AD:.*]] = stablehlo.multiply %[[A]], %[[D]] : tensor<3xf64>
// CHECK-NEXT:    %[[BC:.*]] = stablehlo.multiply %[[B]], %[[C]] : tensor<3xf64>
// CHECK-NEXT:    %[[IM:.*]] = stablehlo.add %[[AD]], %[[BC]] : tensor<3xf64>
// CHECK:         stablehlo.concatenate
// CHECK-NOT:     complex
func.func @multiply(%x: tensor<3xcomplex<f64>>, %y: tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>> {
  %0 = stablehlo.multiply %x, %y : tensor<3xcomplex<f64>>
  return %0 : tensor<3xcomplex<f64>>
}

// -----

// A reduce carries both parts: two inputs, two inits, and a reducer on
// (acc re, x re) (acc im, x im) computing the complex product in scalars.

// CHECK-LABEL: func.func @reduce(
// CHECK-SAME:    tensor<3x4x2xf64> {xlir.complex}) -> (tensor<3x2xf64> {xlir.complex})
// CHECK:         %[[ONE:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<f64>
// CHECK-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f64>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = stablehlo.reduce(%{{.*}} init: %[[ONE]]), (%{{.*}} init: %[[ZERO]]) across dimensions = [1] : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<f64>, tensor<f64>) -> (tensor<3xf64>, tensor<3xf64>)
// CHECK-NEXT:    reducer(%[[ACC_RE:.*]]: tensor<f64>, %[[X_RE:.*]]: tensor<f64>) (%[[ACC_IM:.*]]: tensor<f64>, %[[X_IM:.*]]: tensor<f64>)
// CHECK-NEXT:      stablehlo.multiply %[[ACC_RE]], %[[X_RE]]
// CHECK-NEXT:      stablehlo.multiply %[[ACC_IM]], %[[X_IM]]
// CHECK-NEXT:      %[[RE:.*]] = stablehlo.subtract
// CHECK-NEXT:      stablehlo.multiply %[[ACC_RE]], %[[X_IM]]
// CHECK-NEXT:      stablehlo.multiply %[[ACC_IM]], %[[X_RE]]
// CHECK-NEXT:      %[[IM:.*]] = stablehlo.add
// CHECK-NEXT:      stablehlo.return %[[RE]], %[[IM]] : tensor<f64>, tensor<f64>
func.func @reduce(%a: tensor<3x4xcomplex<f64>>) -> tensor<3xcomplex<f64>> {
  %one = stablehlo.constant dense<(1.0, 0.0)> : tensor<complex<f64>>
  %0 = stablehlo.reduce(%a init: %one) applies stablehlo.multiply across dimensions = [1] : (tensor<3x4xcomplex<f64>>, tensor<complex<f64>>) -> tensor<3xcomplex<f64>>
  return %0 : tensor<3xcomplex<f64>>
}

// -----

// A sort comparator takes each operand's pair of sides: a complex key's
// become (lhs re, rhs re, lhs im, rhs im); LT is lexicographic.

// CHECK-LABEL: func.func @sort(
// CHECK:         "stablehlo.sort"(%{{.*}}, %{{.*}}, %{{.*}}) <{dimension = 0 : i64, is_stable = true}> ({
// CHECK-NEXT:    ^{{.*}}(%[[LRE:.*]]: tensor<f32>, %[[RRE:.*]]: tensor<f32>, %[[LIM:.*]]: tensor<f32>, %[[RIM:.*]]: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
// CHECK-NEXT:      %[[EQ:.*]] = stablehlo.compare EQ, %[[LRE]], %[[RRE]], FLOAT
// CHECK-NEXT:      %[[LT_IM:.*]] = stablehlo.compare LT, %[[LIM]], %[[RIM]], FLOAT
// CHECK-NEXT:      %[[TIE:.*]] = stablehlo.and %[[EQ]], %[[LT_IM]]
// CHECK-NEXT:      %[[LT:.*]] = stablehlo.compare LT, %[[LRE]], %[[RRE]], FLOAT
// CHECK-NEXT:      %[[FIRST:.*]] = stablehlo.or %[[LT]], %[[TIE]]
// CHECK-NEXT:      stablehlo.return %[[FIRST]] : tensor<i1>
func.func @sort(%a: tensor<6xcomplex<f32>>, %b: tensor<6xi32>) -> (tensor<6xcomplex<f32>>, tensor<6xi32>) {
  %0:2 = "stablehlo.sort"(%a, %b) ({
  ^bb0(%x: tensor<complex<f32>>, %y: tensor<complex<f32>>, %p: tensor<i32>, %q: tensor<i32>):
    %lt = stablehlo.compare LT, %x, %y : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<6xcomplex<f32>>, tensor<6xi32>) -> (tensor<6xcomplex<f32>>, tensor<6xi32>)
  return %0#0, %0#1 : tensor<6xcomplex<f32>>, tensor<6xi32>
}

// -----

// fft becomes hlo.fft on the parts: RFFT takes the real tensor and gives
// two; a complex constant becomes two real ones.

// CHECK-LABEL: func.func @fft(
// CHECK-NEXT:    %[[RE:.*]], %[[IM:.*]] = hlo.fft %{{.*}}, type = RFFT, length = [8] : (tensor<2x8xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>)
// CHECK-NEXT:    stablehlo.constant dense<[1.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    stablehlo.constant dense<[2.000000e+00, -4.000000e+00]> : tensor<2xf32>
// CHECK:         %[[BACK:.*]] = hlo.fft %{{.*}}, %{{.*}}, type = IFFT, length = [2] : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
func.func @fft(%a: tensor<2x8xf32>) -> (tensor<2x5xcomplex<f32>>, tensor<2xcomplex<f32>>) {
  %0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<2x8xf32>) -> tensor<2x5xcomplex<f32>>
  %c = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>
  %1 = stablehlo.fft %c, type = IFFT, length = [2] : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0, %1 : tensor<2x5xcomplex<f32>>, tensor<2xcomplex<f32>>
}

// -----

// A function of real tensors is left alone.

// CHECK-LABEL: func.func @real_only(%{{.*}}: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    stablehlo.add
// CHECK-NEXT:    func.return
func.func @real_only(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// real and imag of real numbers: the number, and zeros.

// CHECK-LABEL: func.func @parts_of_reals(
// CHECK-SAME:    %[[X:.*]]: tensor<3xf64>)
// CHECK-NEXT:    %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<3xf64>
// CHECK-NEXT:    func.return %[[X]], %[[Z]] : tensor<3xf64>, tensor<3xf64>
func.func @parts_of_reals(%x: tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>) {
  %0 = stablehlo.real %x : tensor<3xf64>
  %1 = stablehlo.imag %x : tensor<3xf64>
  return %0, %1 : tensor<3xf64>, tensor<3xf64>
}
