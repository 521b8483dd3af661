// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// Rounding to an integral value is one vfround each (manual section 4.8),
// on 16 lanes and on a splatted scalar alike.
// CHECK-LABEL: accel.kernel "roundings", 2
// CHECK:         "accel.for"({{.*}}) <{step = 64 : i32, hardware
// CHECK:           %[[V:.*]] = accel.vld
// CHECK-NEXT:      %[[F:.*]] = accel.vfround.rdn %[[V]]
// CHECK-NEXT:      %[[C:.*]] = accel.vfround.rup %[[F]]
// CHECK-NEXT:      %[[E:.*]] = accel.vfround.rne %[[C]]
// CHECK-NEXT:      %[[A:.*]] = accel.vfround.rmm %[[E]]
// CHECK-NEXT:      %[[T:.*]] = accel.vfround.rtz %[[A]]
// CHECK-NEXT:      accel.vst %[[T]]
// CHECK:         "accel.for"({{.*}}) <{step = 4 : i32, hardware
// CHECK:           accel.lw
// CHECK-NEXT:      %[[S:.*]] = accel.vsplat
// CHECK-NEXT:      accel.vfround.rdn %[[S]]
loop.kernel @roundings(%x: memref<20xf32>, %z: memref<20xf32>) {
  loop.parallel (%i) = (0) to (20) step (1) {
    %a = loop.load %x[%i] : memref<20xf32>
    %f = math.floor %a : f32
    %c = math.ceil %f : f32
    %e = math.roundeven %c : f32
    %r = math.round %e : f32
    %t = math.trunc %r : f32
    loop.store %t, %z[%i] : memref<20xf32>
  }
  loop.return
}

// Leading zeros of an i8: its 8 bits zero-extended, the bit below the
// leading one cleared, the exponent of the f32 conversion subtracted from
// 8 - 1 + 127, at most 8 (bit_counts.py).
// CHECK-LABEL: accel.kernel "leading_zeros", 2
// CHECK:         %[[ZERO:.*]] = accel.get_register : !accel.x<zero>
// CHECK:         "accel.for"({{.*}}) <{step = 4 : i32, hardware
// CHECK:           %[[X:.*]] = accel.lw
// CHECK-NEXT:      %[[M:.*]] = accel.andi %[[X]], 255
// CHECK-NEXT:      %[[H:.*]] = accel.srli %[[M]], 1
// CHECK-NEXT:      %[[B:.*]] = accel.and %[[M]], %[[H]]
// CHECK-NEXT:      %[[L:.*]] = accel.xor %[[M]], %[[B]]
// CHECK-NEXT:      %[[LS:.*]] = accel.vsplat %[[L]]
// CHECK-NEXT:      %[[FL:.*]] = accel.vcvt.f32.u32 %[[LS]]
// CHECK-NEXT:      %[[BITS:.*]] = accel.vext %[[FL]], 0
// CHECK-NEXT:      %[[EXP:.*]] = accel.srli %[[BITS]], 23
// CHECK-NEXT:      %[[TOP:.*]] = accel.addi %[[ZERO]], 134
// CHECK-NEXT:      %[[N:.*]] = accel.sub %[[TOP]], %[[EXP]]
// CHECK-NEXT:      %[[W:.*]] = accel.addi %[[ZERO]], 8
// CHECK-NEXT:      accel.minu %[[N]], %[[W]]
loop.kernel @leading_zeros(%x: memref<4xi8>, %z: memref<4xi8>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %a = loop.load %x[%i] : memref<4xi8>
    %c = math.ctlz %a : i8
    loop.store %c, %z[%i] : memref<4xi8>
  }
  loop.return
}

// Population count and absolute value on i32 lanes: the field sums with
// splatted masks, the byte counts added by a multiply; 0 - x, then vmax.
// CHECK-LABEL: accel.kernel "counts", 2
// CHECK:         "accel.for"({{.*}}) <{step = 64 : i32, hardware
// CHECK:           %[[X:.*]] = accel.vld
// CHECK:           accel.vsrl %[[X]]
// CHECK:           accel.vand
// CHECK:           accel.vsub %[[X]]
// CHECK:           accel.vmul
// CHECK:           %[[POP:.*]] = accel.vsrl
// CHECK:           %[[NEG:.*]] = accel.vsub %{{.*}}, %[[POP]]
// CHECK-NEXT:      accel.vmax %[[POP]], %[[NEG]]
loop.kernel @counts(%x: memref<32xi32>, %z: memref<32xi32>) {
  loop.parallel (%i) = (0) to (32) step (1) {
    %a = loop.load %x[%i] : memref<32xi32>
    %p = math.ctpop %a : i32
    %n = math.absi %p : i32
    loop.store %n, %z[%i] : memref<32xi32>
  }
  loop.return
}
