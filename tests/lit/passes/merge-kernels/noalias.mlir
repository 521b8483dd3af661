// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s --check-prefix=APART
// RUN: xlir-opt %s -p merge-kernels,loop-to-llvm | filecheck %s --check-prefix=MERGED

// Two copies of a kernel, the second launched in place (one buffer as both
// arguments). Apart, the first's arguments are noalias; merged, the one
// function serves both launches, so neither argument is.
// APART:      llvm.func internal @neg(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
// APART:      llvm.func internal @neg_in_place(%{{[0-9]+}}: !llvm.ptr, %{{[0-9]+}}: !llvm.ptr)
// MERGED:     llvm.func internal @neg(%{{[0-9]+}}: !llvm.ptr, %{{[0-9]+}}: !llvm.ptr)
// MERGED-NOT: llvm.func internal @neg_in_place
// MERGED:     device.launch @neg(%{{.*}}, %[[A:.*]]) on
// MERGED:     device.launch @neg(%[[A]], %[[A]]) on
builtin.module {
  loop.kernel @neg(%x: memref<16xf32>, %y: memref<16xf32>) {
    loop.parallel (%i) = (0) to (16) step (1) {
      %v = loop.load %x[%i] : memref<16xf32>
      %w = arith.negf %v : f32
      loop.store %w, %y[%i] : memref<16xf32>
    }
    loop.return
  }
  loop.kernel @neg_in_place(%x: memref<16xf32>, %y: memref<16xf32>) {
    loop.parallel (%i) = (0) to (16) step (1) {
      %v = loop.load %x[%i] : memref<16xf32>
      %w = arith.negf %v : f32
      loop.store %w, %y[%i] : memref<16xf32>
    }
    loop.return
  }
  func.func @main(%x: memref<16xf32>) -> memref<16xf32> {
    %s = device.default_stream
    %a = device.alloc : memref<16xf32>
    device.launch @neg(%x, %a) on %s : memref<16xf32>, memref<16xf32>
    device.launch @neg_in_place(%a, %a) on %s : memref<16xf32>, memref<16xf32>
    device.synchronize %s
    func.return %a : memref<16xf32>
  }
}
