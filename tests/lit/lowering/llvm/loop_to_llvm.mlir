// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s
// RUN: xlir-opt %s -p loop-to-llvm,device-to-llvm | filecheck %s --check-prefix=GLOBAL

// A kernel becomes an internal, no_inline llvm.func over pointers (LLVM
// optimizes each kernel once, as itself): each loop a header
// block testing `iv < upper` and a body branching back with `iv + step`;
// loop.for carries its values in block arguments; loads and stores address
// row-major through one getelementptr over the buffer as an array of its
// trailing dimensions (no index arithmetic); constants sit at the top.

// A global stays until device-to-llvm has lowered the host functions that
// take its address (loop.get_global names a loop.global), then becomes an
// internal constant.
// CHECK:       loop.global @table
// GLOBAL:      llvm.mlir.global internal constant @table(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {{{.*}}alignment = 64 : i64} : !llvm.array<2 x f32>
// GLOBAL-NOT:  loop.global
// CHECK-LABEL: llvm.func internal @row_sums(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {no_inline} {
// CHECK-DAG:     %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-DAG:     %[[ROWS:.*]] = llvm.mlir.constant(4) : i64
// CHECK-DAG:     %[[COLS:.*]] = llvm.mlir.constant(8) : i64
// CHECK-DAG:     %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK:         llvm.br ^[[HEAD:bb[0-9]+]](%[[ZERO]] : i64)
// CHECK:       ^[[HEAD]](%[[I:.*]]: i64):
// CHECK-NEXT:    %[[T:.*]] = llvm.icmp "slt" %[[I]], %[[ROWS]] : i64
// CHECK-NEXT:    llvm.cond_br %[[T]], ^{{.*}}, ^{{.*}}
// CHECK:         llvm.br ^[[INNER:bb[0-9]+]](%[[ZERO]], %{{.*}} : i64, f32)
// CHECK:       ^[[INNER]](%[[J:.*]]: i64, %[[ACC:.*]]: f32):
// CHECK:         %[[T2:.*]] = llvm.icmp "slt" %[[J]], %[[COLS]] : i64
// CHECK:         %[[P:.*]] = llvm.getelementptr inbounds %{{.*}}[%[[I]], %[[J]]] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<8 x f32>
// CHECK-NEXT:    %[[X:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK-NEXT:    %[[S:.*]] = llvm.fadd %[[ACC]], %[[X]] : f32
// CHECK-NEXT:    %[[J1:.*]] = llvm.add %[[J]], %[[ONE]] : i64
// CHECK-NEXT:    llvm.br ^[[INNER]](%[[J1]], %[[S]] : i64, f32)
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr

// A dimension of one static iteration (a batch of one, a one-column
// border) is no loop: its index is the lower bound.
// CHECK-LABEL: llvm.func internal @border
// CHECK-DAG:     %[[SEVEN:.*]] = llvm.mlir.constant(7) : i64
// CHECK-DAG:     %[[FIVE:.*]] = llvm.mlir.constant(5) : i64
// CHECK:         llvm.br ^[[LOOP:bb[0-9]+]](
// CHECK:       ^[[LOOP]](%[[J:.*]]: i64):
// CHECK:         llvm.getelementptr inbounds %{{.*}}[%[[SEVEN]], %[[J]], %[[FIVE]]] : (!llvm.ptr, i64, i64, i64) -> !llvm.ptr, !llvm.array<8 x !llvm.array<6 x f32>>
// CHECK:         llvm.br ^[[LOOP]](
// CHECK-NOT:     llvm.br
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func internal @scaled
// CHECK:         llvm.mlir.addressof @table : !llvm.ptr
// CHECK:         llvm.getelementptr inbounds %{{.*}}[256] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:         llvm.call_intrinsic "llvm.maximum.f32"

// A boolean is a byte in memory, loaded and stored as an i8 (LLVM's loop
// vectorizer widens i8 accesses; it would take i1 stores apart lane by lane).
// CHECK-LABEL: llvm.func internal @mask
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK-NEXT:    %[[M:.*]] = llvm.trunc %[[B]] : i8 to i1
// CHECK:         %[[N:.*]] = llvm.xor %[[M]], %{{.*}} : i1
// CHECK:         %[[W:.*]] = llvm.zext %[[N]] : i1 to i8
// CHECK-NEXT:    llvm.store %[[W]], %{{.*}} : i8, !llvm.ptr
// CHECK-NOT:     i1, !llvm.ptr

builtin.module {
  loop.global @table : memref<2xf32> = dense<[1.0, 2.0]>
  loop.kernel @row_sums(%a: memref<4x8xf32>, %out: memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    loop.parallel (%i) = (0) to (4) step (1) {
      %s = loop.for %j = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
        %x = loop.load %a[%i, %j] : memref<4x8xf32>
        %t = arith.addf %acc, %x : f32
        loop.yield %t : f32
      }
      loop.store %s, %out[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @border(%x: memref<8x8x6xf32>) {
    %zero = arith.constant 0.0 : f32
    loop.parallel (%i, %j, %k) = (7, 0, 5) to (8, 8, 6) step (1, 1, 1) {
      loop.store %zero, %x[%i, %j, %k] : memref<8x8x6xf32>
    }
    loop.return
  }
  loop.kernel @scaled(%x: memref<2xf32>, %arena: memref<512xi8>) {
    %t = loop.get_global @table : memref<2xf32>
    %v = loop.view %arena[256] : memref<512xi8> -> memref<2xf32>
    loop.parallel (%i) = (0) to (2) step (1) {
      %a = loop.load %x[%i] : memref<2xf32>
      %b = loop.load %t[%i] : memref<2xf32>
      %m = arith.maximumf %a, %b : f32
      loop.store %m, %v[%i] : memref<2xf32>
    }
    loop.return
  }
  loop.kernel @mask(%x: memref<16xi1>, %y: memref<16xi1>) {
    %true = arith.constant true
    loop.parallel (%i) = (0) to (16) step (1) {
      %m = loop.load %x[%i] : memref<16xi1>
      %n = arith.xori %m, %true : i1
      loop.store %n, %y[%i] : memref<16xi1>
    }
    loop.return
  }
}
