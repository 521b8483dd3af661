// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s

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
