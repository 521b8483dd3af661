// RUN: xlir-opt %s -p 'block-sums{block=4}' --split-input-file | filecheck %s
// RUN: not xlir-opt %s -p 'block-sums{block=1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: block-sums: block must be at least 2, got 1

// 10 adds into one accumulator, at most 4 per block: two chunks of 4 terms
// (iterations 1, 3, ..., 15 of step 2), each summed from -0.0 and added to
// the sum, then the last two terms (17, 19) added to it in order.
// CHECK-LABEL: loop.kernel @strip_mined
// CHECK:         %[[INIT:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    %[[S:.*]] = loop.for %[[B:.*]] = 1 to 17 step 8 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:      %[[P:.*]] = loop.for %[[J:.*]] = 0 to 4 step 1 iter_args(%[[PACC:.*]] = %[[NZ]]) -> (f32) {
// CHECK-NEXT:        %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:        %[[O:.*]] = arith.muli %[[J]], %[[C2]] : index
// CHECK-NEXT:        %[[K:.*]] = arith.addi %[[B]], %[[O]] : index
// CHECK-NEXT:        %[[V:.*]] = loop.load %{{.*}}[%[[K]]] : memref<20xf32>
// CHECK-NEXT:        %[[A:.*]] = arith.addf %[[PACC]], %[[V]] : f32
// CHECK-NEXT:        loop.yield %[[A]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      loop.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = loop.for %{{.*}} = 17 to 20 step 2 iter_args(%{{.*}} = %[[S]]) -> (f32) {
// CHECK:         loop.store %[[R]], %{{.*}}[] : memref<f32>
loop.kernel @strip_mined(%x: memref<20xf32>, %out: memref<f32>) {
  %one = arith.constant 1.0 : f32
  %r = loop.for %k = 1 to 20 step 2 iter_args(%acc = %one) -> (f32) {
    %v = loop.load %x[%k] : memref<20xf32>
    %a = arith.addf %acc, %v : f32
    loop.yield %a : f32
  }
  loop.store %r, %out[] : memref<f32>
  loop.return
}

// -----

// 64 terms, blocks of 4: 16 chunks are more than 4, so the loop over chunks
// is split again, into 4 chunks of 4 chunks: a tree of fan-out 4. Each level
// offsets the index of the one inside it.
// CHECK-LABEL: loop.kernel @chunks_of_chunks
// CHECK:         loop.for %[[I2:.*]] = 0 to 64 step 16
// CHECK-NEXT:      loop.for %[[J1:.*]] = 0 to 4 step 1
// CHECK-NEXT:        %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:        %[[O:.*]] = arith.muli %[[J1]], %[[C4]] : index
// CHECK-NEXT:        %[[I1:.*]] = arith.addi %[[I2]], %[[O]] : index
// CHECK-NEXT:        loop.for %[[J0:.*]] = 0 to 4 step 1
// CHECK-NEXT:          %[[I0:.*]] = arith.addi %[[I1]], %[[J0]] : index
// CHECK-NEXT:          loop.load %{{.*}}[%[[I0]]]
// CHECK-NOT:     loop.for
// CHECK:         loop.return
loop.kernel @chunks_of_chunks(%x: memref<64xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %r = loop.for %k = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
    %v = loop.load %x[%k] : memref<64xf32>
    %a = arith.addf %v, %acc : f32
    loop.yield %a : f32
  }
  loop.store %r, %out[] : memref<f32>
  loop.return
}

// -----

// A nest counts as a whole: the inner loop adds 3 terms per outer
// iteration, more than half a block, so each outer iteration's inner sum
// starts from -0.0 and is added to the sum once; the 2 outer iterations
// then add 2 partials, and stay one loop.
// CHECK-LABEL: loop.kernel @nest_restarts
// CHECK:         %[[R:.*]] = loop.for %{{.*}} = 0 to 2 step 1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:      %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:      %[[P:.*]] = loop.for %{{.*}} = 0 to 3 step 1 iter_args(%{{.*}} = %[[NZ]]) -> (f32) {
// CHECK:           }
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      loop.yield %[[T]] : f32
loop.kernel @nest_restarts(%x: memref<2x3xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %r = loop.for %i = 0 to 2 step 1 iter_args(%acc = %zero) -> (f32) {
    %s = loop.for %j = 0 to 3 step 1 iter_args(%inner = %acc) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<2x3xf32>
      %a = arith.addf %inner, %v : f32
      loop.yield %a : f32
    }
    loop.yield %s : f32
  }
  loop.store %r, %out[] : memref<f32>
  loop.return
}

// -----

// An inner loop that also carries values that are not sums (`row_lanes`'
// columns, rotated) counts its 2 adds into the sum it carries, so the outer
// loop, 8 adds in all, is split in chunks of 2 iterations as if the inner
// one were written out.
// CHECK-LABEL: loop.kernel @riders
// CHECK:         loop.for %{{.*}} = 0 to 4 step 2 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:           %[[P:.*]] = loop.for %{{.*}} = 0 to 2 step 1 iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:             loop.for %{{.*}} = 0 to 2 step 1 iter_args({{.*}}) -> (f32, f32, f32) {
// CHECK:           arith.addf %[[ACC]], %[[P]] : f32
loop.kernel @riders(%x: memref<4x2xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r = loop.for %i = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
    %c0, %c1, %s = loop.for %j = 0 to 2 step 1 iter_args(%a = %zero, %b = %one, %inner = %acc) -> (f32, f32, f32) {
      %v = loop.load %x[%i, %j] : memref<4x2xf32>
      %w = arith.mulf %v, %a : f32
      %n = arith.addf %inner, %w : f32
      loop.yield %b, %a, %n : f32, f32, f32
    }
    loop.yield %s : f32
  }
  loop.store %r, %out[] : memref<f32>
  loop.return
}

// -----

// Not a sum: the outer loop's value goes on through the inner loop as a
// max, at a place that is not one of its sums; left alone.
// CHECK-LABEL: loop.kernel @rider_is_no_sum
// CHECK-NOT:     -0.0
// CHECK:         loop.for %{{.*}} = 0 to 4 step 1 iter_args
// CHECK-NOT:     -0.0
// CHECK:         loop.return
loop.kernel @rider_is_no_sum(%x: memref<4x2xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %r = loop.for %i = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
    %m, %s = loop.for %j = 0 to 2 step 1 iter_args(%big = %acc, %inner = %zero) -> (f32, f32) {
      %v = loop.load %x[%i, %j] : memref<4x2xf32>
      %g = arith.maximumf %big, %v : f32
      %n = arith.addf %inner, %v : f32
      loop.yield %g, %n : f32, f32
    }
    loop.yield %m : f32
  }
  loop.store %r, %out[] : memref<f32>
  loop.return
}

// -----

// A register tile's vector accumulators (fma addends), two of them: both
// get chunk partials from a splat of -0.0.
// CHECK-LABEL: loop.kernel @vector_fma
// CHECK:         %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    %[[Z:.*]] = vector.broadcast %[[NZ]] : f32 to vector<4xf32>
// CHECK:         loop.for %{{.*}} = 0 to 8 step 4 iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:      %[[P:.*]], %[[Q:.*]] = loop.for %{{.*}} = 0 to 4 step 1 iter_args(%{{.*}} = %[[Z]], %{{.*}} = %[[Z]]) -> (vector<4xf32>, vector<4xf32>) {
// CHECK:             math.fma
// CHECK:             math.fma
// CHECK:           }
// CHECK-NEXT:      %[[A2:.*]] = arith.addf %[[A]], %[[P]] : vector<4xf32>
// CHECK-NEXT:      %[[B2:.*]] = arith.addf %[[B]], %[[Q]] : vector<4xf32>
// CHECK-NEXT:      loop.yield %[[A2]], %[[B2]] : vector<4xf32>, vector<4xf32>
loop.kernel @vector_fma(%a: memref<2x8xf32>, %b: memref<8x4xf32>, %out: memref<2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %z = vector.broadcast %zero : f32 to vector<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = loop.for %k = 0 to 8 step 1 iter_args(%acc0 = %z, %acc1 = %z) -> (vector<4xf32>, vector<4xf32>) {
    %x0 = loop.load %a[%c0, %k] : memref<2x8xf32>
    %x1 = loop.load %a[%c1, %k] : memref<2x8xf32>
    %row = loop.load %b[%k, %c0] : memref<8x4xf32>, vector<4xf32>
    %s0 = vector.broadcast %x0 : f32 to vector<4xf32>
    %s1 = vector.broadcast %x1 : f32 to vector<4xf32>
    %f0 = math.fma %s0, %row, %acc0 : vector<4xf32>
    %f1 = math.fma %s1, %row, %acc1 : vector<4xf32>
    loop.yield %f0, %f1 : vector<4xf32>, vector<4xf32>
  }
  loop.store %r#0, %out[%c0, %c0] : memref<2x4xf32>, vector<4xf32>
  loop.store %r#1, %out[%c1, %c0] : memref<2x4xf32>, vector<4xf32>
  loop.return
}

// -----

// Left alone: a sum of at most `block` terms; a loop that also carries a
// max; a running sum also stored each step (a scan); an integer sum; a
// dynamic bound; an accumulator that is a fma factor, not its addend.
// CHECK-LABEL: loop.kernel @left_alone
// CHECK-NOT:     arith.constant -0.000000e+00
// CHECK-NOT:     step 4
// CHECK:         loop.return
loop.kernel @left_alone(%x: memref<16xf32>, %n: memref<index>, %xi: memref<16xi32>, %out: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %short = loop.for %k = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
    %v = loop.load %x[%k] : memref<16xf32>
    %a = arith.addf %acc, %v : f32
    loop.yield %a : f32
  }
  %both:2 = loop.for %k = 0 to 16 step 1 iter_args(%s = %zero, %m = %zero) -> (f32, f32) {
    %v = loop.load %x[%k] : memref<16xf32>
    %a = arith.addf %s, %v : f32
    %b = arith.maximumf %m, %v : f32
    loop.yield %a, %b : f32, f32
  }
  %scan = loop.for %k = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
    %v = loop.load %x[%k] : memref<16xf32>
    %a = arith.addf %acc, %v : f32
    loop.store %a, %out[%k] : memref<16xf32>
    loop.yield %a : f32
  }
  %int = loop.for %k = 0 to 16 step 1 iter_args(%acc = %izero) -> (i32) {
    %v = loop.load %xi[%k] : memref<16xi32>
    %a = arith.addi %acc, %v : i32
    loop.yield %a : i32
  }
  %bound = loop.load %n[] : memref<index>
  %dynamic = loop.for %k = 0 to %bound step 1 iter_args(%acc = %zero) -> (f32) {
    %v = loop.load %x[%k] : memref<16xf32>
    %a = arith.addf %acc, %v : f32
    loop.yield %a : f32
  }
  %product = loop.for %k = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
    %v = loop.load %x[%k] : memref<16xf32>
    %f = math.fma %acc, %v, %v : f32
    loop.yield %f : f32
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  loop.store %short, %out[%c0] : memref<16xf32>
  loop.store %both#0, %out[%c1] : memref<16xf32>
  loop.store %both#1, %out[%c2] : memref<16xf32>
  loop.store %dynamic, %out[%c3] : memref<16xf32>
  loop.store %product, %out[%c4] : memref<16xf32>
  %ifl = arith.sitofp %int : i32 to f32
  loop.store %ifl, %out[%c0] : memref<16xf32>
  loop.store %scan, %out[%c1] : memref<16xf32>
  loop.return
}
