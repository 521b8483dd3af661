// RUN: xlir-opt %s -p loop-to-accel | filecheck %s
// RUN: xlir-opt %s -p 'loop-to-accel{matrix=false}' | filecheck %s --check-prefix=LANES

// A matrix product runs on the matrix unit: operand strides set once, a
// B panel and an A panel loaded before the loops (tags 4 and 0), then per
// block of 16 rows by 32 columns two accumulators cleared, mmacs over K on
// a hardware loop stepping 16 columns of A (64 bytes), the accumulators
// stored into a C slot and the block stored by DMA (tag 2).
// CHECK-LABEL: accel.kernel "product", 3
// CHECK:         accel.mcfg
// CHECK:         accel.dma.ld {{.*}}, 4
// CHECK:         accel.dma.ld {{.*}}, 0
// CHECK:         "accel.for"
// CHECK:           accel.dma.wait 4
// CHECK:           "accel.for"
// CHECK:             accel.dma.wait 0
// CHECK:             %[[M0:.*]] = accel.mzero
// CHECK-NEXT:        %[[M1:.*]] = accel.mzero
// CHECK:             "accel.for"({{.*}}, %[[M0]], %[[M1]]) <{step = 64 : i32, hardware
// CHECK:               accel.mmac
// CHECK:               accel.mmac
// CHECK:             accel.dma.wait 2
// CHECK:             accel.mst
// CHECK:             accel.mst
// CHECK:             accel.dma.st {{.*}}, 2
// CHECK:         accel.halt

// Without the matrix unit the product is vector code (16 columns on the lanes).
// LANES-LABEL: accel.kernel "product", 3
// LANES-NOT:     accel.mmac
// LANES:         accel.vfmadd
loop.kernel @product(%a: memref<32x64xf32>, %b: memref<64x32xf32>, %c: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %s = loop.for %k = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<32x64xf32>
      %y = loop.load %b[%k, %j] : memref<64x32xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<32x32xf32>
  }
  loop.return
}
