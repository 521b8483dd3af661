// RUN: xlir-opt %s -p 'unroll{factor=4 full-only=true}' --split-input-file | filecheck %s

// A pixel's three channels (at most the factor): unrolled fully, so the
// loop over pixels is innermost; the channel loop is gone.
// CHECK-LABEL: loop.kernel @channels
// CHECK:         loop.parallel (%[[P:.*]]) = (0) to (64) step (1) {
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[V0:.*]] = loop.load %{{.*}}[%[[P]], %[[C0]]]
// CHECK-NEXT:      %[[A0:.*]] = arith.addi %{{.*}}, %[[V0]] : i32
// CHECK-NEXT:      %[[V1:.*]] = loop.load %{{.*}}[%[[P]], %[[C1]]]
// CHECK-NEXT:      %[[A1:.*]] = arith.addi %[[A0]], %[[V1]] : i32
// CHECK-NEXT:      %[[V2:.*]] = loop.load %{{.*}}[%[[P]], %[[C2]]]
// CHECK-NEXT:      %[[A2:.*]] = arith.addi %[[A1]], %[[V2]] : i32
// CHECK-NEXT:      loop.store %[[A2]], %{{.*}}[%[[P]]]
loop.kernel @channels(%x: memref<64x3xi32>, %out: memref<64xi32>) {
  %zero = arith.constant 0 : i32
  loop.parallel (%p) = (0) to (64) step (1) {
    %r = loop.for %c = 0 to 3 step 1 iter_args(%acc = %zero) -> (i32) {
      %v = loop.load %x[%p, %c] : memref<64x3xi32>
      %a = arith.addi %acc, %v : i32
      loop.yield %a : i32
    }
    loop.store %r, %out[%p] : memref<64xi32>
  }
  loop.return
}

// -----

// Longer than the factor: left as it is (not unrolled by 4).
// CHECK-LABEL: loop.kernel @long
// CHECK:         loop.for %{{.*}} = 0 to 5 step 1 iter_args
// CHECK-NEXT:      loop.load
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      loop.yield
loop.kernel @long(%x: memref<5xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %r = loop.for %k = 0 to 5 step 1 iter_args(%acc = %zero) -> (f32) {
    %v = loop.load %x[%k] : memref<5xf32>
    %a = arith.addf %acc, %v : f32
    loop.yield %a : f32
  }
  loop.store %r, %out[] : memref<f32>
  loop.return
}

// -----

// Only innermost loops: the inner loop of two is unrolled, the outer loop of
// four around it is left (it was not innermost when the pass looked).
// CHECK-LABEL: loop.kernel @nested
// CHECK:         loop.for %{{.*}} = 0 to 4 step 1 iter_args
// CHECK-NOT:       loop.for
// CHECK:           loop.yield
loop.kernel @nested(%x: memref<4x2xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %r = loop.for %i = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
    %s = loop.for %j = 0 to 2 step 1 iter_args(%inner = %acc) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<4x2xf32>
      %a = arith.addf %inner, %v : f32
      loop.yield %a : f32
    }
    loop.yield %s : f32
  }
  loop.store %r, %out[] : memref<f32>
  loop.return
}

// -----

// A loop that carries vectors (a register tile's loop over kernel taps) is
// vector code already: left as it is.
// CHECK-LABEL: loop.kernel @vector_taps
// CHECK:         loop.for %{{.*}} = 0 to 3 step 1 iter_args
// CHECK-SAME:      -> (vector<4xf32>)
loop.kernel @vector_taps(%x: memref<3x4xf32>, %out: memref<4xf32>) {
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %c0 = arith.constant 0 : index
  %r = loop.for %k = 0 to 3 step 1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %v = loop.load %x[%k, %c0] : memref<3x4xf32>, vector<4xf32>
    %a = arith.addf %acc, %v : vector<4xf32>
    loop.yield %a : vector<4xf32>
  }
  loop.store %r, %out[%c0] : memref<4xf32>, vector<4xf32>
  loop.return
}
