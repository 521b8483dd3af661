// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s

// A kernel's buffer is noalias when no launch passes it memory that another
// of its buffers may share (analysis/kernel_aliasing.py).

// Threads: the chunk takes the buffers as noalias arguments too,
// the range is not (the chunk functions come first).
// CHECK-LABEL: llvm.func internal @scale_threaded.chunk0(
// CHECK-SAME:    %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64)

// Distinct buffers at every launch (a parameter, an allocation, disjoint
// views of the arena): all noalias; scalars never are.
// CHECK-LABEL: llvm.func internal @add_distinct
// CHECK-SAME:    (%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: f32)

// Overlapping views of one arena (bytes [0, 16) and [8, 24)) at one launch:
// neither is noalias; the third buffer still is.
// CHECK-LABEL: llvm.func internal @add_overlapping
// CHECK-SAME:    (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias})

// A buffer and a reshape of it: not noalias.
// CHECK-LABEL: llvm.func internal @copy_reshaped
// CHECK-SAME:    (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)

// Views of views (a block of the arena, views inside it) are placed in the
// arena by the sum of their offsets: bytes [48, 56) and [56, 64) are apart
// from [40, 48) and from each other, [44, 52) meets two of them.
// CHECK-LABEL: llvm.func internal @add_nested
// CHECK-SAME:    (%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
// CHECK-LABEL: llvm.func internal @add_nested_overlapping
// CHECK-SAME:    (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias})

// CHECK-LABEL: llvm.func internal @scale_threaded(
// CHECK-SAME:    %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
builtin.module {
  loop.kernel @add_distinct(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>, %s: f32) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %x = loop.load %a[%i] : memref<4xf32>
      %y = loop.load %b[%i] : memref<4xf32>
      %z = arith.addf %x, %y : f32
      %w = arith.mulf %z, %s : f32
      loop.store %w, %c[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @add_overlapping(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %x = loop.load %a[%i] : memref<4xf32>
      %y = loop.load %b[%i] : memref<4xf32>
      %z = arith.addf %x, %y : f32
      loop.store %z, %c[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @copy_reshaped(%a: memref<4xf32>, %b: memref<2x2xf32>) {
    loop.parallel (%i, %j) = (0, 0) to (2, 2) step (1, 1) {
      %x = loop.load %b[%i, %j] : memref<2x2xf32>
      loop.store %x, %a[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @add_nested(%a: memref<2xf32>, %b: memref<2xf32>, %c: memref<2xf32>) {
    loop.parallel (%i) = (0) to (2) step (1) {
      %x = loop.load %a[%i] : memref<2xf32>
      %y = loop.load %b[%i] : memref<2xf32>
      %z = arith.addf %x, %y : f32
      loop.store %z, %c[%i] : memref<2xf32>
    }
    loop.return
  }
  loop.kernel @add_nested_overlapping(%a: memref<2xf32>, %b: memref<2xf32>, %c: memref<2xf32>) {
    loop.parallel (%i) = (0) to (2) step (1) {
      %x = loop.load %a[%i] : memref<2xf32>
      %y = loop.load %b[%i] : memref<2xf32>
      %z = arith.addf %x, %y : f32
      loop.store %z, %c[%i] : memref<2xf32>
    }
    loop.return
  }
  loop.kernel @scale_threaded(%a: memref<64xf32>, %b: memref<64xf32>) {
    loop.parallel (%i) = (0) to (64) step (1) attributes {threads = 2 : i64} {
      %x = loop.load %a[%i] : memref<64xf32>
      %y = arith.addf %x, %x : f32
      loop.store %y, %b[%i] : memref<64xf32>
    }
    loop.return
  }
  func.func @main(%p: memref<4xf32>, %q: memref<64xf32>, %s: f32) -> (memref<4xf32>, memref<64xf32>) {
    %stream = device.default_stream
    %arena = device.alloc : memref<64xi8>
    %out = device.alloc : memref<4xf32>
    %big = device.alloc : memref<64xf32>
    %v0 = loop.view %arena[0] : memref<64xi8> -> memref<4xf32>
    %v8 = loop.view %arena[8] : memref<64xi8> -> memref<4xf32>
    %v32 = loop.view %arena[32] : memref<64xi8> -> memref<4xf32>
    device.launch @add_distinct(%p, %v32, %v0, %s) on %stream : memref<4xf32>, memref<4xf32>, memref<4xf32>, f32
    device.launch @add_overlapping(%v0, %v8, %out) on %stream : memref<4xf32>, memref<4xf32>, memref<4xf32>
    %r = loop.reshape %out : memref<4xf32> -> memref<2x2xf32>
    device.launch @copy_reshaped(%out, %r) on %stream : memref<4xf32>, memref<2x2xf32>
    %block = loop.view %arena[40] : memref<64xi8> -> memref<24xi8>
    %n0 = loop.view %arena[40] : memref<64xi8> -> memref<2xf32>
    %n8 = loop.view %block[8] : memref<24xi8> -> memref<2xf32>
    %n16 = loop.view %block[16] : memref<24xi8> -> memref<2xf32>
    %n4 = loop.view %block[4] : memref<24xi8> -> memref<2xf32>
    device.launch @add_nested(%n8, %n0, %n16) on %stream : memref<2xf32>, memref<2xf32>, memref<2xf32>
    device.launch @add_nested_overlapping(%n4, %n8, %n16) on %stream : memref<2xf32>, memref<2xf32>, memref<2xf32>
    device.launch @scale_threaded(%q, %big) on %stream : memref<64xf32>, memref<64xf32>
    device.synchronize %stream
    device.free %arena : memref<64xi8>
    func.return %out, %big : memref<4xf32>, memref<64xf32>
  }
}
