// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=4 lanes=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=4 lanes=4}' --split-input-file | xlir-opt --split-input-file | filecheck %s

// A transposed operand (`B[j, k]`: a training step's gradient dots, a
// transposed convolution's filter) is read along the vector by its leading
// index: each lane's element is a scalar load, put into a vector (lane 0
// broadcast, the others inserted), and the rest of the tile is vector ops.
// Before, the whole tile was scalar copies (2 x 4 multiply-adds per step).
// CHECK-LABEL: loop.kernel @transposed
// CHECK:         loop.parallel (%{{.*}}, %[[J:.*]]) = {{.*}} attributes {jam = array<i64: 2, 4>} {
// CHECK:           loop.for %[[K:.*]] = 0 to 8 step 1 {{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK:             %[[B0:.*]] = loop.load %{{.*}}[%[[J]], %[[K]]] : memref<8x8xf32>
// CHECK:             %[[J1:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK-NEXT:        %[[B1:.*]] = loop.load %{{.*}}[%[[J1]], %[[K]]] : memref<8x8xf32>
// CHECK:             %[[J2:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK-NEXT:        %[[B2:.*]] = loop.load %{{.*}}[%[[J2]], %[[K]]] : memref<8x8xf32>
// CHECK:             %[[J3:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK-NEXT:        %[[B3:.*]] = loop.load %{{.*}}[%[[J3]], %[[K]]] : memref<8x8xf32>
// CHECK-NEXT:        %[[V0:.*]] = vector.broadcast %[[B0]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[V1:.*]] = vector.insert %[[B1]], %[[V0]] [1] : f32 into vector<4xf32>
// CHECK-NEXT:        %[[V2:.*]] = vector.insert %[[B2]], %[[V1]] [2] : f32 into vector<4xf32>
// CHECK-NEXT:        %[[V3:.*]] = vector.insert %[[B3]], %[[V2]] [3] : f32 into vector<4xf32>
// CHECK-COUNT-2:     math.fma %{{.*}}, %[[V3]], %{{.*}} : vector<4xf32>
// CHECK:           loop.store %{{.*}} : memref<4x8xf32>, vector<4xf32>
loop.kernel @transposed(%a: memref<4x8xf32>, %b: memref<8x8xf32>, %c: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%j, %k] : memref<8x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x8xf32>
  }
  loop.return
}

// -----

// Stays scalar copies: a leading index that is not the variable plus
// something that does not vary (twice the column, whose lanes are no
// offsets of lane 0's: 'arith.muli' uses an index along the vector), and a
// store along the vector by its leading index (a transposed output).
// CHECK-LABEL: loop.kernel @strided
// CHECK:         loop.parallel {{.*}} attributes {jam = array<i64: 2, 4>} {
// CHECK-NOT:       vector
// CHECK:         loop.return
// CHECK-LABEL: loop.kernel @transposed_output
// CHECK:         loop.parallel {{.*}} attributes {jam = array<i64: 2, 4>} {
// CHECK-NOT:       vector
// CHECK:         loop.return
loop.kernel @strided(%a: memref<4x8xf32>, %b: memref<16x8xf32>, %c: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2 : index
  loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
    %row = arith.muli %j, %two : index
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%row, %k] : memref<16x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x8xf32>
  }
  loop.return
}
loop.kernel @transposed_output(%a: memref<4x8xf32>, %b: memref<8x8xf32>, %c: memref<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x8xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%j, %i] : memref<8x4xf32>
  }
  loop.return
}
