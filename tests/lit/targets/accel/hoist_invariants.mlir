// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// Constants splatted in the loop level's body (and abs's mask) are
// computed once before the lane loop; the load and the arithmetic stay in
// it, addressed by the loop's counter (strength_reduction.py).
// CHECK-LABEL: accel.kernel "scale", 2
// CHECK:         %[[THREE:.*]] = accel.lui 16448
// CHECK-NEXT:    %[[C3:.*]] = accel.vsplat %[[THREE]]
// CHECK-NEXT:    %[[HALF:.*]] = accel.lui 16320
// CHECK-NEXT:    %[[C15:.*]] = accel.vsplat %[[HALF]]
// CHECK:         %[[MASK:.*]] = accel.vsplat
// CHECK:         "accel.for"
// CHECK-NEXT:    ^{{.*}}(%[[AT:.*]]: !accel.x):
// CHECK-NEXT:      %[[X:.*]] = accel.vld 0(%[[AT]])
// CHECK-NEXT:      %[[S:.*]] = accel.vfmadd %[[X]], %[[C3]], %[[C15]]
// CHECK-NEXT:      %[[A:.*]] = accel.vand %[[S]], %[[MASK]]
// CHECK-NEXT:      accel.vst %[[A]], 256(%[[AT]])
// CHECK-NEXT:      accel.yield
loop.kernel @scale(%x: memref<64xf32>, %y: memref<64xf32>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %v = loop.load %x[%i] : memref<64xf32>
    %c = arith.constant 3.0 : f32
    %m = arith.mulf %v, %c : f32
    %d = arith.constant 1.5 : f32
    %s = arith.addf %m, %d : f32
    %a = math.absf %s : f32
    loop.store %a, %y[%i] : memref<64xf32>
  }
  loop.return
}

// A constant of an inner loop climbs out of both loops, and the same
// constant in the second inner loop reuses it: one splat of 2.0 in all.
// A value of the outer induction variable leaves only the inner loops;
// scalars the iterations read (the inner loops' bounds) stay where they are.
// CHECK-LABEL: accel.kernel "nest", 2
// CHECK:         %[[TWO:.*]] = accel.lui 16384
// CHECK-NEXT:    %[[C2:.*]] = accel.vsplat %[[TWO]]
// CHECK:         "accel.for"
// CHECK:           %[[ROW:.*]] = accel.vcvt.f32.i32
// CHECK:           "accel.for"
// CHECK-NOT:         accel.vsplat
// CHECK:             accel.vfmadd %{{.*}}, %[[C2]], %[[ROW]]
// CHECK:           "accel.for"
// CHECK-NOT:         accel.vsplat
// CHECK:             accel.vfmul %{{.*}}, %[[C2]]
// CHECK-NOT:     accel.lui 16384
loop.kernel @nest(%x: memref<4x32xf32>, %y: memref<4x32xf32>) {
  loop.parallel (%r) = (0) to (4) step (1) {
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    loop.parallel (%j) = (0) to (32) step (1) {
      %v = loop.load %x[%r, %j] : memref<4x32xf32>
      %c = arith.constant 2.0 : f32
      %m = arith.mulf %v, %c : f32
      %s = arith.addf %m, %rf : f32
      loop.store %s, %y[%r, %j] : memref<4x32xf32>
    }
    loop.parallel (%j) = (0) to (32) step (1) {
      %v = loop.load %y[%r, %j] : memref<4x32xf32>
      %c = arith.constant 2.0 : f32
      %m = arith.mulf %v, %c : f32
      loop.store %m, %y[%r, %j] : memref<4x32xf32>
    }
  }
  loop.return
}
