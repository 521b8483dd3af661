// RUN: xlir-opt %s --verify-diagnostics -p 'accel-tile{scratchpad-bytes=96 reserved-bytes=64}' | filecheck %s

// A kernel that does not fit, cannot be tiled, and whose scratchpad has no
// room even for the bounce area of buffers kept in DRAM is an error at the
// kernel, saying why it cannot tile.

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
// CHECK: tile_invalid.mlir:7:1: error: kernel @two_nests needs 8192 bytes of scratchpad for its buffers, more than the 32 available, and accel-tile cannot tile it: its body holds 2 loop.parallel nests, not one
