// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// An elementwise lane loop's counter is the byte address itself
// (strength_reduction.py): its start shifted once before the loop, a step
// of 64 bytes, no shift or add in the body.
// CHECK-LABEL: accel.kernel "scale", 2
// CHECK:         %[[START:.*]] = accel.slli %{{.*}}, 2
// CHECK:         "accel.for"(%[[START]], %{{.*}}) <{step = 64 : i32, hardware
// CHECK-NEXT:    ^{{.*}}(%[[AT:.*]]: !accel.x):
// CHECK-NEXT:      %[[X:.*]] = accel.vld 0(%[[AT]])
// CHECK-NEXT:      %[[Y:.*]] = accel.vfmul %[[X]], %[[X]]
// CHECK-NEXT:      accel.vst %[[Y]], 256(%[[AT]])
// CHECK-NEXT:      accel.yield
loop.kernel @scale(%x: memref<64xf32>, %y: memref<64xf32>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %v = loop.load %x[%i] : memref<64xf32>
    %m = arith.mulf %v, %v : f32
    loop.store %m, %y[%i] : memref<64xf32>
  }
  loop.return
}

// Left counting elements: the counter is also a value (an iota's lanes).
// CHECK-LABEL: accel.kernel "iota", 1
// CHECK:         "accel.for"({{.*}}) <{step = 16 : i32, hardware
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: !accel.x):
// CHECK-DAG:       accel.vsplat %[[I]]
// CHECK-DAG:       accel.slli %[[I]], 2
// CHECK:           accel.yield
loop.kernel @iota(%y: memref<64xf32>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    loop.store %f, %y[%i] : memref<64xf32>
  }
  loop.return
}
