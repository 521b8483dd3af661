// RUN: xlir-opt %s -p dot-quads | filecheck %s
// RUN: xlir-opt %s -p dot-quads,register-tile{vector-bits=512\ vector-registers=32} | filecheck %s --check-prefix=TILE

// The loop over a byte quad of an int8 dot (here an s8 lhs and a u8 rhs:
// the extsi and extui say which is dot_quads' unsigned operand) becomes one arith.dot_quads on the quads read as i32
// words through a loop.reshape of each buffer, made once; register-tile
// then tiles it with vector copies, the lhs word broadcast.

// CHECK-LABEL: loop.kernel @quads
// CHECK:         %[[A:.*]] = loop.reshape %a : memref<8x16x4xi8> -> memref<8x16xi32>
// CHECK-NEXT:    %[[B:.*]] = loop.reshape %b : memref<16x32x4xi8> -> memref<16x32xi32>
// CHECK:         loop.for %[[K:.*]] = 0 to 16 step 1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK-NEXT:      %[[U:.*]] = loop.load %[[B]][%[[K]], %{{.*}}] : memref<16x32xi32>
// CHECK-NEXT:      %[[S:.*]] = loop.load %[[A]][%{{.*}}, %[[K]]] : memref<8x16xi32>
// CHECK-NEXT:      %[[D:.*]] = arith.dot_quads %[[ACC]], %[[U]], %[[S]] : i32
// CHECK-NEXT:      loop.yield %[[D]] : i32
// TILE-LABEL: loop.kernel @quads
// TILE:         loop.for %{{.*}} -> (vector<16xi32>, vector<16xi32>
// TILE:         arith.dot_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi32>
loop.kernel @quads(%a: memref<8x16x4xi8>, %b: memref<16x32x4xi8>, %out: memref<8x32xi32>) {
  %zero = arith.constant 0 : i32
  loop.parallel (%i, %j) = (0, 0) to (8, 32) step (1, 1) {
    %sum = loop.for %kq = 0 to 16 step 1 iter_args(%acc = %zero) -> (i32) {
      %quad = loop.for %t = 0 to 4 step 1 iter_args(%in = %acc) -> (i32) {
        %x = loop.load %a[%i, %kq, %t] : memref<8x16x4xi8>
        %y = loop.load %b[%kq, %j, %t] : memref<16x32x4xi8>
        %xs = arith.extsi %x : i8 to i32
        %yu = arith.extui %y : i8 to i32
        %p = arith.muli %xs, %yu : i32
        %n = arith.addi %in, %p : i32
        loop.yield %n : i32
      }
      loop.yield %quad : i32
    }
    loop.store %sum, %out[%i, %j] : memref<8x32xi32>
  }
  loop.return
}

// Left alone: both bytes signed (no unsigned operand), a loop of 8, a
// load whose last index is not the loop's counter.
// CHECK-LABEL: loop.kernel @not_quads
// CHECK-NOT:   arith.dot_quads
// CHECK-NOT:   loop.reshape
// CHECK:       loop.return
loop.kernel @not_quads(%a: memref<8x4xi8>, %b: memref<8x4xi8>, %c: memref<8xi8>, %out: memref<8xi32>) {
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  loop.parallel (%i) = (0) to (8) step (1) {
    %s1 = loop.for %t = 0 to 4 step 1 iter_args(%in = %zero) -> (i32) {
      %x = loop.load %a[%i, %t] : memref<8x4xi8>
      %y = loop.load %b[%i, %t] : memref<8x4xi8>
      %xs = arith.extsi %x : i8 to i32
      %ys = arith.extsi %y : i8 to i32
      %p = arith.muli %xs, %ys : i32
      %n = arith.addi %in, %p : i32
      loop.yield %n : i32
    }
    %s2 = loop.for %t = 0 to 8 step 1 iter_args(%in = %s1) -> (i32) {
      %x = loop.load %c[%t] : memref<8xi8>
      %y = loop.load %c[%t] : memref<8xi8>
      %xu = arith.extui %x : i8 to i32
      %ys = arith.extsi %y : i8 to i32
      %p = arith.muli %xu, %ys : i32
      %n = arith.addi %in, %p : i32
      loop.yield %n : i32
    }
    %s3 = loop.for %t = 0 to 4 step 1 iter_args(%in = %s2) -> (i32) {
      %x = loop.load %a[%i, %c0] : memref<8x4xi8>
      %y = loop.load %b[%i, %t] : memref<8x4xi8>
      %xu = arith.extui %x : i8 to i32
      %ys = arith.extsi %y : i8 to i32
      %p = arith.muli %xu, %ys : i32
      %n = arith.addi %in, %p : i32
      loop.yield %n : i32
    }
    loop.store %s3, %out[%i] : memref<8xi32>
  }
  loop.return
}
