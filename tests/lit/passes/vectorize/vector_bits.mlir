// The vector width is an option: the target's pipeline sets `vector-bits`
// from its TargetInfo; alone, the pass assumes 128-bit registers, whatever
// the host has.
// RUN: xlir-opt %s -p vectorize | filecheck %s --check-prefix=BASE
// RUN: xlir-opt %s -p 'vectorize{vector-bits=256}' | filecheck %s --check-prefix=AVX
// RUN: xlir-opt %s -p 'vectorize{vector-bits=64}' | filecheck %s --check-prefix=NARROW
// RUN: not xlir-opt %s -p 'vectorize{vector-bits=100}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not xlir-opt %s -p 'interleave{vector-bits=0}' 2>&1 | filecheck %s --check-prefix=BAD-INTERLEAVE
// RUN: not xlir-opt %s -p 'register-tile{vector-bits=48}' 2>&1 | filecheck %s --check-prefix=BAD-TILE
// RUN: not xlir-opt %s -p 'parallelize{vector-bits=3}' 2>&1 | filecheck %s --check-prefix=BAD-THREADS

// The columns are jammed by 4 vectors of the width (`COLUMN_VECTORS`).
// BASE:   loop.parallel (%{{.*}}) = (0) to (32) step (16) attributes {jam = array<i64: 16>} {
// BASE:     vector<4xf32>
// AVX:    loop.parallel (%{{.*}}) = (0) to (32) step (32) attributes {jam = array<i64: 32>} {
// AVX:      vector<8xf32>
// NARROW: loop.parallel (%{{.*}}) = (0) to (32) step (8) attributes {jam = array<i64: 8>} {
// NARROW:   vector<2xf32>
// BAD: error: vectorize: vector-bits must be a power of two of at least 8, got 100
// BAD-INTERLEAVE: error: interleave: vector-bits must be a power of two of at least 8, got 0
// BAD-TILE: error: register-tile: vector-bits must be a power of two of at least 8, got 48
// BAD-THREADS: error: parallelize: vector-bits must be a power of two of at least 8, got 3
loop.kernel @column_sum(%x: memref<16x32xf32>, %out: memref<32xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%j) = (0) to (32) step (1) {
    %s = loop.for %i = 0 to 16 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<16x32xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%j] : memref<32xf32>
  }
  loop.return
}
