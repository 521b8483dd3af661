// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// bf16 moves in its f32 container (the DMA's bf16 mode widens it on load
// and rounds it on store, manual section 5.1): the bits `widen-floats`
// takes apart are the container's top 16, sign-extended as an i16
// (`srai` 16), and an i16 put back is shifted into place (`slli` 16).
// CHECK-LABEL: accel.kernel "halves", 2
// CHECK:         accel.dma.cfg {{.*}} "bf16"
// CHECK:         %[[V:.*]] = accel.lw
// CHECK:         %[[SPLAT:.*]] = accel.vsplat %[[V]]
// CHECK-NEXT:    %[[BITS:.*]] = accel.vext %[[SPLAT]], 0
// CHECK-NEXT:    %[[HALF:.*]] = accel.srai %[[BITS]], 16
// CHECK:         %[[BACK:.*]] = accel.slli %{{.*}}, 16
// CHECK-NEXT:    accel.vsplat %[[BACK]]
loop.kernel @halves(%x: memref<4xbf16>, %y: memref<4xbf16>) {
  %one = arith.constant 1 : i16
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xbf16>
    %b = arith.bitcast %v : bf16 to i16
    %n = arith.xori %b, %one : i16
    %w = arith.bitcast %n : i16 to bf16
    loop.store %w, %y[%i] : memref<4xbf16>
  }
  loop.return
}
