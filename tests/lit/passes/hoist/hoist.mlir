// RUN: xlir-opt %s -p hoist --split-input-file | filecheck %s

// Invariant arith climbs the whole nest; the op using the induction variable
// stays.
// CHECK-LABEL: loop.kernel @invariant_arith
// CHECK-NEXT:    %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %{{.*}}, %[[C]] : f32
// CHECK-NEXT:    loop.parallel (%[[I:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:      loop.for %[[J:.*]] = 0 to 8 step 1 {
// CHECK-NEXT:        %[[V:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:        %[[P:.*]] = arith.addf %[[V]], %[[S]] : f32
// CHECK-NEXT:        loop.store %[[P]], %{{.*}}[%[[I]], %[[J]]]
loop.kernel @invariant_arith(%x: memref<4x8xf32>, %s: f32, %out: memref<4x8xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    loop.for %j = 0 to 8 step 1 {
      %c = arith.constant 2.0 : f32
      %scale = arith.mulf %s, %c : f32
      %v = loop.load %x[%i, %j] : memref<4x8xf32>
      %p = arith.addf %v, %scale : f32
      loop.store %p, %out[%i, %j] : memref<4x8xf32>
    }
  }
  loop.return
}

// -----

// A load that depends only on the outer index leaves the inner loop but not
// the outer one: the index arithmetic on %i follows it.
// CHECK-LABEL: loop.kernel @partly_invariant
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:      %[[I2:.*]] = arith.addi %[[I]], %[[I]] : index
// CHECK-NEXT:      %[[B:.*]] = loop.load %{{.*}}[%[[I2]]] : memref<8xf32>
// CHECK-NEXT:      %{{.*}} = loop.for
// CHECK-NEXT:        loop.load %{{.*}}[%[[I]], %{{.*}}] : memref<4x8xf32>
// CHECK-NEXT:        arith.addf
// CHECK-NEXT:        arith.addf %{{.*}}, %[[B]]
loop.kernel @partly_invariant(%x: memref<4x8xf32>, %b: memref<8xf32>, %out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (4) step (1) {
    %r = loop.for %j = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %i2 = arith.addi %i, %i : index
      %bv = loop.load %b[%i2] : memref<8xf32>
      %v = loop.load %x[%i, %j] : memref<4x8xf32>
      %a = arith.addf %acc, %v : f32
      %n = arith.addf %a, %bv : f32
      loop.yield %n : f32
    }
    loop.store %r, %out[%i] : memref<4xf32>
  }
  loop.return
}

// -----

// A loop that stores to a kernel argument keeps its loads of other kernel
// arguments: the two may be one buffer.
// CHECK-LABEL: loop.kernel @may_alias
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    loop.parallel
// CHECK-NEXT:      %{{.*}} = loop.load %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK-NEXT:      loop.store
loop.kernel @may_alias(%x: memref<8xf32>, %out: memref<8xf32>) {
  loop.parallel (%i) = (0) to (8) step (1) {
    %c0 = arith.constant 0 : index
    %first = loop.load %x[%c0] : memref<8xf32>
    loop.store %first, %out[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// Views of one arena at disjoint offsets do not alias, so the load leaves;
// a load from the buffer the loop writes stays.
// CHECK-LABEL: loop.kernel @disjoint_views
// CHECK:         %[[A:.*]] = loop.view %{{.*}}[0]
// CHECK-NEXT:    %[[B:.*]] = loop.view %{{.*}}[32]
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[FIRST:.*]] = loop.load %[[A]][%[[C0]]]
// CHECK-NEXT:    loop.parallel (%{{.*}}) = (0) to (8) step (1) {
// CHECK-NEXT:      %{{.*}} = loop.load %[[B]][%[[C0]]]
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      loop.store %{{.*}}, %[[B]]
loop.kernel @disjoint_views(%arena: memref<64xi8>) {
  %a = loop.view %arena[0] : memref<64xi8> -> memref<8xf32>
  %b = loop.view %arena[32] : memref<64xi8> -> memref<8xf32>
  loop.parallel (%i) = (0) to (8) step (1) {
    %c0 = arith.constant 0 : index
    %first = loop.load %a[%c0] : memref<8xf32>
    %own = loop.load %b[%c0] : memref<8xf32>
    %s = arith.addf %first, %own : f32
    loop.store %s, %b[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// Overlapping views alias (through a reshape too).
// CHECK-LABEL: loop.kernel @overlapping_views
// CHECK:         arith.constant
// CHECK-NEXT:    loop.parallel
// CHECK-NEXT:      loop.load
loop.kernel @overlapping_views(%arena: memref<64xi8>) {
  %a = loop.view %arena[0] : memref<64xi8> -> memref<8xf32>
  %b = loop.view %arena[16] : memref<64xi8> -> memref<2x4xf32>
  %r = loop.reshape %b : memref<2x4xf32> -> memref<8xf32>
  loop.parallel (%i) = (0) to (8) step (1) {
    %c0 = arith.constant 0 : index
    %first = loop.load %a[%c0] : memref<8xf32>
    loop.store %first, %r[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// Loads from globals are read-only and always leave a loop that runs.
// CHECK-LABEL: loop.kernel @global_load
// CHECK:         %[[G:.*]] = loop.get_global @table
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[T:.*]] = loop.load %[[G]][%[[C1]]]
// CHECK-NEXT:    loop.parallel
// CHECK-NEXT:      loop.store %[[T]]
loop.global @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
loop.kernel @global_load(%out: memref<8xf32>) {
  %g = loop.get_global @table : memref<4xf32>
  loop.parallel (%i) = (0) to (8) step (1) {
    %c1 = arith.constant 1 : index
    %t = loop.load %g[%c1] : memref<4xf32>
    loop.store %t, %out[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// A read-only loop's invariant load leaves, but not out of a loop that may
// run zero times (dynamic bound): a load there could read out of bounds. Pure
// speculatable ops leave anyway; a division (it may trap) does not.
// CHECK-LABEL: loop.kernel @read_only
// CHECK-NEXT:    %{{.*}} = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %{{.*}}, %[[C3]] : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %{{.*}} = loop.for %{{.*}} = 0 to %{{.*}} step 1
// CHECK-NEXT:      arith.divui %{{.*}}, %[[M]] : index
// CHECK-NEXT:      loop.load %{{.*}}[%[[C0]]]
// CHECK:         %[[V:.*]] = loop.load %{{.*}}[%[[C0]]]
// CHECK-NEXT:    %[[D:.*]] = arith.divui %{{.*}}, %[[M]] : index
// CHECK-NEXT:    loop.for %{{.*}} = 0 to 4 step 1
// CHECK-NEXT:      arith.addf %{{.*}}, %[[V]]
loop.kernel @read_only(%x: memref<8xf32>, %n: index, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %c3 = arith.constant 3 : index
  %m = arith.muli %n, %c3 : index
  %c0 = arith.constant 0 : index
  %r = loop.for %k = 0 to %n step 1 iter_args(%acc = %zero) -> (f32) {
    %d = arith.divui %n, %m : index
    %v = loop.load %x[%c0] : memref<8xf32>
    %a = arith.addf %acc, %v : f32
    loop.yield %a : f32
  }
  %s = loop.for %k = 0 to 4 step 1 iter_args(%acc = %r) -> (f32) {
    %v = loop.load %x[%c0] : memref<8xf32>
    %d = arith.divui %n, %m : index
    %a = arith.addf %acc, %v : f32
    loop.yield %a : f32
  }
  loop.store %s, %out[] : memref<f32>
  loop.return
}

// -----

// Stores never move, nor does an op depending on a carried value.
// CHECK-LABEL: loop.kernel @side_effects
// CHECK-NEXT:    %{{.*}} = arith.constant
// CHECK-NEXT:    %{{.*}} = arith.constant
// CHECK-NEXT:    %{{.*}} = loop.for
// CHECK-NEXT:      loop.store
// CHECK-NEXT:      arith.addf
loop.kernel @side_effects(%out: memref<f32>, %v: f32) {
  %zero = arith.constant 0.0 : f32
  %r = loop.for %k = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
    loop.store %v, %out[] : memref<f32>
    %c = arith.constant 1.0 : f32
    %a = arith.addf %acc, %c : f32
    loop.yield %a : f32
  }
  loop.return
}
