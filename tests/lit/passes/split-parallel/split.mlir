// RUN: xlir-opt %s -p split-parallel --split-input-file | filecheck %s

// Two dimensions, one bound an SSA value: a loop over the rows holding one
// over the columns, the body inside the inner one with the same indices.
// The outer loop keeps `threads` (it splits the first dimension), the inner
// one takes `interleave` (the innermost dimension's).
// CHECK-LABEL: loop.kernel @rows_columns
// CHECK-NEXT:    loop.parallel (%[[I:.*]]) = (1) to (%{{.*}}) step (1) attributes {threads = 2 : i64} {
// CHECK-NEXT:      loop.parallel (%[[J:.*]]) = (0) to (6) step (2) attributes {interleave = 4 : i64} {
// CHECK-NEXT:        %[[V:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : memref<8x6xf32>
// CHECK-NEXT:        loop.store %[[V]], %{{.*}}[%[[J]], %[[I]]] : memref<6x8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
loop.kernel @rows_columns(%x: memref<8x6xf32>, %n: index, %y: memref<6x8xf32>) {
  loop.parallel (%i, %j) = (1, 0) to (%n, 6) step (1, 2) attributes {threads = 2 : i64, interleave = 4 : i64} {
    %v = loop.load %x[%i, %j] : memref<8x6xf32>
    loop.store %v, %y[%j, %i] : memref<6x8xf32>
  }
  loop.return
}

// -----

// Three dimensions, with a reduction inside: three nested loops, the
// `loop.for` untouched in the innermost.
// CHECK-LABEL: loop.kernel @batched_sums
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant
// CHECK-NEXT:    loop.parallel (%[[B:.*]]) = (0) to (2) step (1) {
// CHECK-NEXT:      loop.parallel (%[[I:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:        loop.parallel (%[[J:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:          %[[S:.*]] = loop.for %[[K:.*]] = 0 to 5 step 1 iter_args(%[[A:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:            %[[V:.*]] = loop.load %{{.*}}[%[[B]], %[[I]], %[[J]], %[[K]]]
// CHECK-NEXT:            %[[N:.*]] = arith.addf %[[A]], %[[V]]
// CHECK-NEXT:            loop.yield %[[N]] : f32
// CHECK-NEXT:          }
// CHECK-NEXT:          loop.store %[[S]], %{{.*}}[%[[B]], %[[I]], %[[J]]]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
loop.kernel @batched_sums(%x: memref<2x3x4x5xf32>, %y: memref<2x3x4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%b, %i, %j) = (0, 0, 0) to (2, 3, 4) step (1, 1, 1) {
    %s = loop.for %k = 0 to 5 step 1 iter_args(%a = %zero) -> (f32) {
      %v = loop.load %x[%b, %i, %j, %k] : memref<2x3x4x5xf32>
      %n = arith.addf %a, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %y[%b, %i, %j] : memref<2x3x4xf32>
  }
  loop.return
}

// -----

// Zero dimensions run the body once: the body, in the loop's place.
// CHECK-LABEL: loop.kernel @scalar
// CHECK-NEXT:    %[[V:.*]] = loop.load %{{.*}}[] : memref<f32>
// CHECK-NEXT:    %[[W:.*]] = math.exp %[[V]] : f32
// CHECK-NEXT:    loop.store %[[W]], %{{.*}}[] : memref<f32>
// CHECK-NEXT:    loop.return
loop.kernel @scalar(%x: memref<f32>, %y: memref<f32>) {
  loop.parallel () = () to () step () {
    %v = loop.load %x[] : memref<f32>
    %w = math.exp %v : f32
    loop.store %w, %y[] : memref<f32>
  }
  loop.return
}

// -----

// What it leaves alone: a one-dimensional `loop.parallel` (attributes and
// all) and a `loop.for`, which always has one dimension.
// CHECK-LABEL: loop.kernel @one_dimension
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    loop.parallel (%[[I:.*]]) = (0) to (8) step (1) attributes {interleave = 2 : i64} {
// CHECK-NEXT:      %{{.*}} = loop.for %{{.*}} = 0 to 6 step 3 iter_args
loop.kernel @one_dimension(%x: memref<8x6xf32>, %y: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (8) step (1) attributes {interleave = 2 : i64} {
    %s = loop.for %k = 0 to 6 step 3 iter_args(%a = %zero) -> (f32) {
      %v = loop.load %x[%i, %k] : memref<8x6xf32>
      %n = arith.addf %a, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %y[%i] : memref<8xf32>
  }
  loop.return
}
