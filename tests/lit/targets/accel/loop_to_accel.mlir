// RUN: xlir-opt %s -p loop-to-accel | filecheck %s
// RUN: xlir-opt %s -p loop-to-accel,accel-registers | filecheck %s --check-prefix=ALLOC

// A kernel stages its buffers in the scratchpad (DMA in, compute, DMA out,
// halt); its parallel loop is a hardware accel.for, the reduction a loop
// over 16 lanes with a carried vector register, reduced by vredsum.f
// (vector_reductions.py); f32 scalars are splatted words.

// CHECK-LABEL: accel.kernel "row_sums", 2
// CHECK:       ^bb0(%[[IN:.*]]: !accel.x<a0>, %[[OUT:.*]]: !accel.x<a1>):
// CHECK:         accel.dma.ld %{{.*}}, %[[IN]], %{{.*}}, 0
// CHECK:         accel.dma.ld %{{.*}}, %[[OUT]], %{{.*}}, 0
// CHECK-NEXT:    accel.dma.wait 0
// CHECK:         "accel.for"({{.*}}) <{step = 1 : i32, hardware
// CHECK:           %[[LANES:.*]] = "accel.for"({{.*}}) <{step = 64 : i32, hardware
// CHECK:             accel.vld
// CHECK-NEXT:        %[[SUM:.*]] = accel.vfadd
// CHECK-NEXT:        accel.yield %[[SUM]] : !accel.v
// CHECK:           %[[ROW:.*]] = accel.vredsum.f %[[LANES]]
// CHECK-NEXT:      %[[TOTAL:.*]] = accel.vfadd %{{.*}}, %[[ROW]]
// CHECK:           accel.vext %[[TOTAL]], 0
// CHECK-NEXT:      accel.sw
// CHECK:         accel.dma.st %{{.*}}, %[[OUT]], %{{.*}}, 1
// CHECK-NEXT:    accel.dma.wait 1
// CHECK-NEXT:    accel.halt

// After allocation every register is named and the loops are labels (the
// inner one advancing its address counter by 64 bytes):
// ALLOC-LABEL: accel.kernel "row_sums", 2
// ALLOC-NOT:   {{!accel\.[xv]([^<]|$)}}
// ALLOC:       accel.loop %{{.*}}, ".Lfor{{[0-9]+}}" : !accel.x<{{[a-z0-9]+}}>
// ALLOC:       accel.label ".Lfor{{[0-9]+}}"
// ALLOC-NEXT:  accel.addi %{{.*}}, 64
// ALLOC:       accel.halt
loop.kernel @row_sums(%x: memref<8x32xf32>, %y: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    %s = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<8x32xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %y[%i] : memref<8xf32>
  }
  loop.return
}

// An elementwise loop runs on the 16 vector lanes (vector_lanes.py), its
// last 20 mod 16 iterations as scalar code, where a select is bit operations.
// Both loops count byte addresses (strength_reduction.py): 64 bytes a step.
// CHECK-LABEL: accel.kernel "clamp_add", 3
// CHECK:         "accel.for"({{.*}}) <{step = 64 : i32, hardware
// CHECK:           accel.vld
// CHECK:           accel.vld
// CHECK-NEXT:      accel.vadd
// CHECK-NEXT:      accel.vslt
// CHECK-NEXT:      accel.vsel
// CHECK:           accel.vst
// CHECK:         "accel.for"({{.*}}) <{step = 4 : i32, hardware
// CHECK:           accel.lw
// CHECK:           accel.lw
// CHECK-NEXT:      accel.add
// CHECK-NEXT:      accel.slt
// CHECK-NEXT:      accel.sub
// CHECK-NEXT:      accel.xor
// CHECK-NEXT:      accel.and
// CHECK-NEXT:      accel.xor
// CHECK:           accel.sw
loop.kernel @clamp_add(%a: memref<20xi32>, %b: memref<20xi32>, %c: memref<20xi32>) {
  loop.parallel (%i) = (0) to (20) step (1) {
    %x = loop.load %a[%i] : memref<20xi32>
    %y = loop.load %b[%i] : memref<20xi32>
    %s = arith.addi %x, %y : i32
    %lt = arith.cmpi slt, %s, %x : i32
    %r = arith.select %lt, %x, %s : i32
    loop.store %r, %c[%i] : memref<20xi32>
  }
  loop.return
}

// A product only a sum reads is one vfmadd (two roundings, as mulf then
// addf); the matrix-vector loop's columns are lanes, its rows uniform.
// CHECK-LABEL: accel.kernel "gemv", 3
// CHECK:         accel.lw
// CHECK-NEXT:    accel.vsplat
// CHECK:         accel.vld
// CHECK-NEXT:    %[[SUM:.*]] = accel.vfmadd
// CHECK-NEXT:    accel.yield %[[SUM]] : !accel.v
// CHECK-NOT:     accel.vfmul
loop.kernel @gemv(%x: memref<8xf32>, %a: memref<8x32xf32>, %y: memref<32xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%j) = (0) to (32) step (1) {
    %s = loop.for %i = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %u = loop.load %x[%i] : memref<8xf32>
      %v = loop.load %a[%i, %j] : memref<8x32xf32>
      %p = arith.mulf %u, %v : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %y[%j] : memref<32xf32>
  }
  loop.return
}
