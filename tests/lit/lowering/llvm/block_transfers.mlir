// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s

// A nest that only copies or fills writes runs of elements contiguous in
// both buffers: its innermost dimension, and the ones outside it while the
// inner ones span whole rows. Each run is one llvm.memcpy (distinct noalias
// buffers), llvm.memmove (buffers that may overlap) or llvm.memset (a
// value whose bytes are all equal); the loops left are those outside the
// runs.

// A threaded fill of whole rows: the chunk fills its share of rows one row
// (64 bytes) at a time, never the whole buffer from its first row (the
// chunk functions come first, the last made first).
// CHECK-LABEL: llvm.func internal @threaded_fill.chunk0(
// CHECK-DAG:     %[[ROW_BYTES:.*]] = llvm.mlir.constant(64) : i64
// CHECK:         llvm.call_intrinsic "llvm.memset.p0.i64"(%{{.*}}, %{{.*}}, %[[ROW_BYTES]], %{{.*}})
// CHECK:         llvm.return

// A threaded copy: the chunk loops over its share of rows, one call each.
// CHECK-LABEL: llvm.func internal @threaded.chunk0(
// CHECK:         llvm.call_intrinsic "llvm.memcpy.p0.p0.i64"
// CHECK-NOT:     llvm.store
// CHECK:         llvm.return

// A pad: two whole rows of zeros (one memset of 2 x 8 floats), a border
// column of two floats per row, and the interior one row at a time from its
// offset in the source (the rows do not span the destination's width).
// CHECK-LABEL: llvm.func internal @pad(
// CHECK-DAG:     %[[ROWS64:.*]] = llvm.mlir.constant(64) : i64
// CHECK-DAG:     %[[BORDER:.*]] = llvm.mlir.constant(8) : i64
// CHECK-DAG:     %[[ROW:.*]] = llvm.mlir.constant(24) : i64
// CHECK-DAG:     %[[ZERO8:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK-DAG:     %[[NO:.*]] = llvm.mlir.constant(false) : i1
// CHECK:         llvm.call_intrinsic "llvm.memset.p0.i64"(%{{.*}}, %[[ZERO8]], %[[ROWS64]], %[[NO]]) : (!llvm.ptr, i8, i64, i1) -> ()
// CHECK-NEXT:    llvm.br ^[[HEAD:bb[0-9]+]](
// CHECK:       ^[[HEAD]](%[[I:.*]]: i64):
// CHECK:         llvm.getelementptr inbounds %{{.*}}[%[[I]], %{{.*}}] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<8 x f32>
// CHECK-NEXT:    llvm.call_intrinsic "llvm.memset.p0.i64"(%{{.*}}, %[[ZERO8]], %[[BORDER]], %[[NO]])
// CHECK:         %[[SRC_ROW:.*]] = llvm.sub %{{.*}}, %{{.*}} : i64
// CHECK:         %[[DST:.*]] = llvm.getelementptr inbounds %{{.*}}[%{{.*}}, %{{.*}}] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<8 x f32>
// CHECK-NEXT:    %[[SRC:.*]] = llvm.getelementptr inbounds %{{.*}}[%[[SRC_ROW]], %{{.*}}] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<6 x f32>
// CHECK-NEXT:    llvm.call_intrinsic "llvm.memcpy.p0.p0.i64"(%[[DST]], %[[SRC]], %[[ROW]], %[[NO]]) : (!llvm.ptr, !llvm.ptr, i64, i1) -> ()
// CHECK-NOT:     llvm.store
// CHECK:         llvm.return

// Whole rows of both buffers: the two dimensions are one run.
// CHECK-LABEL: llvm.func internal @rows(
// CHECK:         llvm.call_intrinsic "llvm.memcpy.p0.p0.i64"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT:     llvm.br
// CHECK:         llvm.return

// A buffer and a view that may overlap it: memmove, as the nest means.
// CHECK-LABEL: llvm.func internal @shift(
// CHECK:         llvm.call_intrinsic "llvm.memmove.p0.p0.i64"

// Stay loops: a fill of 1.0 (its bytes differ), a transpose, a strided
// read, a vector store, a converted copy.
// CHECK-LABEL: llvm.func internal @not_plain(
// CHECK-NOT:     llvm.call_intrinsic "llvm.mem
// CHECK-COUNT-5: llvm.store
// CHECK-NOT:     llvm.call_intrinsic "llvm.mem
// CHECK:         llvm.return
builtin.module {
  loop.kernel @pad(%src: memref<4x6xf32>, %dst: memref<6x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1 : index
    loop.parallel (%i, %j) = (0, 0) to (2, 8) step (1, 1) {
      loop.store %zero, %dst[%i, %j] : memref<6x8xf32>
    }
    loop.parallel (%i, %j) = (2, 0) to (6, 2) step (1, 1) {
      loop.store %zero, %dst[%i, %j] : memref<6x8xf32>
    }
    loop.parallel (%i, %j) = (2, 2) to (6, 8) step (1, 1) {
      %two = arith.constant 2 : index
      %si = arith.subi %i, %two : index
      %sj = arith.subi %j, %two : index
      %x = loop.load %src[%si, %sj] : memref<4x6xf32>
      loop.store %x, %dst[%i, %j] : memref<6x8xf32>
    }
    loop.return
  }
  loop.kernel @rows(%src: memref<4x6xf32>, %dst: memref<3x6xf32>) {
    loop.parallel (%i, %j) = (0, 0) to (3, 6) step (1, 1) {
      %one = arith.constant 1 : index
      %si = arith.addi %i, %one : index
      %x = loop.load %src[%si, %j] : memref<4x6xf32>
      loop.store %x, %dst[%i, %j] : memref<3x6xf32>
    }
    loop.return
  }
  loop.kernel @shift(%a: memref<8xf32>, %b: memref<8xf32>) {
    loop.parallel (%i) = (0) to (6) step (1) {
      %x = loop.load %a[%i] : memref<8xf32>
      loop.store %x, %b[%i] : memref<8xf32>
    }
    loop.return
  }
  loop.kernel @threaded(%src: memref<64x32xf32>, %dst: memref<64x16xf32>) {
    loop.parallel (%i, %j) = (0, 0) to (64, 16) step (1, 1) attributes {threads = 2 : i64} {
      %x = loop.load %src[%i, %j] : memref<64x32xf32>
      loop.store %x, %dst[%i, %j] : memref<64x16xf32>
    }
    loop.return
  }
  loop.kernel @threaded_fill(%dst: memref<64x16xf32>) {
    %zero = arith.constant 0.0 : f32
    loop.parallel (%i, %j) = (0, 0) to (64, 16) step (1, 1) attributes {threads = 2 : i64} {
      loop.store %zero, %dst[%i, %j] : memref<64x16xf32>
    }
    loop.return
  }
  loop.kernel @not_plain(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<8xf32>, %d: memref<16xi32>, %e: memref<8xf32>) {
    %one = arith.constant 1.0 : f32
    loop.parallel (%i) = (0) to (4) step (1) {
      loop.store %one, %c[%i] : memref<8xf32>
    }
    loop.parallel (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
      %x = loop.load %a[%j, %i] : memref<4x4xf32>
      loop.store %x, %b[%i, %j] : memref<4x4xf32>
    }
    loop.parallel (%i) = (0) to (4) step (1) {
      %two = arith.constant 2 : index
      %k = arith.muli %i, %two : index
      %x = loop.load %c[%k] : memref<8xf32>
      loop.store %x, %a[%i, %i] : memref<4x4xf32>
    }
    loop.parallel (%i) = (0) to (8) step (4) {
      %v = loop.load %c[%i] : memref<8xf32>, vector<4xf32>
      loop.store %v, %e[%i] : memref<8xf32>, vector<4xf32>
    }
    loop.parallel (%i) = (0) to (8) step (1) {
      %x = loop.load %c[%i] : memref<8xf32>
      %y = arith.bitcast %x : f32 to i32
      loop.store %y, %d[%i] : memref<16xi32>
    }
    loop.return
  }
  func.func @main(%p: memref<4x6xf32>, %q: memref<64x32xf32>) -> (memref<6x8xf32>, memref<3x6xf32>, memref<64x16xf32>) {
    %stream = device.default_stream
    %arena = device.alloc : memref<64xi8>
    %padded = device.alloc : memref<6x8xf32>
    %rows = device.alloc : memref<3x6xf32>
    %out = device.alloc : memref<64x16xf32>
    %v0 = loop.view %arena[0] : memref<64xi8> -> memref<8xf32>
    %v8 = loop.view %arena[8] : memref<64xi8> -> memref<8xf32>
    device.launch @pad(%p, %padded) on %stream : memref<4x6xf32>, memref<6x8xf32>
    device.launch @rows(%p, %rows) on %stream : memref<4x6xf32>, memref<3x6xf32>
    device.launch @shift(%v8, %v0) on %stream : memref<8xf32>, memref<8xf32>
    device.launch @threaded(%q, %out) on %stream : memref<64x32xf32>, memref<64x16xf32>
    device.synchronize %stream
    device.free %arena : memref<64xi8>
    func.return %padded, %rows, %out : memref<6x8xf32>, memref<3x6xf32>, memref<64x16xf32>
  }
}
