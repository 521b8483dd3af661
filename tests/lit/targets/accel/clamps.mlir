// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// A compare-and-select clamp against a constant (expand-math's tanh and
// exp write them) is one vfmin or vfmax (clamps.py).
// CHECK-LABEL: accel.kernel "clamp", 2
// CHECK:         "accel.for"
// CHECK:           %[[X:.*]] = accel.vld
// CHECK-NEXT:      %[[LOW:.*]] = accel.vfmin %[[X]], %{{.*}}
// CHECK-NEXT:      %[[BOTH:.*]] = accel.vfmax %[[LOW]], %{{.*}}
// CHECK-NEXT:      accel.vst %[[BOTH]]
loop.kernel @clamp(%x: memref<64xf32>, %y: memref<64xf32>) {
  %high = arith.constant 9.1 : f32
  %low = arith.constant -88.0 : f32
  loop.parallel (%i) = (0) to (64) step (1) {
    %v = loop.load %x[%i] : memref<64xf32>
    %above = arith.cmpf ogt, %v, %high : f32
    %a = arith.select %above, %high, %v : f32
    %below = arith.cmpf olt, %a, %low : f32
    %b = arith.select %below, %low, %a : f32
    loop.store %b, %y[%i] : memref<64xf32>
  }
  loop.return
}

// Left as compare and select: a zero bound (vfmax would turn -0 into +0
// where the ordered compare keeps it), and a select that keeps the bound
// when the compare is false (it drops a NaN, vfmin would propagate it).
// CHECK-LABEL: accel.kernel "kept", 3
// CHECK:         "accel.for"
// CHECK-NOT:       accel.vfmax
// CHECK-NOT:       accel.vfmin
// CHECK:           accel.vflt
// CHECK-NEXT:      accel.vsel
// CHECK:           accel.vflt
// CHECK-NEXT:      accel.vsel
// CHECK:         accel.halt
loop.kernel @kept(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %high = arith.constant 9.1 : f32
  loop.parallel (%i) = (0) to (64) step (1) {
    %v = loop.load %x[%i] : memref<64xf32>
    %below = arith.cmpf olt, %v, %zero : f32
    %a = arith.select %below, %zero, %v : f32
    loop.store %a, %y[%i] : memref<64xf32>
    %above = arith.cmpf ogt, %v, %high : f32
    %b = arith.select %above, %v, %high : f32
    loop.store %b, %z[%i] : memref<64xf32>
  }
  loop.return
}
