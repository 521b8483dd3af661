// RUN: xlir-opt %s -p 'hlo-opt,hlo-to-loop,register-tile{mr=2 nr=8 lanes=4}' | filecheck %s
// RUN: xlir-opt %s -p 'hlo-opt,hlo-to-loop,register-tile{mr=2 nr=8 lanes=4}' | xlir-opt | filecheck %s

// An int8 dot's tile is vector copies: the casts have vector forms
// (xlir.dialects.arith), so B's columns are loaded as vectors of i8 and
// sign-extended as vectors, and the epilogue's sitofp converts vectors;
// each element of A is sign-extended once for the copies that share its
// load (xDSL declares no effects for its arith.extsi; a copy of it per
// column vector was made before). Without the vector forms the tile was
// 16 scalar copies.
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 8) step (2, 8) attributes {jam = array<i64: 2, 8>} {
// CHECK:           loop.for %[[K:.*]] = 0 to 16 step 1 iter_args({{.*}}) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>) {
// CHECK-NEXT:        %[[X0:.*]] = loop.load %{{.*}}[%[[I]], %[[K]]] : memref<4x16xi8>
// CHECK-NEXT:        %[[X1:.*]] = loop.load %{{.*}}[%{{.*}}, %[[K]]] : memref<4x16xi8>
// CHECK-NEXT:        %[[Y0:.*]] = loop.load %{{.*}}[%[[K]], %[[J]]] : memref<16x8xi8>, vector<4xi8>
// CHECK-NEXT:        %[[Y1:.*]] = loop.load %{{.*}}[%[[K]], %{{.*}}] : memref<16x8xi8>, vector<4xi8>
// CHECK-NEXT:        %[[W0:.*]] = arith.extsi %[[X0]] : i8 to i32
// CHECK-NEXT:        %[[W1:.*]] = arith.extsi %[[X1]] : i8 to i32
// CHECK-NEXT:        %[[V0:.*]] = arith.extsi %[[Y0]] : vector<4xi8> to vector<4xi32>
// CHECK-NEXT:        %[[V1:.*]] = arith.extsi %[[Y1]] : vector<4xi8> to vector<4xi32>
// CHECK-NEXT:        %[[S0:.*]] = vector.broadcast %[[W0]] : i32 to vector<4xi32>
// CHECK-NEXT:        arith.muli %[[S0]], %[[V0]] : vector<4xi32>
// CHECK-NEXT:        arith.muli %[[S0]], %[[V1]] : vector<4xi32>
// CHECK-NOT:         arith.extsi
// CHECK:             loop.yield
// CHECK-NEXT:      }
// CHECK-COUNT-4:   arith.sitofp %{{.*}} : vector<4xi32> to vector<4xf32>
func.func @main(%a: tensor<4x16xi8>, %b: tensor<16x8xi8>) -> tensor<4x8xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x16xi8>, tensor<16x8xi8>) -> tensor<4x8xi32>
  %f = stablehlo.convert %d : (tensor<4x8xi32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}
