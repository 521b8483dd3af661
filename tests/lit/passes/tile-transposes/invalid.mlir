// RUN: not xlir-opt %s -p 'tile-transposes{min-bytes=-1}' 2>&1 | filecheck %s --check-prefix=BYTES
// RUN: not xlir-opt %s -p 'tile-transposes{vector-bits=96}' 2>&1 | filecheck %s --check-prefix=BITS
// BYTES: error: tile-transposes: min-bytes must be non-negative, got -1
// BITS: error: tile-transposes: vector-bits must be a power of two of at least 8, got 96
loop.kernel @k(%x: memref<4xf32>) {
  loop.return
}
