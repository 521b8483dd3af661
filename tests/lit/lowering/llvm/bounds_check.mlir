// RUN: xlir-opt %s -p 'loop-to-llvm{bounds-check=true}' | filecheck %s
// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s --check-prefix=PLAIN

// With bounds-check=true every load, store and block transfer first compares
// the row-major element offset it reaches with its buffer's size (unsigned:
// a negative offset is out too), and out of bounds calls
// xlir.bounds_error(message, offset, size), which does not return. The
// message names the access, the function, its location and the buffer.

// CHECK-DAG: llvm.mlir.global internal constant @[[SCALE_LOAD:xlir.string.[0-9a-f]+]]("loop.load in @scale ({{.*}}bounds_check.mlir:{{[0-9]+}}:{{[0-9]+}}), buffer %a : memref<4x8xf32>\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[SCALE_STORE:xlir.string.[0-9a-f]+]]("loop.store in @scale ({{.*}}), buffer %b : memref<4x8xf32>\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[VECTOR_LOAD:xlir.string.[0-9a-f]+]]("loop.load of 4 elements in @vector ({{.*}}), buffer %a : memref<16xf32>\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[FILL:xlir.string.[0-9a-f]+]]("loop.store of 16 elements in @fill.chunk0 ({{.*}}), buffer %a : memref<64x16xf32>\00")

// A threaded fill: each row's memset (16 elements) is checked in the chunk.
// CHECK-LABEL: llvm.func internal @fill.chunk0(
// CHECK-DAG:     %[[FILL_SIZE:.*]] = llvm.mlir.constant(1024) : i64
// CHECK-DAG:     %[[FILL_LAST:.*]] = llvm.mlir.constant(1009) : i64
// CHECK-DAG:     %[[ROW:.*]] = llvm.mlir.constant(16) : i64
// CHECK:         %[[START:.*]] = llvm.mul %{{.*}}, %[[ROW]] : i64
// CHECK-NEXT:    %[[IN:.*]] = llvm.icmp "ult" %[[START]], %[[FILL_LAST]] : i64
// CHECK-NEXT:    llvm.cond_br %[[IN]], ^[[GO:bb[0-9]+]], ^[[OUT:bb[0-9]+]]
// CHECK:       ^[[OUT]]:
// CHECK-NEXT:    %[[MESSAGE:.*]] = llvm.mlir.addressof @[[FILL]] : !llvm.ptr
// CHECK-NEXT:    llvm.call @xlir.bounds_error(%[[MESSAGE]], %[[START]], %[[FILL_SIZE]])
// CHECK-NEXT:    llvm.unreachable
// CHECK:       ^[[GO]]:
// CHECK:         llvm.call_intrinsic "llvm.memset.p0.i64"
// CHECK:       llvm.func @xlir.bounds_error(!llvm.ptr, i64, i64)

// CHECK-LABEL: llvm.func internal @scale(
// CHECK-DAG:     %[[SIZE:.*]] = llvm.mlir.constant(32) : i64
// CHECK-DAG:     %[[COLUMNS:.*]] = llvm.mlir.constant(8) : i64
// CHECK:         %[[ROW_START:.*]] = llvm.mul %[[I:.*]], %[[COLUMNS]] : i64
// CHECK-NEXT:    %[[OFFSET:.*]] = llvm.add %[[ROW_START]], %[[J:.*]] : i64
// CHECK-NEXT:    %[[IN:.*]] = llvm.icmp "ult" %[[OFFSET]], %[[SIZE]] : i64
// CHECK-NEXT:    llvm.cond_br %[[IN]], ^[[LOAD:bb[0-9]+]], ^[[OUT:bb[0-9]+]]
// CHECK:       ^[[OUT]]:
// CHECK-NEXT:    %[[MESSAGE:.*]] = llvm.mlir.addressof @[[SCALE_LOAD]] : !llvm.ptr
// CHECK-NEXT:    llvm.call @xlir.bounds_error(%[[MESSAGE]], %[[OFFSET]], %[[SIZE]])
// CHECK-NEXT:    llvm.unreachable
// CHECK:       ^[[LOAD]]:
// CHECK-NEXT:    llvm.getelementptr inbounds %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:    llvm.load
// CHECK:         llvm.icmp "ult"
// CHECK:         llvm.mlir.addressof @[[SCALE_STORE]]
// CHECK:         llvm.store

// A vector of 4 must start at most 12 elements in: offset < 13.
// CHECK-LABEL: llvm.func internal @vector(
// CHECK-DAG:     %[[LAST:.*]] = llvm.mlir.constant(13) : i64
// CHECK:         llvm.icmp "ult" %{{.*}}, %[[LAST]] : i64
// CHECK:         llvm.mlir.addressof @[[VECTOR_LOAD]]
// CHECK:         llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>

// A vector wider than its buffer: no offset is inside (ult 0).
// CHECK-LABEL: llvm.func internal @too_wide(
// CHECK-DAG:     %[[NONE:.*]] = llvm.mlir.constant(0) : i64
// CHECK:         llvm.icmp "ult" %{{.*}}, %[[NONE]] : i64
// CHECK:         llvm.call @xlir.bounds_error

// A rank-0 buffer: offset 0 of 1.
// CHECK-LABEL: llvm.func internal @scalar(
// CHECK-COUNT-2: llvm.call @xlir.bounds_error

// Without the option: no check, no message, no handler.
// PLAIN-NOT: xlir.string
// PLAIN-NOT: llvm.icmp "ult"
// PLAIN-NOT: xlir.bounds_error
// PLAIN-NOT: llvm.unreachable

builtin.module {
  loop.kernel @scale(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
    %two = arith.constant 2.0 : f32
    loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
      %x = loop.load %a[%i, %j] : memref<4x8xf32>
      %y = arith.mulf %x, %two : f32
      loop.store %y, %b[%i, %j] : memref<4x8xf32>
    }
    loop.return
  }
  loop.kernel @vector(%a: memref<16xf32>, %b: memref<16xf32>) {
    loop.parallel (%i) = (0) to (16) step (4) {
      %v = loop.load %a[%i] : memref<16xf32>, vector<4xf32>
      loop.store %v, %b[%i] : memref<16xf32>, vector<4xf32>
    }
    loop.return
  }
  loop.kernel @fill(%a: memref<64x16xf32>) {
    %zero = arith.constant 0.0 : f32
    loop.parallel (%i, %j) = (0, 0) to (64, 16) step (1, 1) attributes {threads = 2 : i64} {
      loop.store %zero, %a[%i, %j] : memref<64x16xf32>
    }
    loop.return
  }
  loop.kernel @too_wide(%a: memref<8xf32>, %b: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %v = loop.load %a[%c0] : memref<8xf32>, vector<16xf32>
    loop.store %v, %b[%c0] : memref<16xf32>, vector<16xf32>
    loop.return
  }
  loop.kernel @scalar(%a: memref<f32>, %b: memref<f32>) {
    %x = loop.load %a[] : memref<f32>
    loop.store %x, %b[] : memref<f32>
    loop.return
  }
}
