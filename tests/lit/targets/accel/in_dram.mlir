// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=3072 reserved-bytes=0}' | filecheck %s
// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=3072 reserved-bytes=0},loop-to-accel{scratchpad-bytes=3072 reserved-bytes=0}' | filecheck %s --check-prefix=DMA

// Where no tiling fits, the largest buffers stay in DRAM, as few as let
// the others fit whole or tile (`accel.in_dram`), and each access to them
// moves its element (a vector access: its 16 lanes) through a 64-byte
// bounce area at the end of the staged buffers, by one descriptor on
// tag 7, waited for at once.

// A gather of elements from an 8 KiB table: the table stays in DRAM, the
// indices and the result are staged whole; each read is a 4-byte
// descriptor to the bounce area (at 512, after two 256-byte buffers),
// then a scalar load from it.
// CHECK-LABEL: loop.kernel @gather
// CHECK-SAME:    attributes {accel.in_dram = array<i64: 1>}
// CHECK-NOT:     accel.tile_size
// DMA-LABEL: accel.kernel "gather", 3 attributes {scratchpad_bytes = 576 : i64}
// DMA:         "accel.for"
// DMA:           accel.min
// DMA-NEXT:      %[[AT:.*]] = accel.slli %{{.*}}, 2
// DMA-NEXT:      %[[DRAM:.*]] = accel.add %{{.*}}, %[[AT]]
// DMA:           %[[FOUR:.*]] = accel.addi %{{.*}}, 4
// DMA:           %[[BOUNCE:.*]] = accel.addi %{{.*}}, 512
// DMA-NEXT:      accel.dma.ld %[[BOUNCE]], %[[DRAM]], %[[FOUR]], 7
// DMA-NEXT:      accel.dma.wait 7
// DMA-NEXT:      accel.lw 512(%{{.*}})
loop.kernel @gather(%idx: memref<64xi32>, %table: memref<2048xf32>, %y: memref<64xf32>) {
  %last = arith.constant 2047 : index
  %zero = arith.constant 0 : index
  loop.parallel (%i) = (0) to (64) step (1) {
    %n = loop.load %idx[%i] : memref<64xi32>
    %r = arith.index_cast %n : i32 to index
    %low = arith.maxsi %r, %zero : index
    %at = arith.minsi %low, %last : index
    %v = loop.load %table[%at] : memref<2048xf32>
    loop.store %v, %y[%i] : memref<64xf32>
  }
  loop.return
}

// A band (the input read at the sum of both indices): along the first
// dimension its footprint is too wide, along the second it is computed;
// it stays in DRAM and the result moves in tiles.
// CHECK-LABEL: loop.kernel @band
// CHECK-SAME:    attributes {accel.in_dram = array<i64: 0>}
// CHECK:         loop.for {{.*}} accel.tiled_buffers = array<i64: 1>
loop.kernel @band(%x: memref<32x64xf32>, %y: memref<32x32xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %k = arith.addi %i, %j : index
    %v = loop.load %x[%j, %k] : memref<32x64xf32>
    loop.store %v, %y[%i, %j] : memref<32x32xf32>
  }
  loop.return
}

// A buffer read both at the tile's rows and at a fixed row: in DRAM.
// CHECK-LABEL: loop.kernel @first_row
// CHECK-SAME:    attributes {accel.in_dram = array<i64: 0>}
// CHECK:         loop.for {{.*}} accel.tiled_buffers = array<i64: 1>
loop.kernel @first_row(%x: memref<32x32xf32>, %y: memref<32x32xf32>) {
  %zero = arith.constant 0 : index
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<32x32xf32>
    %w = loop.load %x[%zero, %j] : memref<32x32xf32>
    %s = arith.addf %v, %w : f32
    loop.store %s, %y[%i, %j] : memref<32x32xf32>
  }
  loop.return
}

// Rows scattered to run-time positions of a 16 KiB buffer: it is stored
// at a computed row, so it stays in DRAM; the stores, on the vector lanes,
// each put 16 elements in the bounce area and move them by one 64-byte
// descriptor.
// CHECK-LABEL: loop.kernel @scatter_rows
// CHECK-SAME:    attributes {accel.in_dram = array<i64: 2>}
// DMA-LABEL: accel.kernel "scatter_rows", 3
// DMA:         accel.vst %{{.*}}, 1088(%{{.*}})
// DMA-NEXT:    %[[BYTES:.*]] = accel.addi %{{.*}}, 64
// DMA-NEXT:    %[[BOUNCE:.*]] = accel.addi %{{.*}}, 1088
// DMA-NEXT:    accel.dma.st %[[BOUNCE]], %{{.*}}, %[[BYTES]], 7
// DMA-NEXT:    accel.dma.wait 7
loop.kernel @scatter_rows(%idx: memref<4xi32>, %x: memref<4x64xf32>, %y: memref<64x64xf32>) {
  %last = arith.constant 63 : index
  %zero = arith.constant 0 : index
  loop.parallel (%i, %j) = (0, 0) to (4, 64) step (1, 1) {
    %n = loop.load %idx[%i] : memref<4xi32>
    %r = arith.index_cast %n : i32 to index
    %low = arith.maxsi %r, %zero : index
    %row = arith.minsi %low, %last : index
    %v = loop.load %x[%i, %j] : memref<4x64xf32>
    loop.store %v, %y[%row, %j] : memref<64x64xf32>
  }
  loop.return
}

// Rows of 32 KiB run through by a sequential loop: not even one row per
// tile fits twice, so both stay in DRAM.
// CHECK-LABEL: loop.kernel @wide
// CHECK-SAME:    attributes {accel.in_dram = array<i64: 0, 1>}
loop.kernel @wide(%x: memref<2x8192xf32>, %y: memref<2x8192xf32>) {
  loop.parallel (%i) = (0) to (2) step (1) {
    loop.for %j = 0 to 8192 step 1 {
      %v = loop.load %x[%i, %j] : memref<2x8192xf32>
      loop.store %v, %y[%i, %j] : memref<2x8192xf32>
    }
  }
  loop.return
}
