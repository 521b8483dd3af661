// LLVM IR from the llvm dialect: -O0 (the default) translates only; -O3 runs
// LLVM's pipeline for the target.

// REQUIRES: shared
// RUN: xlir-translate %S/Inputs/fma_kernel.mlir | filecheck %s --check-prefix=O0
// O0: target datalayout = "{{.+}}"
// O0: define internal void @fusion(ptr %{{[^,]+}}, ptr %{{[^,]+}}, ptr %{{[^,]+}}, ptr %{{[^,]+}})
// O0: call float @llvm.fma.f32(
// O0: define void @main(ptr %{{[^,]+}}, ptr %{{[^,]+}}, ptr %{{[^,]+}})
// O0: call void @fusion(
// O0: declare float @llvm.fma.f32(float, float, float)

// stdin, and the triple's name and data layout for another target.
// RUN: xlir-translate - --triple aarch64-linux-gnu < %S/Inputs/fma_kernel.mlir | filecheck %s --check-prefix=AARCH64
// AARCH64: target datalayout = "e-m:e-{{.+}}"
// AARCH64: target triple = "aarch64{{.*}}-linux-gnu"

// -O3 inlines the internal kernel into the entry and vectorizes its loop.
// RUN: xlir-translate %S/Inputs/fma_kernel.mlir -O3 --triple aarch64-linux-gnu | filecheck %s --check-prefix=O3
// O3-NOT: define internal
// O3: define void @main(
// O3-NOT: call void @fusion
// O3: call <4 x float> @llvm.fma.v4f32(
// O3-NOT: define internal

// A whole program down the CPU path: kernels are internal and `noinline`
// (LLVM optimizes each once, as itself), the entry is
// `void main(void **args, void **results, void *temp)`.
// RUN: xlir-opt %corpus/small/softmax_rows.mlir -p hlo-opt,hlo-to-loop,expand-math,loop-to-llvm,device-to-llvm | xlir-translate - | filecheck %s --check-prefix=PROGRAM
// PROGRAM: define internal void @fusion_1({{.*}}) #[[KERNEL:[0-9]+]] {
// PROGRAM: define internal void @fusion_2({{.*}}) #[[KERNEL]] {
// PROGRAM: define internal void @fusion_3({{.*}}) #[[KERNEL]] {
// PROGRAM: define void @main(ptr %{{[^,]+}}, ptr %{{[^,]+}}, ptr %{{[^,]+}})
// PROGRAM-NEXT: getelementptr inbounds ptr, ptr %{{.+}}, i32 0
// PROGRAM: call void @fusion_1(
// PROGRAM: call void @fusion_2(
// PROGRAM: call void @fusion_3(
// PROGRAM: ret void
// PROGRAM: attributes #[[KERNEL]] = { noinline }

// The attributes xDSL's own translation drops are carried over: a threaded
// kernel's body is `noinline` (optimized as itself), its grain entry
// `noinline optnone`. The module calls the thread pool, so the translation
// defines it there, internal, with its worker and globals (the object
// needs only the C library): mutex, condition variables and state,
// zero-initialized.
// RUN: xlir-opt %S/../../lowering/llvm/parallel.mlir -p loop-to-llvm | xlir-translate - | filecheck %s --check-prefix=THREADS
// THREADS-DAG: define internal void @fill.chunk0({{.*}}) #[[BODY:[0-9]+]] {
// THREADS-DAG: define internal void @fill.chunk0.grain({{.*}}) #[[ENTRY:[0-9]+]] {
// THREADS-DAG: define internal void @xlir.parallel_for(ptr {{.*}}, ptr {{.*}}, i64 {{.*}}, i64 {{.*}}) #[[BODY]] {
// THREADS-DAG: define internal ptr @xlir.pool.worker(
// THREADS-DAG: @xlir.pool.mutex = internal global [64 x i8] zeroinitializer, align 64
// THREADS-DAG: @xlir.pool.state = internal global { {{.*}} } zeroinitializer, align 64
// THREADS-DAG: call i32 @pthread_create(
// THREADS-DAG: call i32 @pthread_cond_wait(
// THREADS-DAG: attributes #[[BODY]] = { noinline }
// THREADS-DAG: attributes #[[ENTRY]] = { noinline optnone }

// At -O3 each chunk stays one function, called by its grain entry; the
// kernel, a function of its own that the entry calls, hands the grain
// entry to the pool.
// RUN: xlir-opt %corpus/small/softmax_rows.mlir -p "hlo-opt,hlo-to-loop,expand-math,parallelize{min_work=1},loop-to-llvm,device-to-llvm" | xlir-translate - -O3 | filecheck %s --check-prefix=THREADS-O3
// THREADS-O3: define internal {{.*}}@fusion_1.chunk0.grain(
// THREADS-O3-NOT: define
// THREADS-O3: call {{.*}}void @fusion_1.chunk0(
// THREADS-O3: define internal {{.*}}void @fusion_1.chunk0(
// THREADS-O3: define internal {{.*}}void @fusion_1(
// THREADS-O3-NOT: define
// THREADS-O3: call {{.*}}void @xlir.parallel_for(ptr @fusion_1.chunk0.grain,
// THREADS-O3: define void @main(
// THREADS-O3-NOT: define
// THREADS-O3: call {{.*}}void @fusion_1(
