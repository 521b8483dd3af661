// RUN: xlir-opt %s --split-input-file --verify-diagnostics -p 'accel-tile{scratchpad-bytes=3072 reserved-bytes=0}' | filecheck %s

// A kernel that does not fit and cannot be tiled is an error at the
// kernel, saying why.

// A transpose reads its input at the tiled dimension's index in another
// position than its output, computed from both dimensions.
loop.kernel @transpose(%x: memref<32x32xf32>, %y: memref<32x32xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %k = arith.addi %i, %j : index
    %v = loop.load %x[%j, %k] : memref<32x32xf32>
    loop.store %v, %y[%i, %j] : memref<32x32xf32>
  }
  loop.return
}
// CHECK: tile_invalid.mlir:8:1: error: kernel @transpose needs 8192 bytes of scratchpad for its buffers, more than the 3072 available, and accel-tile cannot tile it: argument 0 is accessed at an index computed from the tiled dimension

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
// CHECK: tile_invalid.mlir:21:1: error: kernel @first_row needs 8192 bytes of scratchpad for its buffers, more than the 3072 available, and accel-tile cannot tile it: argument 0 is accessed both in a tile and outside it

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
// CHECK: tile_invalid.mlir:36:1: error: kernel @two_nests needs 8192 bytes of scratchpad for its buffers, more than the 3072 available, and accel-tile cannot tile it: its body holds 2 loop.parallel nests, not one

// -----

// A row of 32 KiB: not even one row per tile fits twice.
loop.kernel @wide(%x: memref<2x8192xf32>, %y: memref<2x8192xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (2, 8192) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<2x8192xf32>
    loop.store %v, %y[%i, %j] : memref<2x8192xf32>
  }
  loop.return
}
// CHECK: tile_invalid.mlir:52:1: error: kernel @wide needs 131072 bytes of scratchpad for its buffers, more than the 3072 available, and accel-tile cannot tile it: no tile of its 2 rows fits twice beside the 0 bytes staged whole
