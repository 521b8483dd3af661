// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s

// A loop.parallel marked {threads = N} becomes a chunk function over
// iterations [begin, end) of its first dimension, a grain entry running
// the chunk on a range with the live-ins from a context, and at its place:
// the live-ins packed into a context struct on the stack (pointers as
// i64), then one call of the thread pool, xlir.parallel_for, which the
// module only declares (the JIT's runtime or the translation to LLVM IR
// defines it: tools/translate/llvmir.mlir). A field after i64 fields only
// is addressed by one getelementptr of i64s, any other by the struct's and
// a retyping one.

// The grain entry: the live-ins from the context in order of first use
// (the dynamic bound %n, then %x, %s, %y), then the chunk on [begin, end).
// Straight code: left unoptimized.
// CHECK-LABEL: llvm.func internal @fill.chunk0.grain
// CHECK-LABEL: llvm.func internal @fill.chunk0(
// CHECK:       llvm.func @xlir.parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
// CHECK-NOT:   pthread
// CHECK-NOT:   sysconf

// CHECK-LABEL: llvm.func internal @scale.chunk0.grain
// CHECK-SAME:    (%[[C:[0-9]+]]: !llvm.ptr, %[[BEGIN:[0-9]+]]: i64, %[[END:[0-9]+]]: i64) attributes {no_inline, optimize_none}
// CHECK-NEXT:    %[[F0:[0-9]+]] = llvm.getelementptr inbounds %[[C]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[NN:[0-9]+]] = llvm.load %[[F0]] : !llvm.ptr -> i64
// CHECK-NEXT:    llvm.getelementptr inbounds %[[C]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[XI:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK-NEXT:    %[[X:[0-9]+]] = llvm.inttoptr %[[XI]] : i64 to !llvm.ptr
// CHECK-NEXT:    %[[F2:[0-9]+]] = llvm.getelementptr inbounds %[[C]][0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, i64, f32, i64)>
// CHECK-NEXT:    %[[F2T:[0-9]+]] = llvm.getelementptr inbounds %[[F2]][0] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[S:[0-9]+]] = llvm.load %[[F2T]] : !llvm.ptr -> f32
// CHECK-NEXT:    llvm.getelementptr inbounds %[[C]][0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, i64, f32, i64)>
// CHECK-NEXT:    llvm.getelementptr inbounds %{{.*}}[0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.load
// CHECK-NEXT:    %[[Y:[0-9]+]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK-NEXT:    llvm.call @scale.chunk0(%[[NN]], %[[X]], %[[S]], %[[Y]], %[[BEGIN]], %[[END]]) : (i64, !llvm.ptr, f32, !llvm.ptr, i64, i64) -> ()
// CHECK-NEXT:    llvm.return

// The chunk: the constant made again, dimension 0 from lower + begin * step
// to lower + end * step (here lower 0 and step 1: from begin to end),
// dimension 1 as it was. No launch of @scale says
// its buffers are distinct, so none is noalias. Never inlined: it is
// optimized as itself, its caller is not.
// CHECK-LABEL: llvm.func internal @scale.chunk0(
// CHECK-SAME:    %[[NN:[0-9]+]]: i64, %[[X:[0-9]+]]: !llvm.ptr, %[[S:[0-9]+]]: f32, %[[Y:[0-9]+]]: !llvm.ptr, %[[BEGIN:[0-9]+]]: i64, %[[END:[0-9]+]]: i64) attributes {no_inline} {
// CHECK:         %[[ONE:[0-9]+]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT:    llvm.br ^[[HEAD:.*]](%[[BEGIN]] : i64)
// CHECK:       ^[[HEAD]](%[[I:[0-9]+]]: i64):
// CHECK-NEXT:    llvm.icmp "slt" %[[I]], %[[END]] : i64
// CHECK:         llvm.icmp "slt" %{{.*}}, %[[NN]] : i64
// CHECK:         llvm.getelementptr inbounds %[[X]]
// CHECK:         llvm.fmul %{{.*}}, %[[S]] : f32
// CHECK-NEXT:    llvm.fadd %{{.*}}, %[[ONE]] : f32
// CHECK:         llvm.getelementptr inbounds %[[Y]]

// The caller: the context on the stack in the entry block, stores into it,
// then the pool over n = 10 iterations on at most 4 threads. No loop, no
// branch: LLVM leaves it unoptimized (it runs once a launch; the chunk,
// with the loops, is optimized).
// CHECK-LABEL: llvm.func internal @scale(
// CHECK-SAME:    %[[XA:[0-9]+]]: !llvm.ptr, %[[YA:[0-9]+]]: !llvm.ptr, %[[SA:[0-9]+]]: f32, %[[NA:[0-9]+]]: i64) attributes {no_inline, optimize_none}
// CHECK-DAG:     %[[FOUR:[0-9]+]] = llvm.mlir.constant(4) : i64
// CHECK-DAG:     %[[TEN:[0-9]+]] = llvm.mlir.constant(10) : i64
// CHECK:         %[[CX:[0-9]+]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, i64, f32, i64)>
// CHECK:         llvm.store %[[NA]], %{{.*}} : i64, !llvm.ptr
// CHECK-NEXT:    llvm.ptrtoint %[[XA]] : !llvm.ptr to i64
// CHECK:         llvm.store %[[SA]], %{{.*}} : f32, !llvm.ptr
// CHECK-NEXT:    llvm.ptrtoint %[[YA]] : !llvm.ptr to i64
// CHECK:         %[[EP:[0-9]+]] = llvm.mlir.addressof @scale.chunk0.grain : !llvm.ptr
// CHECK-NEXT:    llvm.call @xlir.parallel_for(%[[EP]], %[[CX]], %[[TEN]], %[[FOUR]]) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// CHECK-NEXT:    llvm.return

// threads = 0 (one per online CPU, which the pool asks for): the pool is
// called with 0; a dynamic first dimension's trip count is
// max(0, (upper - lower + step - 1) / step).
// Its one buffer is noalias: there is no other to alias it.
// CHECK-LABEL: llvm.func internal @fill(
// CHECK-SAME:    %{{.*}}: !llvm.ptr {llvm.noalias}, %[[UP:[0-9]+]]: i64)
// CHECK:         %[[ZERO:[0-9]+]] = llvm.mlir.constant(0) : i64
// CHECK:         %[[SPAN:[0-9]+]] = llvm.sub %[[UP]], %{{.*}} : i64
// CHECK:         %[[ROUND:[0-9]+]] = llvm.add %[[SPAN]], %{{.*}} : i64
// CHECK-NEXT:    %[[Q:[0-9]+]] = llvm.sdiv %[[ROUND]], %{{.*}} : i64
// CHECK-NEXT:    %[[TRIPS:[0-9]+]] = llvm.call_intrinsic "llvm.smax.i64"(%[[Q]], %[[ZERO]])
// CHECK-NEXT:    llvm.call @xlir.parallel_for(%{{.*}}, %{{.*}}, %[[TRIPS]], %[[ZERO]])
builtin.module {
  loop.kernel @scale(%x: memref<10x16xf32>, %y: memref<10x16xf32>, %s: f32, %n: index) {
    %one = arith.constant 1.0 : f32
    loop.parallel (%i, %j) = (0, 0) to (10, %n) step (1, 1) attributes {threads = 4 : i64} {
      %v = loop.load %x[%i, %j] : memref<10x16xf32>
      %w = arith.mulf %v, %s : f32
      %z = arith.addf %w, %one : f32
      loop.store %z, %y[%i, %j] : memref<10x16xf32>
    }
    loop.return
  }
  loop.kernel @fill(%y: memref<8xf32>, %n: index) {
    %zero = arith.constant 0.0 : f32
    loop.parallel (%i) = (1) to (%n) step (2) attributes {threads = 0 : i64} {
      loop.store %zero, %y[%i] : memref<8xf32>
    }
    loop.return
  }
}
