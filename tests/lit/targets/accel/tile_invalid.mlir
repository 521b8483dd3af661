// RUN: xlir-opt %s --verify-diagnostics -p 'accel-tile{scratchpad-bytes=96 reserved-bytes=64}' | filecheck %s

// A kernel that does not fit, cannot be tiled, and whose scratchpad has no
// room even for the bounce area of buffers kept in DRAM is an error at the
// kernel, saying why it cannot tile.

// A row of 32 KiB run through by a sequential loop.
loop.kernel @wide(%x: memref<2x8192xf32>, %y: memref<2x8192xf32>) {
  loop.parallel (%i) = (0) to (2) step (1) {
    loop.for %j = 0 to 8192 step 1 {
      %v = loop.load %x[%i, %j] : memref<2x8192xf32>
      loop.store %v, %y[%i, %j] : memref<2x8192xf32>
    }
  }
  loop.return
}
// CHECK: tile_invalid.mlir:[[# @LINE - 9]]:1: error: kernel @wide needs 131072 bytes of scratchpad for its buffers, more than the 32 available, and accel-tile cannot tile it: no tile of its 2 rows fits twice beside the 0 bytes staged whole
