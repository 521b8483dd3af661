// RUN: xlir-opt %s --split-input-file -p loop-to-llvm | filecheck %s

// A `loop.call` becomes a call of the routine, declared (the target defines
// or links it): buffers pass as their pointers, `index` as i64, other
// scalars as they are; it returns nothing.
// CHECK:       llvm.func @xlir.sort_keys32(i64, i64, !llvm.ptr, !llvm.ptr, f32)
// CHECK:       llvm.func internal @calls(%[[KEYS:.*]]: !llvm.ptr, %[[ORDER:.*]]: !llvm.ptr, %[[N:.*]]: i64, %[[S:.*]]: f32)
// CHECK:         llvm.call @xlir.sort_keys32(%[[N]], %[[N]], %[[KEYS]], %[[ORDER]], %[[S]]) : (i64, i64, !llvm.ptr, !llvm.ptr, f32) -> ()
loop.kernel @calls(%keys: memref<4x8xi32>, %order: memref<4x8xi32>, %n: index, %s: f32) {
  loop.call @xlir.sort_keys32(%n, %n, %keys, %order, %s) : (index, index, memref<4x8xi32>, memref<4x8xi32>, f32)
  loop.return
}

// -----

// A kernel that only calls is left unoptimized (the work is in the routine).
// CHECK:       llvm.func @routine(!llvm.ptr, !llvm.ptr, i64)
// CHECK-LABEL: llvm.func internal @only_calls(
// CHECK-SAME:    %[[A:[^:]*]]: !llvm.ptr, %[[B:[^:]*]]: !llvm.ptr) attributes {no_inline, optimize_none}
// CHECK:         %[[C8:.*]] = llvm.mlir.constant(8) : i64
// CHECK:         llvm.call @routine(%[[A]], %[[B]], %[[C8]]) : (!llvm.ptr, !llvm.ptr, i64) -> ()
loop.kernel @only_calls(%a: memref<8xf32>, %b: memref<2x4xf32>) {
  %n = arith.constant 8 : index
  loop.call @routine(%a, %b, %n) : (memref<8xf32>, memref<2x4xf32>, index)
  loop.return
}
