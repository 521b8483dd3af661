// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// A pure instruction repeated in a block is built once, in the kernel's
// own block too: the zero register is read once, and the DMA descriptors
// of the three 128-byte buffers (and the second buffer's offset, 128) read
// one constant 128.
// CHECK-LABEL: accel.kernel "add", 3
// CHECK:         %[[ZERO:.*]] = accel.get_register : !accel.x<zero>
// CHECK-NOT:     accel.get_register
// CHECK:         %[[BYTES:.*]] = accel.addi %[[ZERO]], 128
// CHECK-NOT:     accel.addi %[[ZERO]], 128
// CHECK:         accel.dma.ld %{{.*}}, %{{.*}}, %[[BYTES]], 0
// CHECK-NEXT:    accel.dma.ld %[[BYTES]], %{{.*}}, %[[BYTES]], 0
// CHECK-NOT:     accel.addi %[[ZERO]], 128
// CHECK:         accel.dma.ld %{{.*}}, %{{.*}}, %[[BYTES]], 0
// CHECK-NOT:     accel.addi %[[ZERO]], 128
// CHECK:         accel.dma.st %{{.*}}, %{{.*}}, %[[BYTES]], 1
// CHECK-NOT:     accel.get_register
// CHECK:         accel.halt
loop.kernel @add(%x: memref<32xi32>, %y: memref<32xi32>, %z: memref<32xi32>) {
  loop.parallel (%i) = (0) to (32) step (1) {
    %a = loop.load %x[%i] : memref<32xi32>
    %b = loop.load %y[%i] : memref<32xi32>
    %c = arith.addi %a, %b : i32
    loop.store %c, %z[%i] : memref<32xi32>
  }
  loop.return
}
