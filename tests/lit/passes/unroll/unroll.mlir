// RUN: xlir-opt %s -p 'unroll{factor=4}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'unroll{factor=1}' --split-input-file | filecheck %s --check-prefix=ONE
// RUN: not xlir-opt %s -p 'unroll{factor=0}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: unroll: factor must be at least 1, got 0

// The trip count (8) divides by 4: one loop of step 4 whose body is four
// copies, the carried sum threaded through them; no remainder.
// CHECK-LABEL: loop.kernel @divisible
// CHECK:         %[[R:.*]] = loop.for %[[K:.*]] = 0 to 8 step 4 iter_args(%[[A0:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[K1:.*]] = arith.addi %[[K]], %[[C1]] : index
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[K2:.*]] = arith.addi %[[K]], %[[C2]] : index
// CHECK-NEXT:      %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[K3:.*]] = arith.addi %[[K]], %[[C3]] : index
// CHECK-NEXT:      %[[V0:.*]] = loop.load %{{.*}}[%[[K]]]
// CHECK-NEXT:      %[[A1:.*]] = arith.addf %[[A0]], %[[V0]]
// CHECK-NEXT:      %[[V1:.*]] = loop.load %{{.*}}[%[[K1]]]
// CHECK-NEXT:      %[[A2:.*]] = arith.addf %[[A1]], %[[V1]]
// CHECK-NEXT:      %[[V2:.*]] = loop.load %{{.*}}[%[[K2]]]
// CHECK-NEXT:      %[[A3:.*]] = arith.addf %[[A2]], %[[V2]]
// CHECK-NEXT:      %[[V3:.*]] = loop.load %{{.*}}[%[[K3]]]
// CHECK-NEXT:      %[[A4:.*]] = arith.addf %[[A3]], %[[V3]]
// CHECK-NEXT:      loop.yield %[[A4]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.store %[[R]]
// ONE-LABEL: loop.kernel @divisible
// ONE:         loop.for %{{.*}} = 0 to 8 step 1
loop.kernel @divisible(%x: memref<8xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %r = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
    %v = loop.load %x[%k] : memref<8xf32>
    %a = arith.addf %acc, %v : f32
    loop.yield %a : f32
  }
  loop.store %r, %out[] : memref<f32>
  loop.return
}

// -----

// 11 iterations of step 2 from 1 (1, 3, ..., 21): two unrolled iterations of
// step 8 cover 1..15, a remainder loop the last three, carrying on from the
// main loop's results (two carried values: a sum and a max).
// CHECK-LABEL: loop.kernel @remainder
// CHECK:         %[[M0:.*]], %[[M1:.*]] = loop.for %[[K:.*]] = 1 to 17 step 8 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32) {
// CHECK-NEXT:      arith.constant 2 : index
// CHECK-NEXT:      arith.addi %[[K]]
// CHECK-NEXT:      arith.constant 4 : index
// CHECK-NEXT:      arith.addi %[[K]]
// CHECK-NEXT:      arith.constant 6 : index
// CHECK-NEXT:      arith.addi %[[K]]
// CHECK-COUNT-4:   arith.maximumf
// CHECK:           loop.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R0:.*]], %[[R1:.*]] = loop.for %{{.*}} = 17 to 22 step 2 iter_args(%{{.*}} = %[[M0]], %{{.*}} = %[[M1]]) -> (f32, f32) {
// CHECK-NEXT:      loop.load
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.maximumf
// CHECK-NEXT:      loop.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.store %[[R0]],
// CHECK-NEXT:    loop.store %[[R1]],
loop.kernel @remainder(%x: memref<22xf32>, %sum: memref<f32>, %max: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %r:2 = loop.for %k = 1 to 22 step 2 iter_args(%s = %zero, %m = %zero) -> (f32, f32) {
    %v = loop.load %x[%k] : memref<22xf32>
    %s2 = arith.addf %s, %v : f32
    %m2 = arith.maximumf %m, %v : f32
    loop.yield %s2, %m2 : f32, f32
  }
  loop.store %r#0, %sum[] : memref<f32>
  loop.store %r#1, %max[] : memref<f32>
  loop.return
}

// -----

// Three iterations (at most the factor): unrolled fully at constant indices,
// the loop gone; a loop without carried values, inside a parallel.
// CHECK-LABEL: loop.kernel @full
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (2) step (1) {
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      loop.load %{{.*}}[%[[I]], %[[C0]]]
// CHECK-NEXT:      loop.store %{{.*}}, %{{.*}}[%[[C0]], %[[I]]]
// CHECK-NEXT:      loop.load %{{.*}}[%[[I]], %[[C1]]]
// CHECK-NEXT:      loop.store %{{.*}}, %{{.*}}[%[[C1]], %[[I]]]
// CHECK-NEXT:      loop.load %{{.*}}[%[[I]], %[[C2]]]
// CHECK-NEXT:      loop.store %{{.*}}, %{{.*}}[%[[C2]], %[[I]]]
// CHECK-NEXT:    }
// CHECK-NOT:     loop.for
loop.kernel @full(%x: memref<2x3xf32>, %out: memref<3x2xf32>) {
  loop.parallel (%i) = (0) to (2) step (1) {
    loop.for %k = 0 to 3 step 1 {
      %v = loop.load %x[%i, %k] : memref<2x3xf32>
      loop.store %v, %out[%k, %i] : memref<3x2xf32>
    }
  }
  loop.return
}

// -----

// A loop that never runs unrolls to nothing: its results are its inits.
// CHECK-LABEL: loop.kernel @empty
// CHECK-NEXT:    %[[Z:.*]] = arith.constant
// CHECK-NEXT:    loop.store %[[Z]]
loop.kernel @empty(%out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %r = loop.for %k = 5 to 5 step 1 iter_args(%acc = %zero) -> (f32) {
    %a = arith.addf %acc, %acc : f32
    loop.yield %a : f32
  }
  loop.store %r, %out[] : memref<f32>
  loop.return
}

// -----

// Left alone: a dynamic bound, and an outer loop (only the innermost one is
// unrolled; here it has 32 iterations, so it gets a step of 4).
// CHECK-LABEL: loop.kernel @left_alone
// CHECK:         loop.for %{{.*}} = 0 to %{{.*}} step 1 iter_args
// CHECK:         loop.for %{{.*}} = 0 to 16 step 1 {
// CHECK-NEXT:      loop.for %{{.*}} = 0 to 32 step 4 {
loop.kernel @left_alone(%x: memref<16x32xf32>, %n: index, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %r = loop.for %k = 0 to %n step 1 iter_args(%acc = %zero) -> (f32) {
    %a = arith.addf %acc, %acc : f32
    loop.yield %a : f32
  }
  loop.for %i = 0 to 16 step 1 {
    loop.for %j = 0 to 32 step 1 {
      %v = loop.load %x[%i, %j] : memref<16x32xf32>
      loop.store %v, %out[] : memref<f32>
    }
  }
  loop.return
}
