// RUN: xlir-opt %s --split-input-file --verify-diagnostics

// The mark parallelize sets is a non-negative i64 count.
loop.kernel @negative(%x: memref<4xf32>) {
  // expected-error @+1 {{'loop.parallel' op attribute 'threads' must be a non-negative i64 (0: the CPUs online), got -2 : i64}}
  loop.parallel (%i) = (0) to (4) step (1) attributes {threads = -2 : i64} {
    %v = loop.load %x[%i] : memref<4xf32>
    loop.store %v, %x[%i] : memref<4xf32>
  }
  loop.return
}

// -----

loop.kernel @not_integer(%x: memref<4xf32>) {
  // expected-error @+1 {{'loop.parallel' op attribute 'threads' must be a non-negative i64 (0: the CPUs online), got "all"}}
  loop.parallel (%i) = (0) to (4) step (1) attributes {threads = "all"} {
    %v = loop.load %x[%i] : memref<4xf32>
    loop.store %v, %x[%i] : memref<4xf32>
  }
  loop.return
}
