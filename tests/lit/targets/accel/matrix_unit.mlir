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

// B read transposed (B[j, k], a gradient's product): each column of a B
// panel is one descriptor of K = 64 rows of one element, consecutive in
// DRAM (stride 4) and a panel row (32 columns, 128 bytes) apart in the
// scratchpad, issued on a hardware loop over the panel's columns (step 4
// bytes); a column past B's 48 rows moves nothing (COLS 0).
// The panel row's 128 is the kernel's one constant 128 (`mcfg` reads it).
// CHECK-LABEL: accel.kernel "product_bt", 3
// CHECK:         %[[PANEL:.*]] = accel.addi %{{.*}}, 128
// CHECK:         %[[ROWS:.*]] = accel.addi %{{.*}}, 64
// CHECK-NEXT:    %[[STRIDE:.*]] = accel.addi %{{.*}}, 4
// CHECK-NEXT:    accel.dma.cfg %[[ROWS]], %[[STRIDE]], %[[PANEL]], "raw"
// CHECK:         "accel.for"({{.*}}) <{step = 4 : i32, hardware
// CHECK-NEXT:    ^bb0(%[[COLUMN:.*]]: !accel.x):
// CHECK-NEXT:      %[[PRESENT:.*]] = accel.slt %[[COLUMN]], %{{.*}}
// CHECK-NEXT:      %[[BYTES:.*]] = accel.slli %[[PRESENT]], 2
// CHECK-NEXT:      %[[SKIP:.*]] = accel.slli %[[COLUMN]], 6
// CHECK-NEXT:      %[[DRAM:.*]] = accel.add %{{.*}}, %[[SKIP]]
// CHECK-NEXT:      %[[SPAD:.*]] = accel.add %{{.*}}, %[[COLUMN]]
// CHECK-NEXT:      accel.dma.ld %[[SPAD]], %[[DRAM]], %[[BYTES]], 4
// CHECK:         accel.dma.cfg {{.*}} "raw"
// CHECK:         accel.mmac
loop.kernel @product_bt(%a: memref<32x64xf32>, %b: memref<48x64xf32>, %c: memref<32x48xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (32, 48) step (1, 1) {
    %s = loop.for %k = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<32x64xf32>
      %y = loop.load %b[%j, %k] : memref<48x64xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<32x48xf32>
  }
  loop.return
}
