// RUN: xlir-opt %s -p loop-to-llvm --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'loop-to-llvm{bounds-check=true}' --split-input-file | filecheck %s --check-prefix=CHECKED

// Threaded nests that are equal given their live-ins in order (the same ops
// on the same arguments: a sort's merge passes, results to scratch and
// back) share one chunk, in one kernel or across kernels; LLVM compiles it
// once. A nest with another constant, another op or other live-ins gets a
// chunk of its own.

// CHECK-NOT:   llvm.func internal @twice.chunk4
// CHECK-LABEL: llvm.func internal @twice.chunk3.grain
// CHECK-LABEL: llvm.func internal @twice.chunk2.grain
// CHECK-LABEL: llvm.func internal @twice.chunk1.grain
// CHECK-LABEL: llvm.func internal @twice.chunk0.grain
// CHECK-LABEL: llvm.func internal @twice.chunk0(
// CHECK:         llvm.mlir.constant(2.000000e+00 : f32) : f32
// CHECK:         llvm.fmul

// a to b and b to a: one chunk, called with the buffers swapped.
// CHECK-LABEL: llvm.func internal @twice(
// CHECK-SAME:    %[[A:[0-9]+]]: !llvm.ptr, %[[B:[0-9]+]]: !llvm.ptr)
// CHECK:         llvm.ptrtoint %[[A]]
// CHECK:         llvm.ptrtoint %[[B]]
// CHECK:         llvm.mlir.addressof @twice.chunk0.grain
// CHECK:         llvm.ptrtoint %[[B]]
// CHECK:         llvm.ptrtoint %[[A]]
// CHECK:         llvm.mlir.addressof @twice.chunk0.grain
// CHECK:         llvm.mlir.addressof @twice.chunk1.grain
// CHECK:         llvm.mlir.addressof @twice.chunk2.grain
// CHECK:         llvm.mlir.addressof @twice.chunk3.grain
// CHECK-LABEL: llvm.func internal @again(
// CHECK-NOT:     llvm.func internal @again.chunk
// CHECK:         llvm.mlir.addressof @twice.chunk0.grain
// CHECK-NOT:     llvm.func internal @again.chunk
builtin.module {
  // With bounds checks every nest keeps its own chunk: a check's message
// names its op's source location, which equal nests do not share.
// CHECKED-LABEL: llvm.func internal @twice(
// CHECKED:         llvm.mlir.addressof @twice.chunk0.grain
// CHECKED:         llvm.mlir.addressof @twice.chunk1.grain
// CHECKED:         llvm.mlir.addressof @twice.chunk2.grain
// CHECKED:         llvm.mlir.addressof @twice.chunk3.grain
// CHECKED:         llvm.mlir.addressof @twice.chunk4.grain
// CHECKED-LABEL: llvm.func internal @again(
// CHECKED:         llvm.mlir.addressof @again.chunk0.grain

// a to b; b to a; another constant; another op; one buffer (fewer live-ins)
  loop.kernel @twice(%a: memref<8xf32>, %b: memref<8xf32>) {
    %two = arith.constant 2.0 : f32
    loop.parallel (%i) = (0) to (8) step (1) attributes {threads = 2 : i64} {
      %v = loop.load %a[%i] : memref<8xf32>
      %w = arith.mulf %v, %two : f32
      loop.store %w, %b[%i] : memref<8xf32>
    }
    loop.parallel (%i) = (0) to (8) step (1) attributes {threads = 2 : i64} {
      %v = loop.load %b[%i] : memref<8xf32>
      %w = arith.mulf %v, %two : f32
      loop.store %w, %a[%i] : memref<8xf32>
    }
    %three = arith.constant 3.0 : f32
    loop.parallel (%i) = (0) to (8) step (1) attributes {threads = 2 : i64} {
      %v = loop.load %a[%i] : memref<8xf32>
      %w = arith.mulf %v, %three : f32
      loop.store %w, %b[%i] : memref<8xf32>
    }
    loop.parallel (%i) = (0) to (8) step (1) attributes {threads = 2 : i64} {
      %v = loop.load %a[%i] : memref<8xf32>
      %w = arith.addf %v, %two : f32
      loop.store %w, %b[%i] : memref<8xf32>
    }
    loop.parallel (%i) = (0) to (8) step (1) attributes {threads = 2 : i64} {
      %v = loop.load %a[%i] : memref<8xf32>
      %w = arith.mulf %v, %two : f32
      loop.store %w, %a[%i] : memref<8xf32>
    }
    loop.return
  }
  loop.kernel @again(%p: memref<8xf32>, %q: memref<8xf32>) {
    %two = arith.constant 2.0 : f32
    loop.parallel (%i) = (0) to (8) step (1) attributes {threads = 2 : i64} {
      %v = loop.load %q[%i] : memref<8xf32>
      %w = arith.mulf %v, %two : f32
      loop.store %w, %p[%i] : memref<8xf32>
    }
    loop.return
  }
}

// -----

// Without threads (`parallelize` left out), a nest equal to another of its
// block becomes a chunk over all its iterations, which both call directly;
// a nest with no twin stays inline.
// CHECK-LABEL: llvm.func internal @unthreaded.chunk0(
// CHECK-NOT:   llvm.func internal @unthreaded.chunk1
// CHECK-LABEL: llvm.func internal @unthreaded(
// CHECK-SAME:    %[[A:[0-9]+]]: !llvm.ptr, %[[B:[0-9]+]]: !llvm.ptr)
// CHECK-DAG:     %[[ZERO:[0-9]+]] = llvm.mlir.constant(0) : i64
// CHECK-DAG:     %[[EIGHT:[0-9]+]] = llvm.mlir.constant(8) : i64
// CHECK:         llvm.call @unthreaded.chunk0(%[[A]], %[[B]], %[[ZERO]], %[[EIGHT]])
// CHECK-NEXT:    llvm.call @unthreaded.chunk0(%[[B]], %[[A]], %[[ZERO]], %[[EIGHT]])
// CHECK-NOT:     llvm.call
// CHECK:         llvm.fadd
// CHECK:         llvm.return
// CHECKED-LABEL: llvm.func internal @unthreaded(
// CHECKED-NOT:   llvm.call @unthreaded.chunk
builtin.module {
  loop.kernel @unthreaded(%a: memref<8xf32>, %b: memref<8xf32>) {
    %two = arith.constant 2.0 : f32
    loop.parallel (%i) = (0) to (8) step (1) {
      %v = loop.load %a[%i] : memref<8xf32>
      %w = arith.mulf %v, %two : f32
      loop.store %w, %b[%i] : memref<8xf32>
    }
    loop.parallel (%i) = (0) to (8) step (1) {
      %v = loop.load %b[%i] : memref<8xf32>
      %w = arith.mulf %v, %two : f32
      loop.store %w, %a[%i] : memref<8xf32>
    }
    loop.parallel (%i) = (0) to (8) step (1) {
      %v = loop.load %a[%i] : memref<8xf32>
      %w = arith.addf %v, %two : f32
      loop.store %w, %b[%i] : memref<8xf32>
    }
    loop.return
  }
}
