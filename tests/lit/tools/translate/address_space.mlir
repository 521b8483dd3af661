// RUN: xlir-translate %s | filecheck %s

// An address computed from a pointer in another address space (a GPU's
// global memory) stays in that space (xDSL 0.74 cast the base to space 0,
// which LLVM rejects: lowering/llvm/xdsl_translation.py).

// CHECK:       define void @scale(ptr addrspace(1) %[[P:[^,]*]], i64 %[[I:[^)]*]])
// CHECK:         %[[Q:[^ ]*]] = getelementptr inbounds float, ptr addrspace(1) %[[P]], i64 %[[I]]
// CHECK:         load float, ptr addrspace(1) %[[Q]]
// CHECK:         store float %{{.*}}, ptr addrspace(1) %[[Q]]
builtin.module {
  llvm.func @scale(%p: !llvm.ptr<1>, %i: i64) {
    %q = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %v = llvm.load %q : !llvm.ptr<1> -> f32
    %w = llvm.fadd %v, %v : f32
    llvm.store %w, %q : f32, !llvm.ptr<1>
    llvm.return
  }
}
