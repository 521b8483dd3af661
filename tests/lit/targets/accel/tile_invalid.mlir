// RUN: xlir-opt %s --split-input-file --verify-diagnostics -p 'accel-tile{scratchpad-bytes=3072 reserved-bytes=0}' | filecheck %s

// A kernel that does not fit and cannot be tiled is an error at the
// kernel, saying why.

// A band: the input is read at the sum of both dimensions' indices, so its
// footprint along the first is wider than the scratchpad, and along the
// second it is computed from the dimension in two positions.
loop.kernel @band(%x: memref<32x64xf32>, %y: memref<32x32xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %k = arith.addi %i, %j : index
    %v = loop.load %x[%j, %k] : memref<32x64xf32>
    loop.store %v, %y[%i, %j] : memref<32x32xf32>
  }
  loop.return
}
// CHECK: tile_invalid.mlir:9:1: error: kernel @band needs 12288 bytes of scratchpad for its buffers, more than the 3072 available, and accel-tile cannot tile it: along dimension 0: no tile of its 32 rows fits twice beside the 0 bytes staged whole; along dimension 1: argument 0 is staged whole: it is accessed at indices computed from the tiled dimension; no tile of its 32 rows fits twice beside the 8192 bytes staged whole

// -----

// A buffer read both at the tile's rows and at a fixed row.
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
// CHECK: tile_invalid.mlir:22:1: error: kernel @first_row needs 8192 bytes of scratchpad for its buffers, more than the 3072 available, and accel-tile cannot tile it: along dimension 0: argument 0 is staged whole: it is accessed both in a tile and outside it; no tile of its 32 rows fits twice beside the 4096 bytes staged whole; along dimension 1: no tile of its 32 rows fits twice beside the 0 bytes staged whole

// -----

// Work outside the one parallel nest.
loop.kernel @two_nests(%x: memref<32x32xf32>, %y: memref<32x32xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<32x32xf32>
    loop.store %v, %y[%i, %j] : memref<32x32xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %v = loop.load %y[%i, %j] : memref<32x32xf32>
    loop.store %v, %x[%i, %j] : memref<32x32xf32>
  }
  loop.return
}
// CHECK: tile_invalid.mlir:37:1: error: kernel @two_nests needs 8192 bytes of scratchpad for its buffers, more than the 3072 available, and accel-tile cannot tile it: its body holds 2 loop.parallel nests, not one

// -----

// A row of 32 KiB, run through by a sequential loop: not even one row per
// tile fits twice.
loop.kernel @wide(%x: memref<2x8192xf32>, %y: memref<2x8192xf32>) {
  loop.parallel (%i) = (0) to (2) step (1) {
    loop.for %j = 0 to 8192 step 1 {
      %v = loop.load %x[%i, %j] : memref<2x8192xf32>
      loop.store %v, %y[%i, %j] : memref<2x8192xf32>
    }
  }
  loop.return
}
// CHECK: tile_invalid.mlir:54:1: error: kernel @wide needs 131072 bytes of scratchpad for its buffers, more than the 3072 available, and accel-tile cannot tile it: no tile of its 2 rows fits twice beside the 0 bytes staged whole
