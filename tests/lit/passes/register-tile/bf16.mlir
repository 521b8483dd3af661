// RUN: xlir-opt %s -p 'hlo-opt,hlo-to-loop,widen-floats,register-tile{mr=2 nr=8 lanes=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'hlo-opt,hlo-to-loop,widen-floats,register-tile{mr=2 nr=8 lanes=4}' --split-input-file | xlir-opt --split-input-file | filecheck %s

// A bf16 dot's tile is vector copies: B's columns are loaded as vectors of
// bf16 and widened to f32 by shifting their bits, and each sum is rounded
// back to bf16 (ties to even, NaN kept: widen-floats) by integer compares
// and selects on vectors. Without the vector forms of the shifts, bitcasts,
// compares and selects the tile was 16 scalar copies. The rounding is all
// the epilogue does, so the copies' stores are the output: no nest over the
// tile loads each element and stores it back.
// CHECK-LABEL: loop.kernel @dot_general_1
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 8) step (2, 8) attributes {jam = array<i64: 2, 8>} {
// CHECK:           loop.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK:             %[[Y:.*]] = loop.load %{{.*}} : memref<16x8xbf16>, vector<4xbf16>
// CHECK:             %[[B:.*]] = arith.bitcast %[[Y]] : vector<4xbf16> to vector<4xi16>
// CHECK:             %[[W:.*]] = arith.extui %[[B]] : vector<4xi16> to vector<4xi32>
// CHECK:             %[[H:.*]] = arith.shli %[[W]], %{{.*}} : vector<4xi32>
// CHECK:             arith.bitcast %[[H]] : vector<4xi32> to vector<4xf32>
// CHECK:             math.fma {{.*}} : vector<4xf32>
// CHECK:           loop.yield
// CHECK:         arith.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK:         %[[NAN:.*]] = arith.cmpi ugt, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:         %[[R:.*]] = arith.select %[[NAN]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi32>
// CHECK:         %[[T:.*]] = arith.trunci %[[R]] : vector<4xi32> to vector<4xi16>
// CHECK:         %[[O:.*]] = arith.bitcast %[[T]] : vector<4xi16> to vector<4xbf16>
// CHECK:         loop.store %[[O]], %{{.*}} : memref<4x8xbf16>, vector<4xbf16>
// CHECK-NOT:     arith.cmpi {{.*}} : i32
// CHECK-NOT:     loop.parallel
// CHECK:         loop.return
func.func @main(%a: tensor<4x16xbf16>, %b: tensor<16x8xbf16>) -> tensor<4x8xbf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x16xbf16>, tensor<16x8xbf16>) -> tensor<4x8xbf16>
  return %d : tensor<4x8xbf16>
}
