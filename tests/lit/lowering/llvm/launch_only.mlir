// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s

// A kernel whose loop only launches threaded nests (a sort's passes, each
// running its merges on the threads) reads no memory and writes only the
// records of its launches' arguments on its stack: LLVM leaves it
// unoptimized (optnone), while the chunk that does the work is optimized.
// CHECK-LABEL: llvm.func internal @passes.chunk0(
// CHECK-SAME:    attributes {no_inline} {
// CHECK-LABEL: llvm.func internal @passes(
// CHECK-SAME:    attributes {no_inline, optimize_none}
// CHECK:         llvm.alloca
// CHECK:         llvm.call @xlir.parallel_for

// A loop that reads and writes memory itself is optimized: no optnone.
// CHECK-LABEL: llvm.func internal @copies(
// CHECK-NOT:     optimize_none
// CHECK-SAME:    {
// CHECK:         llvm.load
// CHECK:         llvm.store

// Nor is a loop that writes a buffer without reading one (an iota).
// CHECK-LABEL: llvm.func internal @iota(
// CHECK-NOT:     optimize_none
// CHECK-SAME:    {
// CHECK:         llvm.store

builtin.module {
  loop.kernel @passes(%x: memref<8xf32>, %n: index) {
    loop.for %p = 0 to 3 step 1 {
      loop.parallel (%i) = (0) to (%n) step (1) attributes {threads = 2 : i64} {
        %v = loop.load %x[%i] : memref<8xf32>
        %w = arith.addf %v, %v : f32
        loop.store %w, %x[%i] : memref<8xf32>
      }
    }
    loop.return
  }
  loop.kernel @copies(%x: memref<8xf32>, %y: memref<8xf32>) {
    loop.for %i = 0 to 8 step 1 {
      %v = loop.load %x[%i] : memref<8xf32>
      loop.store %v, %y[%i] : memref<8xf32>
    }
    loop.return
  }
  loop.kernel @iota(%y: memref<8xi64>) {
    loop.for %i = 0 to 8 step 1 {
      %v = arith.index_cast %i : index to i64
      loop.store %v, %y[%i] : memref<8xi64>
    }
    loop.return
  }
}
