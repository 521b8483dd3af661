// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=16 lanes=8}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=16 lanes=8}' --split-input-file | xlir-opt --split-input-file | filecheck %s

// A recurrent cell's gates (an LSTM's, a GRU's): one reduction per gate,
// each followed by its sigmoid or tanh, in one nest. The vector copies are
// `lanes` wide however many sums the nest carries (each gate's sum is a
// vector of its own), so the transcendentals stay on vectors of 8 lanes:
// two gates of a tile row of 16 columns are 2 x 2 vector exps and tanhs,
// where copies of 8 / 2 = 4 lanes went back to 16 scalar copies of each.
// CHECK-LABEL: loop.kernel @gates
// CHECK:         loop.parallel {{.*}} attributes {jam = array<i64: 1, 16>} {
// CHECK:           loop.for {{.*}} -> (vector<8xf32>, vector<8xf32>) {
// CHECK-COUNT-2:   math.exp %{{.*}} : vector<8xf32>
// CHECK:           loop.for {{.*}} -> (vector<8xf32>, vector<8xf32>) {
// CHECK-COUNT-2:   math.tanh %{{.*}} : vector<8xf32>
// CHECK-COUNT-2:   loop.store %{{.*}} : memref<4x16xf32>, vector<8xf32>
// CHECK-NOT:       math.
// CHECK:         loop.return
loop.kernel @gates(%h: memref<4x8xf32>, %w: memref<8x32xf32>, %out: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c16 = arith.constant 16 : index
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %input = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %h[%i, %k] : memref<4x8xf32>
      %y = loop.load %w[%k, %j] : memref<8x32xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %minus = arith.negf %input : f32
    %e = math.exp %minus : f32
    %d = arith.addf %one, %e : f32
    %sigmoid = arith.divf %one, %d : f32
    %jc = arith.addi %j, %c16 : index
    %cell = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %h[%i, %k] : memref<4x8xf32>
      %y = loop.load %w[%k, %jc] : memref<8x32xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %t = math.tanh %cell : f32
    %r = arith.mulf %sigmoid, %t : f32
    loop.store %r, %out[%i, %j] : memref<4x16xf32>
  }
  loop.return
}

// -----

// A tile whose columns are fewer than 8 (a remainder of 4 columns) keeps
// scalar copies of its transcendentals: on vectors of fewer lanes they run
// slower than the scalar copies LLVM's SLP vectorizer packs
// (`jam_vector.EXPANDED_WIDTH`).
// CHECK-LABEL: loop.kernel @narrow_gates
// CHECK:         loop.parallel {{.*}} attributes {jam = array<i64: 1, 4>} {
// CHECK-NOT:       vector
// CHECK-COUNT-4:   math.exp %{{.*}} : f32
// CHECK-NOT:       vector
// CHECK:         loop.return
loop.kernel @narrow_gates(%h: memref<4x8xf32>, %w: memref<8x8xf32>, %out: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c4 = arith.constant 4 : index
  loop.parallel (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
    %input = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %h[%i, %k] : memref<4x8xf32>
      %y = loop.load %w[%k, %j] : memref<8x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %e = math.exp %input : f32
    %jc = arith.addi %j, %c4 : index
    %cell = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %h[%i, %k] : memref<4x8xf32>
      %y = loop.load %w[%k, %jc] : memref<8x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %r = arith.mulf %e, %cell : f32
    loop.store %r, %out[%i, %j] : memref<4x4xf32>
  }
  loop.return
}
