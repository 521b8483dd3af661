// RUN: xlir-opt %s -p 'hlo-opt,hlo-to-loop,register-tile{mr=2 nr=8 lanes=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'hlo-opt,hlo-to-loop,register-tile{mr=2 nr=8 lanes=4}' --split-input-file | xlir-opt --split-input-file | filecheck %s

// A dot whose epilogue compares its sums (a relu as a compare and a
// select) is vector copies: each vector of sums is compared lane by lane
// into a vector of i1, which the select takes.
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 8) step (2, 8) attributes {jam = array<i64: 2, 8>} {
// CHECK:           %[[Z:.*]] = vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK:           %[[S0:.*]], %{{.*}}, %{{.*}}, %{{.*}} = loop.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK:           %[[C0:.*]] = arith.cmpf ogt, %[[S0]], %[[Z]] : vector<4xf32>
// CHECK-COUNT-3:   arith.cmpf ogt, %{{.*}}, %[[Z]] : vector<4xf32>
// CHECK-NEXT:      arith.select %[[C0]], %[[S0]], %[[Z]] : vector<4xi1>, vector<4xf32>
// CHECK-COUNT-3:   arith.select %{{.*}}, %{{.*}}, %[[Z]] : vector<4xi1>, vector<4xf32>
// CHECK-NOT:       arith.cmpf {{.*}} : f32
// CHECK:         loop.return
func.func @main(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<4x8xf32>
  %p = stablehlo.compare GT, %d, %z : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %r = stablehlo.select %p, %d, %z : tensor<4x8xi1>, tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A compare whose i1 results are stored keeps the scalar copies: a buffer
// of i1 holds a byte per element, which a vector of i1 (packed bits) is not.
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 8) step (2, 8) attributes {jam = array<i64: 2, 8>} {
// CHECK-NOT:       vector
// CHECK-COUNT-16:  arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK-NOT:       vector
// CHECK:         loop.return
func.func @main(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xi1> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<4x8xf32>
  %p = stablehlo.compare LT, %d, %z : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  return %p : tensor<4x8xi1>
}
