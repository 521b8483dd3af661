// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=8 lanes=8}' --split-input-file | filecheck %s

// A convolution fused with its padding clamps and tests each index, the
// output channel's too, although the nest's bounds keep that one in range.
// Folded first (`fold_index.fold_decided`), the channel is a unit-stride
// column of the weights: the tile's copies are vectors. Before, the clamp
// made the column strided and the comparison used the index along the
// vector: 16 scalar copies. The row's test and lower clamp, which the
// bounds do not decide (row - 1 leaves the input), stay, once per row.
// CHECK-LABEL: loop.kernel @padded
// CHECK:         loop.parallel {{.*}} attributes {jam = array<i64: 2, 8>} {
// CHECK-COUNT-2:   arith.cmpi sge, %{{.*}}, %{{.*}} : index
// CHECK-NOT:       arith.cmpi
// CHECK-COUNT-2:   arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK-NOT:       arith.minsi
// CHECK:           loop.for {{.*}} -> (vector<8xf32>, vector<8xf32>) {
// CHECK:             loop.load %{{.*}} : memref<4x8xf32>, vector<8xf32>
// CHECK:           arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK:           loop.store %{{.*}} : memref<4x8xf32>, vector<8xf32>
// CHECK:         loop.return
loop.kernel @padded(%x: memref<4x4xf32>, %w: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
    %r = arith.subi %i, %c1 : index
    %row_in = arith.cmpi sge, %r, %c0 : index
    %rl = arith.maxsi %r, %c0 : index
    %row = arith.minsi %rl, %c3 : index
    %ch_low = arith.cmpi sge, %j, %c0 : index
    %ch_high = arith.cmpi sle, %j, %c7 : index
    %ch_in = arith.andi %ch_low, %ch_high : i1
    %inside = arith.andi %row_in, %ch_in : i1
    %cl = arith.maxsi %j, %c0 : index
    %ch = arith.minsi %cl, %c7 : index
    %s = loop.for %k = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
      %a = loop.load %x[%row, %k] : memref<4x4xf32>
      %b = loop.load %w[%k, %ch] : memref<4x8xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %v = arith.select %inside, %s, %zero : f32
    loop.store %v, %out[%i, %j] : memref<4x8xf32>
  }
  loop.return
}
