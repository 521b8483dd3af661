// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s

// `loop.call` calls a routine the target provides, declared external: its
// buffers as pointers, its indices as i64. A kernel that only calls is
// left unoptimized (the work is in the routine).
// CHECK:       llvm.func @routine(!llvm.ptr, !llvm.ptr, i64)
// CHECK-LABEL: llvm.func internal @calls(
// CHECK-SAME:    %[[A:[^:]*]]: !llvm.ptr, %[[B:[^:]*]]: !llvm.ptr) attributes {no_inline, optimize_none}
// CHECK:         %[[N:.*]] = llvm.mlir.constant(8) : i64
// CHECK:         llvm.call @routine(%[[A]], %[[B]], %[[N]]) : (!llvm.ptr, !llvm.ptr, i64) -> ()
loop.kernel @calls(%a: memref<8xf32>, %b: memref<2x4xf32>) {
  %n = arith.constant 8 : index
  loop.call @routine(%a, %b, %n) : memref<8xf32>, memref<2x4xf32>, index
  loop.return
}
