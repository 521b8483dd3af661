// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=4 lanes=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=4 lanes=4}' --split-input-file | xlir-opt --split-input-file | filecheck %s

// A causal mask in a dot's epilogue compares the column number (the index
// along the vector, cast to i32) with the row's: the cast is made lane by
// lane (lane l's column is lane 0's plus l) and put into a vector, so the
// compare and the select stay vector ops. Before, the cast of the index
// along the vector made the tile 2 x 4 scalar copies.
// CHECK-LABEL: loop.kernel @causal
// CHECK:         loop.parallel (%{{.*}}, %[[J:.*]]) = {{.*}} attributes {jam = array<i64: 2, 4>} {
// CHECK:           loop.for {{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK:           %[[C0:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK:           %[[J1:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK-NEXT:      %[[C1:.*]] = arith.index_cast %[[J1]] : index to i32
// CHECK:           %[[V0:.*]] = vector.broadcast %[[C0]] : i32 to vector<4xi32>
// CHECK-NEXT:      %[[V1:.*]] = vector.insert %[[C1]], %[[V0]] [1] : i32 into vector<4xi32>
// CHECK-NEXT:      %[[V2:.*]] = vector.insert %{{.*}}, %[[V1]] [2] : i32 into vector<4xi32>
// CHECK-NEXT:      %[[V3:.*]] = vector.insert %{{.*}}, %[[V2]] [3] : i32 into vector<4xi32>
// CHECK:           arith.cmpi sle, %[[V3]], %{{.*}} : vector<4xi32>
// CHECK:           arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK:           loop.store %{{.*}} : memref<4x4xf32>, vector<4xf32>
loop.kernel @causal(%q: memref<4x8xf32>, %k: memref<8x4xf32>, %s: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -3.0e38 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
    %d = loop.for %t = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %q[%i, %t] : memref<4x8xf32>
      %y = loop.load %k[%t, %j] : memref<8x4xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %col = arith.index_cast %j : index to i32
    %row = arith.index_cast %i : index to i32
    %seen = arith.cmpi sle, %col, %row : i32
    %m = arith.select %seen, %d, %low : f32
    loop.store %m, %s[%i, %j] : memref<4x4xf32>
  }
  loop.return
}

// -----

// A one-hot's compare, turned into a float by `arith.uitofp`, goes vector:
// the compare gives a vector of i1 and `uitofp` converts it lane by lane (a
// mixture of experts' routing weights, moe_top2).
// CHECK-LABEL: loop.kernel @one_hot
// CHECK:         loop.parallel {{.*}} attributes {jam = array<i64: 2, 4>} {
// CHECK:           %[[HIT:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:           %[[ONE:.*]] = arith.uitofp %[[HIT]] : vector<4xi1> to vector<4xf32>
// CHECK:           math.fma %[[ONE]], %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:           loop.store %{{.*}} : memref<4x4xf32>, vector<4xf32>
// CHECK:         loop.return
loop.kernel @one_hot(%e: memref<4x2xi32>, %w: memref<4x2xf32>, %out: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
    %expert = arith.index_cast %j : index to i32
    %s = loop.for %t = 0 to 2 step 1 iter_args(%acc = %zero) -> (f32) {
      %chosen = loop.load %e[%i, %t] : memref<4x2xi32>
      %hit = arith.cmpi eq, %chosen, %expert : i32
      %one = arith.uitofp %hit : i1 to f32
      %weight = loop.load %w[%i, %t] : memref<4x2xf32>
      %p = arith.mulf %one, %weight : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i, %j] : memref<4x4xf32>
  }
  loop.return
}

// -----

// The same one-hot of the column number modulo 4 keeps scalar copies, for
// another reason: `arith.remui` of the column number is not made lane by lane.
// CHECK-LABEL: loop.kernel @one_hot_modulo
// CHECK:         loop.parallel {{.*}} attributes {jam = array<i64: 2, 4>} {
// CHECK-NOT:       vector
// CHECK-COUNT-8:   arith.uitofp %{{.*}} : i1 to f32
// CHECK-NOT:       vector
// CHECK:         loop.return
loop.kernel @one_hot_modulo(%e: memref<4x2xi32>, %w: memref<4x2xf32>, %out: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4 : i32
  loop.parallel (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
    %column = arith.index_cast %j : index to i32
    %expert = arith.remui %column, %four : i32
    %s = loop.for %t = 0 to 2 step 1 iter_args(%acc = %zero) -> (f32) {
      %chosen = loop.load %e[%i, %t] : memref<4x2xi32>
      %hit = arith.cmpi eq, %chosen, %expert : i32
      %one = arith.uitofp %hit : i1 to f32
      %weight = loop.load %w[%i, %t] : memref<4x2xf32>
      %p = arith.mulf %one, %weight : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i, %j] : memref<4x4xf32>
  }
  loop.return
}
