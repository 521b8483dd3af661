// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=3072 reserved-bytes=0}' | filecheck %s
// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=3072 reserved-bytes=0},loop-to-accel{scratchpad-bytes=3072 reserved-bytes=0}' | filecheck %s --check-prefix=DMA
// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=3072 reserved-bytes=0},loop-to-accel{scratchpad-bytes=3072 reserved-bytes=0 double-buffering=false}' | filecheck %s --check-prefix=SERIAL

// A kernel whose buffers (2 x 2 KiB) do not fit a 3 KiB scratchpad is
// strip-mined along its first dimension: a loop over pairs of tiles holds
// the nest once per slot. T = 2 rows of 256 bytes: the largest tile of
// both buffers that fits twice.
// CHECK-LABEL: loop.kernel @scale
// CHECK:         loop.for %[[T:.*]] = 0 to 8 step 4 attributes {accel.tile_size = 2 : i64, accel.tile_dimension = 0 : i64, accel.tiled_buffers = array<i64: 0, 1>, accel.tiled_positions = array<i64: 0, 0>, accel.tiled_sizes = array<i64: 2, 2>, accel.tiled_starts = array<i64: 1, 0, 1, 0>} {
// CHECK-NEXT:      %[[SIZE:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[END:.*]] = arith.addi %[[T]], %[[SIZE]] : index
// CHECK-NEXT:      loop.parallel (%{{.*}}, %{{.*}}) = (%[[T]], 0) to (%[[END]], 64) step (1, 1) attributes {accel.tile_slot = 0 : i64} {
// CHECK:           %[[NEXT:.*]] = arith.addi %[[END]], %[[SIZE]] : index
// CHECK-NEXT:      loop.parallel (%{{.*}}, %{{.*}}) = (%[[END]], 0) to (%[[NEXT]], 64) step (1, 1) attributes {accel.tile_slot = 1 : i64} {

// loop-to-accel streams the tiles: tile 0 loaded before the loop (tag 0);
// in slot 0 the next tile's load (tag 1) before the waits for this slot's
// load and for the store that last read it, then the nest and the store
// (tag 2) that nothing waits for; slot 1 likewise (tags 0, 1, 3), its
// prefetch of the next pair's tile empty after the last one.
// DMA-LABEL: accel.kernel "scale", 2
// DMA:         accel.dma.ld {{.*}}, 0
// DMA:         "accel.for"
// DMA:           accel.dma.ld {{.*}}, 1
// DMA:           accel.dma.wait 0
// DMA-NEXT:      accel.dma.wait 2
// DMA:           accel.vld
// DMA:           accel.vst
// DMA:           accel.dma.st {{.*}}, 2
// DMA:           accel.slt
// DMA:           accel.mul
// DMA:           accel.dma.ld {{.*}}, 0
// DMA:           accel.dma.wait 1
// DMA-NEXT:      accel.dma.wait 3
// DMA:           accel.dma.st {{.*}}, 3
// DMA:         accel.halt

// Without double buffering the DMA and the compute take turns: nothing is
// loaded before the loop; each slot loads its own tile and waits for it,
// and waits for its store right after issuing it.
// SERIAL-LABEL: accel.kernel "scale", 2
// SERIAL-NOT:    accel.dma
// SERIAL:        "accel.for"
// SERIAL:          accel.dma.ld {{.*}}, 0
// SERIAL-NEXT:     accel.dma.wait 0
// SERIAL-NEXT:     accel.dma.wait 2
// SERIAL:          accel.vld
// SERIAL:          accel.vst
// SERIAL:          accel.dma.st {{.*}}, 2
// SERIAL-NEXT:     accel.dma.wait 2
// SERIAL-NOT:      accel.slt
// SERIAL:          accel.dma.ld {{.*}}, 1
// SERIAL-NEXT:     accel.dma.wait 1
// SERIAL-NEXT:     accel.dma.wait 3
// SERIAL:          accel.dma.st {{.*}}, 3
// SERIAL-NEXT:     accel.dma.wait 3
// SERIAL-NEXT:     accel.yield
// SERIAL:        accel.halt
loop.kernel @scale(%x: memref<8x64xf32>, %y: memref<8x64xf32>) {
  %two = arith.constant 2.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (8, 64) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<8x64xf32>
    %w = arith.mulf %v, %two : f32
    loop.store %w, %y[%i, %j] : memref<8x64xf32>
  }
  loop.return
}

// A column sum: the tile cuts the second index of the input, whose tile
// is strided in DRAM (a 2-D descriptor: 8 rows of a tile's 32 columns,
// 384 bytes apart in DRAM, 128 in the slot); T is a multiple of the 16
// lanes, and 96 columns are 3 tiles, the last after the pairs, in slot 0.
// CHECK-LABEL: loop.kernel @column_sums
// CHECK:         loop.for %{{.*}} = 0 to 64 step 64 attributes {accel.tile_size = 32 : i64, accel.tile_dimension = 0 : i64, accel.tiled_buffers = array<i64: 0, 1>, accel.tiled_positions = array<i64: 1, 0>, accel.tiled_sizes = array<i64: 32, 32>, accel.tiled_starts = array<i64: 1, 0, 1, 0>}
// CHECK:         loop.parallel (%{{.*}}) = (64) to (96) step (1) attributes {accel.tile_slot = 0 : i64}
// DMA-LABEL: accel.kernel "column_sums", 2
// DMA:         %[[ROWS:.*]] = accel.addi %{{.*}}, 8
// DMA:         %[[DSTRIDE:.*]] = accel.addi %{{.*}}, 384
// DMA:         %[[SSTRIDE:.*]] = accel.addi %{{.*}}, 128
// DMA:         accel.dma.cfg %[[ROWS]], %[[DSTRIDE]], %[[SSTRIDE]], "raw"
loop.kernel @column_sums(%x: memref<8x96xf32>, %y: memref<96xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%j) = (0) to (96) step (1) {
    %s = loop.for %i = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<8x96xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %y[%j] : memref<96xf32>
  }
  loop.return
}

// A kernel that fits is left as it is.
// CHECK-LABEL: loop.kernel @small
// CHECK-NOT:     accel.tile_size
loop.kernel @small(%x: memref<4xf32>, %y: memref<4xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf32>
    loop.store %v, %y[%i] : memref<4xf32>
  }
  loop.return
}

// Rows picked at run time (a gather): along i the table's footprint is
// computed, so it would be staged whole and does not fit; along j every
// buffer is a tile: the table's and the result's strided (2-D
// descriptors), the indices staged whole. T = 16 (j is on the lanes).
// CHECK-LABEL: loop.kernel @gather_rows
// CHECK:         loop.for %{{.*}} = 0 to 64 step 32 attributes {accel.tile_size = 16 : i64, accel.tile_dimension = 1 : i64, accel.tiled_buffers = array<i64: 1, 2>, accel.tiled_positions = array<i64: 1, 1>
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, %{{.*}}) to (4, %{{.*}}) step (1, 1) attributes {accel.tile_slot = 0 : i64}
loop.kernel @gather_rows(%idx: memref<4xi32>, %table: memref<12x64xf32>, %y: memref<4x64xf32>) {
  %last = arith.constant 11 : index
  %zero = arith.constant 0 : index
  loop.parallel (%i, %j) = (0, 0) to (4, 64) step (1, 1) {
    %n = loop.load %idx[%i] : memref<4xi32>
    %r = arith.index_cast %n : i32 to index
    %low = arith.maxsi %r, %zero : index
    %row = arith.minsi %low, %last : index
    %v = loop.load %table[%row, %j] : memref<12x64xf32>
    loop.store %v, %y[%i, %j] : memref<4x64xf32>
  }
  loop.return
}

// A strided slice, y[i] = x[2i + 1] + x[2i + 2]: each tile of T = 128
// elements of y reads 256 elements of x from 2t + 1 (scale 2, first 1,
// size 2 (T - 1) + 2); its DMA starts at byte 4 (2t + 1) of x, 1,024
// bytes (only x is loaded: y is not read).
// CHECK-LABEL: loop.kernel @pairs
// CHECK:         loop.for %{{.*}} = 0 to 256 step 256 attributes {accel.tile_size = 128 : i64, accel.tile_dimension = 0 : i64, accel.tiled_buffers = array<i64: 0, 1>, accel.tiled_positions = array<i64: 0, 0>, accel.tiled_sizes = array<i64: 256, 128>, accel.tiled_starts = array<i64: 2, 1, 1, 0>}
// DMA-LABEL: accel.kernel "pairs", 2
// DMA:         %[[T:.*]] = accel.addi %{{.*}}, 0
// DMA-NEXT:    %[[TWICE:.*]] = accel.slli %[[T]], 1
// DMA-NEXT:    %[[FIRST:.*]] = accel.addi %[[TWICE]], 1
// DMA-NEXT:    %[[BYTES:.*]] = accel.slli %[[FIRST]], 2
// DMA-NEXT:    %[[DRAM:.*]] = accel.add %{{.*}}, %[[BYTES]]
// DMA:         %[[COLS:.*]] = accel.addi %{{.*}}, 1024
// DMA:         accel.dma.ld %{{.*}}, %[[DRAM]], %[[COLS]], 0
loop.kernel @pairs(%x: memref<514xf32>, %y: memref<256xf32>) {
  %one = arith.constant 1 : index
  %two = arith.constant 2 : index
  loop.parallel (%i) = (0) to (256) step (1) {
    %d = arith.muli %i, %two : index
    %a = arith.addi %d, %one : index
    %b = arith.addi %d, %two : index
    %u = loop.load %x[%a] : memref<514xf32>
    %v = loop.load %x[%b] : memref<514xf32>
    %s = arith.addf %u, %v : f32
    loop.store %s, %y[%i] : memref<256xf32>
  }
  loop.return
}
