// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// A reshape of a kernel's buffer is the same staged bytes under another
// shape: element (1, 2) of the 4x5 buffer is element 7 of its 20-element
// reshape, at byte 28 of the staging; a buffer stored to through a
// reshape is copied back. An i64 buffer's reshape is one of its words:
// element 7 is the words at bytes 56 and 60 of its staging.
// CHECK-LABEL: accel.kernel "flat", 2
// CHECK:         %[[V:.*]] = accel.lw 28(
// CHECK:         accel.sw %[[V]], 128(
// CHECK:         accel.dma.st {{.*}} !accel.x<a1>
// CHECK:         accel.halt
loop.kernel @flat(%x: memref<4x5xi32>, %y: memref<i32>) {
  loop.parallel () = () to () step () {
    %r = loop.reshape %x : memref<4x5xi32> -> memref<20xi32>
    %c = arith.constant 7 : index
    %v = loop.load %r[%c] : memref<20xi32>
    loop.store %v, %y[] : memref<i32>
  }
  loop.return
}

// CHECK-LABEL: accel.kernel "wide", 2
// CHECK:         %[[LOW:.*]] = accel.lw 0(
// CHECK:         %[[HIGH:.*]] = accel.lw 4(
// CHECK:         accel.sw %[[LOW]], 120(
// CHECK:         accel.sw %[[HIGH]], 124(
// CHECK:         accel.dma.st {{.*}} !accel.x<a1>
loop.kernel @wide(%x: memref<i64>, %y: memref<2x5xi64>) {
  loop.parallel () = () to () step () {
    %r = loop.reshape %y : memref<2x5xi64> -> memref<10xi64>
    %c = arith.constant 7 : index
    %v = loop.load %x[] : memref<i64>
    loop.store %v, %r[%c] : memref<10xi64>
  }
  loop.return
}
