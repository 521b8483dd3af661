// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=4 lanes=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=4 lanes=4}' --split-input-file | xlir-opt --split-input-file | filecheck %s
// RUN: not xlir-opt %s -p 'register-tile{lanes=-1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: register-tile: mr, nr and lanes must be non-negative (0: from the vector registers), got mr=0 nr=0 lanes=-1

// Vector copies (passes/loop/jam_vector.py): the tile's columns are one copy of
// vector ops per `lanes` columns.

// A 4x6x8 matmul: per row of the 2x4 tile one vector of B and a broadcast
// element of A make one vector FMA; the accumulators start from a broadcast
// zero and are stored as vectors. The two columns left get 2-lane vectors.
// CHECK-LABEL: loop.kernel @matmul
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, 4) step (2, 4) attributes {jam = array<i64: 2, 4>} {
// CHECK:           %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[Z:.*]] = vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK-NEXT:      %[[R0:.*]], %[[R1:.*]] = loop.for %[[K:.*]] = 0 to 8 step 1 iter_args(%[[A0:.*]] = %[[Z]], %[[A1:.*]] = %[[Z]]) -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:        %[[X0:.*]] = loop.load %{{.*}}[%[[I]], %[[K]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[X1:.*]] = loop.load %{{.*}}[%[[I1]], %[[K]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[Y:.*]] = loop.load %{{.*}}[%[[K]], %[[J]]] : memref<8x6xf32>, vector<4xf32>
// CHECK-NEXT:        %[[S0:.*]] = vector.broadcast %[[X0]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[F0:.*]] = math.fma %[[S0]], %[[Y]], %[[A0]] : vector<4xf32>
// CHECK-NEXT:        %[[S1:.*]] = vector.broadcast %[[X1]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[F1:.*]] = math.fma %[[S1]], %[[Y]], %[[A1]] : vector<4xf32>
// CHECK-NEXT:        loop.yield %[[F0]], %[[F1]] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %[[R0]], %{{.*}}[%[[I]], %[[J]]] : memref<4x6xf32>, vector<4xf32>
// CHECK-NEXT:      loop.store %[[R1]], %{{.*}}[%[[I1]], %[[J]]] : memref<4x6xf32>, vector<4xf32>
// CHECK-NEXT:    }
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 4) to (4, 6) step (2, 2) attributes {jam = array<i64: 2, 2>} {
// CHECK:           loop.for {{.*}} -> (vector<2xf32>, vector<2xf32>) {
// CHECK:           loop.store {{.*}} : memref<4x6xf32>, vector<2xf32>
loop.kernel @matmul(%a: memref<4x8xf32>, %b: memref<8x6xf32>, %c: memref<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 6) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x6xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x6xf32>
  }
  loop.return
}


// -----

// A cheap epilogue (bias add, relu) runs on the vectors: the bias is one
// vector load shared by the rows, relu's zero the broadcast the
// accumulators started from.
// CHECK-LABEL: loop.kernel @dense_relu
// CHECK:         %[[Z:.*]] = vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK:         %[[R0:.*]], %[[R1:.*]] = loop.for
// CHECK:         }
// CHECK-NEXT:    %[[B:.*]] = loop.load %{{.*}}[%[[J:.*]]] : memref<8xf32>, vector<4xf32>
// CHECK-NEXT:    %[[T0:.*]] = arith.addf %[[R0]], %[[B]] : vector<4xf32>
// CHECK-NEXT:    %[[T1:.*]] = arith.addf %[[R1]], %[[B]] : vector<4xf32>
// CHECK-NEXT:    %[[M0:.*]] = arith.maximumf %[[T0]], %[[Z]] : vector<4xf32>
// CHECK-NEXT:    arith.maximumf %[[T1]], %[[Z]] : vector<4xf32>
// CHECK-NEXT:    loop.store %[[M0]], %{{.*}}[%{{.*}}, %[[J]]] : memref<4x8xf32>, vector<4xf32>
loop.kernel @dense_relu(%a: memref<4x3xf32>, %b: memref<3x8xf32>, %bias: memref<8xf32>, %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
    %s = loop.for %k = 0 to 3 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x3xf32>
      %y = loop.load %b[%k, %j] : memref<3x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %bj = loop.load %bias[%j] : memref<8xf32>
    %t = arith.addf %s, %bj : f32
    %r = arith.maximumf %t, %zero : f32
    loop.store %r, %out[%i, %j] : memref<4x8xf32>
  }
  loop.return
}


// -----

// A costly epilogue still runs once per tile, on scalars: the vector
// accumulators are stored to the output and loaded back element by element.
// CHECK-LABEL: loop.kernel @dense_tanh
// CHECK:         %[[R0:.*]], %[[R1:.*]] = loop.for {{.*}} -> (vector<4xf32>, vector<4xf32>)
// CHECK-NOT:       math.tanh
// CHECK:         loop.store %[[R0]], %[[OUT:.*]][%{{.*}}, %{{.*}}] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:    loop.store %[[R1]], %[[OUT]][%{{.*}}, %{{.*}}] : memref<2x4xf32>, vector<4xf32>
// CHECK-NEXT:    loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (2, 4) step (1, 1) {
// CHECK:           %[[A:.*]] = loop.load %[[OUT]][%{{.*}}, %{{.*}}] : memref<2x4xf32>
// CHECK:           math.tanh %{{.*}} : f32
loop.kernel @dense_tanh(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %bias: memref<4xf32>, %out: memref<2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (2, 4) step (1, 1) {
    %s = loop.for %k = 0 to 3 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<2x3xf32>
      %y = loop.load %b[%k, %j] : memref<3x4xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %bj = loop.load %bias[%j] : memref<4xf32>
    %t = arith.addf %s, %bj : f32
    %r = math.tanh %t : f32
    loop.store %r, %out[%i, %j] : memref<2x4xf32>
  }
  loop.return
}


// -----

// f64 carries twice the bytes: half the rows and half the lanes.
// CHECK-LABEL: loop.kernel @f64
// CHECK:         loop.parallel (%{{.*}}, %[[J:.*]]) = (0, 0) to (2, 4) step (1, 4) attributes {jam = array<i64: 1, 4>} {
// CHECK:           %[[J2:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK:           loop.for {{.*}} -> (vector<2xf64>, vector<2xf64>) {
// CHECK:             loop.load %{{.*}}[%{{.*}}, %[[J]]] : memref<3x4xf64>, vector<2xf64>
// CHECK-NEXT:        loop.load %{{.*}}[%{{.*}}, %[[J2]]] : memref<3x4xf64>, vector<2xf64>
loop.kernel @f64(%a: memref<2x3xf64>, %b: memref<3x4xf64>, %out: memref<2x4xf64>) {
  %zero = arith.constant 0.0 : f64
  loop.parallel (%i, %j) = (0, 0) to (2, 4) step (1, 1) {
    %s = loop.for %k = 0 to 3 step 1 iter_args(%acc = %zero) -> (f64) {
      %x = loop.load %a[%i, %k] : memref<2x3xf64>
      %y = loop.load %b[%k, %j] : memref<3x4xf64>
      %p = arith.mulf %x, %y : f64
      %n = arith.addf %acc, %p : f64
      loop.yield %n : f64
    }
    loop.store %s, %out[%i, %j] : memref<2x4xf64>
  }
  loop.return
}


// -----

// The column index computed on as a number (not to address a vector, nor
// only cast to an integer: lane_numbers.mlir) keeps scalar copies.
// CHECK-LABEL: loop.kernel @column_index
// CHECK-NOT:     vector
// CHECK:         loop.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-NOT:     vector
// CHECK:         loop.return
loop.kernel @column_index(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %out: memref<2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (2, 4) step (1, 1) {
    %s = loop.for %k = 0 to 3 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<2x3xf32>
      %y = loop.load %b[%k, %j] : memref<3x4xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %jj = arith.muli %j, %j : index
    %ji = arith.index_cast %jj : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %r = arith.addf %s, %jf : f32
    loop.store %r, %out[%i, %j] : memref<2x4xf32>
  }
  loop.return
}
