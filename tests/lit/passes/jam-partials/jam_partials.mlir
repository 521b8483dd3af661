// RUN: xlir-opt %s -p jam-partials --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'jam-partials{max-ops=8}' --split-input-file | filecheck %s --check-prefix=OPS
// RUN: not xlir-opt %s -p 'jam-partials{count=0}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: jam-partials: count and max-ops must be positive, got count=0 max-ops=16

// At most 8 ops in the jammed body: a body of four ops is jammed by 2.
// OPS-LABEL: loop.kernel @chunks
// OPS:         loop.for %{{.*}} = 0 to 1024 step 512 iter_args
// OPS:           loop.for %{{.*}} = 0 to 256 step 1 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32)

// A full sum of squares as `block-sums` leaves it: four chunks of 256 terms,
// each summed from -0.0. Jammed by 4: one loop carries the four partials
// (four independent chains), then they are added to the sum in chunk order.
// CHECK-LABEL: loop.kernel @chunks
// CHECK:         %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:         %[[S:.*]] = loop.for %[[C:.*]] = 0 to 1024 step 1024 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:      %[[O1:.*]] = arith.constant 256 : index
// CHECK-NEXT:      %[[C1:.*]] = arith.addi %[[C]], %[[O1]] : index
// CHECK-NEXT:      %[[O2:.*]] = arith.constant 512 : index
// CHECK-NEXT:      %[[C2:.*]] = arith.addi %[[C]], %[[O2]] : index
// CHECK-NEXT:      %[[O3:.*]] = arith.constant 768 : index
// CHECK-NEXT:      %[[C3:.*]] = arith.addi %[[C]], %[[O3]] : index
// CHECK-NEXT:      %[[P0:.*]], %[[P1:.*]], %[[P2:.*]], %[[P3:.*]] = loop.for %[[J:.*]] = 0 to 256 step 1 iter_args(%[[Q0:.*]] = %[[NZ]], %[[Q1:.*]] = %[[NZ]], %[[Q2:.*]] = %[[NZ]], %[[Q3:.*]] = %[[NZ]]) -> (f32, f32, f32, f32) {
// CHECK-NEXT:        %[[K0:.*]] = arith.addi %[[C]], %[[J]] : index
// CHECK-NEXT:        %[[V0:.*]] = loop.load %{{.*}}[%[[K0]]] : memref<1024xf32>
// CHECK-NEXT:        %[[M0:.*]] = arith.mulf %[[V0]], %[[V0]] : f32
// CHECK-NEXT:        %[[A0:.*]] = arith.addf %[[Q0]], %[[M0]] : f32
// CHECK-NEXT:        %[[K1:.*]] = arith.addi %[[C1]], %[[J]] : index
// CHECK-NEXT:        %[[V1:.*]] = loop.load %{{.*}}[%[[K1]]] : memref<1024xf32>
// CHECK-NEXT:        %[[M1:.*]] = arith.mulf %[[V1]], %[[V1]] : f32
// CHECK-NEXT:        %[[A1:.*]] = arith.addf %[[Q1]], %[[M1]] : f32
// CHECK:             %[[A3:.*]] = arith.addf %[[Q3]], %{{.*}} : f32
// CHECK-NEXT:        loop.yield %[[A0]], %[[A1]], %{{.*}}, %[[A3]] : f32, f32, f32, f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[T0:.*]] = arith.addf %[[ACC]], %[[P0]] : f32
// CHECK-NEXT:      %[[T1:.*]] = arith.addf %[[T0]], %[[P1]] : f32
// CHECK-NEXT:      %[[T2:.*]] = arith.addf %[[T1]], %[[P2]] : f32
// CHECK-NEXT:      %[[T3:.*]] = arith.addf %[[T2]], %[[P3]] : f32
// CHECK-NEXT:      loop.yield %[[T3]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.store %[[S]], %{{.*}}[] : memref<f32>
loop.kernel @chunks(%x: memref<1024xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %s = loop.for %c = 0 to 1024 step 256 iter_args(%acc = %zero) -> (f32) {
    %p = loop.for %j = 0 to 256 step 1 iter_args(%q = %nz) -> (f32) {
      %k = arith.addi %c, %j : index
      %v = loop.load %x[%k] : memref<1024xf32>
      %m = arith.mulf %v, %v : f32
      %a = arith.addf %q, %m : f32
      loop.yield %a : f32
    }
    %t = arith.addf %acc, %p : f32
    loop.yield %t : f32
  }
  loop.store %s, %out[] : memref<f32>
  loop.return
}

// -----

// Six chunks: the largest factor up to 4 that divides six is 2. The offset
// computed before the partial's loop is cloned once per copy.
// CHECK-LABEL: loop.kernel @six_chunks
// CHECK:         loop.for %[[C:.*]] = 0 to 12 step 4 iter_args
// CHECK-NEXT:      %[[B0:.*]] = arith.muli %[[C]], %{{.*}} : index
// CHECK-NEXT:      %[[O:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[C1:.*]] = arith.addi %[[C]], %[[O]] : index
// CHECK-NEXT:      %[[B1:.*]] = arith.muli %[[C1]], %{{.*}} : index
// CHECK-NEXT:      loop.for %[[J:.*]] = 0 to 2 step 1 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32)
// CHECK-NEXT:        arith.addi %[[B0]], %[[J]] : index
// CHECK:             arith.addi %[[B1]], %[[J]] : index
// CHECK-NOT:     loop.for
loop.kernel @six_chunks(%x: memref<12xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %one = arith.constant 1 : index
  %s = loop.for %c = 0 to 12 step 2 iter_args(%acc = %zero) -> (f32) {
    %b = arith.muli %c, %one : index
    %p = loop.for %j = 0 to 2 step 1 iter_args(%q = %nz) -> (f32) {
      %k = arith.addi %b, %j : index
      %v = loop.load %x[%k] : memref<12xf32>
      %a = arith.addf %q, %v : f32
      loop.yield %a : f32
    }
    %t = arith.addf %acc, %p : f32
    loop.yield %t : f32
  }
  loop.store %s, %out[] : memref<f32>
  loop.return
}

// -----

// Left alone: a partial that starts from the accumulator (one chain through
// every chunk), a partial's loop that stores, a partial with a loop inside,
// and a loop of three chunks (no factor of 2 or 4 divides it).
// CHECK-LABEL: loop.kernel @not_partials
// CHECK:         loop.for %{{.*}} = 0 to 1024 step 256 iter_args
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 256 step 1 iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK:         loop.for %{{.*}} = 0 to 1024 step 256 iter_args
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 256 step 1 iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK:         loop.for %{{.*}} = 0 to 1024 step 256 iter_args
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 16 step 1 iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK:         loop.for %{{.*}} = 0 to 768 step 256 iter_args
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 256 step 1 iter_args(%{{.*}} = %{{.*}}) -> (f32)
loop.kernel @not_partials(%x: memref<1024xf32>, %y: memref<1024xf32>, %out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i3 = arith.constant 3 : index
  %s0 = loop.for %c = 0 to 1024 step 256 iter_args(%acc = %zero) -> (f32) {
    %p = loop.for %j = 0 to 256 step 1 iter_args(%q = %acc) -> (f32) {
      %k = arith.addi %c, %j : index
      %v = loop.load %x[%k] : memref<1024xf32>
      %a = arith.addf %q, %v : f32
      loop.yield %a : f32
    }
    loop.yield %p : f32
  }
  loop.store %s0, %out[%i0] : memref<4xf32>
  %s1 = loop.for %c = 0 to 1024 step 256 iter_args(%acc = %zero) -> (f32) {
    %p = loop.for %j = 0 to 256 step 1 iter_args(%q = %nz) -> (f32) {
      %k = arith.addi %c, %j : index
      %v = loop.load %x[%k] : memref<1024xf32>
      loop.store %v, %y[%k] : memref<1024xf32>
      %a = arith.addf %q, %v : f32
      loop.yield %a : f32
    }
    %t = arith.addf %acc, %p : f32
    loop.yield %t : f32
  }
  loop.store %s1, %out[%i1] : memref<4xf32>
  %s2 = loop.for %c = 0 to 1024 step 256 iter_args(%acc = %zero) -> (f32) {
    %p = loop.for %j = 0 to 16 step 1 iter_args(%q = %nz) -> (f32) {
      %r = loop.for %l = 0 to 16 step 1 iter_args(%w = %q) -> (f32) {
        %k = arith.addi %c, %l : index
        %v = loop.load %x[%k] : memref<1024xf32>
        %a = arith.addf %w, %v : f32
        loop.yield %a : f32
      }
      loop.yield %r : f32
    }
    %t = arith.addf %acc, %p : f32
    loop.yield %t : f32
  }
  loop.store %s2, %out[%i2] : memref<4xf32>
  %s3 = loop.for %c = 0 to 768 step 256 iter_args(%acc = %zero) -> (f32) {
    %p = loop.for %j = 0 to 256 step 1 iter_args(%q = %nz) -> (f32) {
      %k = arith.addi %c, %j : index
      %v = loop.load %x[%k] : memref<1024xf32>
      %a = arith.addf %q, %v : f32
      loop.yield %a : f32
    }
    %t = arith.addf %acc, %p : f32
    loop.yield %t : f32
  }
  loop.store %s3, %out[%i3] : memref<4xf32>
  loop.return
}
