// RUN: xlir-opt %s --split-input-file --verify-diagnostics

// The mark interleave sets is an i64 power of two up to 16.
loop.kernel @not_power_of_two(%x: memref<4xf32>) {
  // expected-error @+1 {{'loop.parallel' op attribute 'interleave' must be an i64 power of two from 1 to 16, got 3 : i64}}
  loop.parallel (%i) = (0) to (4) step (1) attributes {interleave = 3 : i64} {
    %v = loop.load %x[%i] : memref<4xf32>
    loop.store %v, %x[%i] : memref<4xf32>
  }
  loop.return
}

// -----

loop.kernel @too_many(%x: memref<4xf32>) {
  // expected-error @+1 {{'loop.parallel' op attribute 'interleave' must be an i64 power of two from 1 to 16, got 32 : i64}}
  loop.parallel (%i) = (0) to (4) step (1) attributes {interleave = 32 : i64} {
    %v = loop.load %x[%i] : memref<4xf32>
    loop.store %v, %x[%i] : memref<4xf32>
  }
  loop.return
}

// -----

loop.kernel @wrong_type(%x: memref<4xf32>) {
  // expected-error @+1 {{'loop.parallel' op attribute 'interleave' must be an i64 power of two from 1 to 16, got 4 : i32}}
  loop.parallel (%i) = (0) to (4) step (1) attributes {interleave = 4 : i32} {
    %v = loop.load %x[%i] : memref<4xf32>
    loop.store %v, %x[%i] : memref<4xf32>
  }
  loop.return
}
