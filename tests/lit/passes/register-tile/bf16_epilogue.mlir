// RUN: xlir-opt %s -p 'hlo-opt,hlo-to-loop,widen-floats,register-tile{mr=2 nr=8 lanes=4}' | filecheck %s
// RUN: xlir-opt %s -p 'hlo-opt,hlo-to-loop,widen-floats,register-tile{mr=2 nr=8 lanes=4}' | xlir-opt | filecheck %s

// A bf16 dot with a heavy epilogue (a bias and a tanh): the output cannot
// hold the f32 sums, so each vector copy rounds its sums to bf16 (the
// epilogue's first ops) and stores those; one nest over the tile loads each
// back and runs the rest of the epilogue, with a single tanh, instead of a
// tanh per copy.
// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 8) step (2, 8) attributes {jam = array<i64: 2, 8>} {
// CHECK:           loop.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK:           loop.yield
// CHECK-NOT:       math.tanh
// CHECK-COUNT-4:   arith.trunci %{{.*}} : vector<4xi32> to vector<4xi16>
// CHECK-NOT:       math.tanh
// CHECK-COUNT-4:   loop.store %{{.*}}, %[[OUT:.*]][%{{.*}}, %{{.*}}] : memref<4x8xbf16>, vector<4xbf16>
// CHECK:           loop.parallel (%[[DI:.*]], %[[DJ:.*]]) = (0, 0) to (2, 8) step (1, 1) {
// CHECK:             %[[EI:.*]] = arith.addi %[[I]], %[[DI]] : index
// CHECK:             %[[EJ:.*]] = arith.addi %[[J]], %[[DJ]] : index
// CHECK:             loop.load %[[OUT]][%[[EI]], %[[EJ]]] : memref<4x8xbf16>
// CHECK:             math.tanh %{{.*}} : f32
// CHECK-NOT:         math.tanh
// CHECK:             loop.store %{{.*}}, %[[OUT]][%[[EI]], %[[EJ]]] : memref<4x8xbf16>
// CHECK:         loop.return
func.func @main(%a: tensor<4x16xbf16>, %b: tensor<16x8xbf16>, %c: tensor<8xbf16>) -> tensor<4x8xbf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x16xbf16>, tensor<16x8xbf16>) -> tensor<4x8xbf16>
  %cb = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<8xbf16>) -> tensor<4x8xbf16>
  %s = stablehlo.add %d, %cb : tensor<4x8xbf16>
  %t = stablehlo.tanh %s : tensor<4x8xbf16>
  return %t : tensor<4x8xbf16>
}
