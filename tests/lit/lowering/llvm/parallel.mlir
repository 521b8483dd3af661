// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s
// RUN: xlir-opt %s -p 'loop-to-llvm{thread-helpers=extern}' | filecheck %s --check-prefix=EXTERN
// RUN: not xlir-opt %s -p 'loop-to-llvm{thread-helpers=none}' 2>&1 | filecheck %s --check-prefix=BAD

// A loop.parallel marked {threads = N} becomes a chunk function over
// iterations [begin, end) of its first dimension, a thread entry running
// the chunk on one task's range, and at its place: the live-ins packed into
// a context struct on the stack (pointers as i64), xlir.spawn_chunks
// (emitted once per module), the chunk on the calling thread's share, and
// xlir.join_chunks. A field after i64 fields only is addressed by one
// getelementptr of i64s, any other by the struct's and a retyping one.

// thread-helpers=extern: the helpers are declared, not defined (the CPU JIT
// links them from its runtime); everything else is the same.
// EXTERN-DAG:  llvm.func @xlir.join_chunks(!llvm.ptr, i64)
// EXTERN-DAG:  llvm.func @xlir.spawn_chunks(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64) -> i64
// EXTERN-NOT:  pthread_create
// EXTERN-NOT:  llvm.func internal @xlir.
// EXTERN:      llvm.call @xlir.spawn_chunks
// BAD: error: loop-to-llvm: thread-helpers must be one of inline, extern, got 'none'

// The thread entry: the live-ins from the task's context in order of first
// use (the dynamic bound %n, then %x, %s, %y), then the task's begin and end.
// CHECK:       llvm.func @sysconf(i32) -> i64
// CHECK-LABEL: llvm.func internal @fill.chunk0.thread
// CHECK-LABEL: llvm.func internal @fill.chunk0(
// CHECK:       llvm.func @pthread_join(i64, !llvm.ptr) -> i32

// The helpers: spawn clamps the count to [1, min(n, capacity)], splits [0, n)
// into ranges base or base + 1 long, fills the tasks {ctx, begin, end,
// pthread_t, started}, sets task 0's end to n, then starts the tasks from
// the last down to 1, each only while task 0 ends where it ends (all above
// it started), and where it started, ends task 0 where it begins; join
// joins the tasks whose thread started. Both are left unoptimized (a few
// instructions per launch) and never inlined.
// CHECK-LABEL: llvm.func internal @xlir.join_chunks(%{{.*}}: !llvm.ptr, %{{.*}}: i64) attributes {no_inline, optimize_none}
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK:         llvm.icmp "ne"
// CHECK:         llvm.call @pthread_join(%{{.*}}, %{{.*}}) : (i64, !llvm.ptr) -> i32
// CHECK:       llvm.func @pthread_create(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32

// CHECK-LABEL: llvm.func internal @xlir.spawn_chunks
// CHECK-SAME:    (%[[ENTRY:[0-9]+]]: !llvm.ptr, %[[CTX:[0-9]+]]: !llvm.ptr, %[[TASKS:[0-9]+]]: !llvm.ptr, %[[N:[0-9]+]]: i64, %[[WANT:[0-9]+]]: i64, %[[CAP:[0-9]+]]: i64) -> i64 attributes {no_inline, optimize_none}
// CHECK:         %[[A:[0-9]+]] = llvm.call_intrinsic "llvm.smin.i64"(%[[WANT]], %[[N]])
// CHECK-NEXT:    %[[B:[0-9]+]] = llvm.call_intrinsic "llvm.smin.i64"(%[[A]], %[[CAP]])
// CHECK-NEXT:    %[[T:[0-9]+]] = llvm.call_intrinsic "llvm.smax.i64"(%[[B]], %{{.*}})
// CHECK-NEXT:    %[[BASE:[0-9]+]] = llvm.sdiv %[[N]], %[[T]] : i64
// CHECK-NEXT:    %[[REM:[0-9]+]] = llvm.srem %[[N]], %[[T]] : i64
// CHECK:         llvm.ptrtoint %[[CTX]] : !llvm.ptr to i64
// CHECK:         %[[E0:[0-9]+]] = llvm.getelementptr inbounds %[[TASKS]][2] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.store %[[N]], %[[E0]] : i64, !llvm.ptr
// CHECK:       ^{{.*}}(%[[J:[0-9]+]]: i64):
// CHECK:         %[[K:[0-9]+]] = llvm.sub %[[T]], %[[J]] : i64
// CHECK-NEXT:    %[[TASK:[0-9]+]] = llvm.getelementptr inbounds %[[TASKS]][%[[K]]] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i64, i64, i64, i64, i64)>
// CHECK:         %[[SHARE:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK:         %[[ITS:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK-NEXT:    %[[ABOVE:[0-9]+]] = llvm.icmp "eq" %[[SHARE]], %[[ITS]] : i64
// CHECK-NEXT:    llvm.cond_br %[[ABOVE]]
// CHECK:         llvm.return %[[T]] : i64
// CHECK:         %[[HANDLE:[0-9]+]] = llvm.getelementptr inbounds %[[TASK]][3] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[RC:[0-9]+]] = llvm.call @pthread_create(%[[HANDLE]], %{{.*}}, %[[ENTRY]], %[[TASK]])
// CHECK-NEXT:    %[[OK:[0-9]+]] = llvm.icmp "eq" %[[RC]], %{{.*}} : i32
// CHECK-NEXT:    llvm.cond_br %[[OK]]
// CHECK:         llvm.getelementptr inbounds %[[TASK]][4]
// CHECK:         llvm.store
// CHECK:         llvm.getelementptr inbounds %[[TASK]][1]
// CHECK:         %[[BEGIN:[0-9]+]] = llvm.load
// CHECK-NEXT:    %[[E0U:[0-9]+]] = llvm.getelementptr inbounds %[[TASKS]][2]
// CHECK-NEXT:    llvm.store %[[BEGIN]], %[[E0U]] : i64, !llvm.ptr

// CHECK-LABEL: llvm.func internal @scale.chunk0.thread
// CHECK-SAME:    (%[[TK:[0-9]+]]: !llvm.ptr) -> !llvm.ptr attributes {no_inline, optimize_none}
// CHECK:         %[[CI:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK-NEXT:    %[[C:[0-9]+]] = llvm.inttoptr %[[CI]] : i64 to !llvm.ptr
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
// CHECK-NEXT:    llvm.getelementptr inbounds %[[TK]][1]
// CHECK:         %[[BEGIN:[0-9]+]] = llvm.load
// CHECK-NEXT:    llvm.getelementptr inbounds %[[TK]][2]
// CHECK:         %[[END:[0-9]+]] = llvm.load
// CHECK-NEXT:    llvm.call @scale.chunk0(%[[NN]], %[[X]], %[[S]], %[[Y]], %[[BEGIN]], %[[END]]) : (i64, !llvm.ptr, f32, !llvm.ptr, i64, i64) -> ()
// CHECK:         llvm.mlir.zero : !llvm.ptr

// The chunk: the constant made again, dimension 0 from lower + begin * step
// to lower + end * step (here lower 0 and step 1: from begin to end),
// dimension 1 as it was. No launch of @scale says
// its buffers are distinct, so none is noalias. Never inlined: the calling
// thread and the started ones share one copy.
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

// The caller: context and tasks on the stack in the entry block (4 tasks for
// threads = 4), stores into the context, spawn with n = 10, the chunk on
// [0, end of task 0) with the live-ins as they are, then join. No loop, no
// branch: like the thread entry, LLVM leaves it unoptimized (it runs once a
// launch; the chunk, with the loops, is optimized).
// CHECK-LABEL: llvm.func internal @scale(
// CHECK-SAME:    %[[XA:[0-9]+]]: !llvm.ptr, %[[YA:[0-9]+]]: !llvm.ptr, %[[SA:[0-9]+]]: f32, %[[NA:[0-9]+]]: i64) attributes {no_inline, optimize_none}
// CHECK-DAG:     %[[ZERO:[0-9]+]] = llvm.mlir.constant(0) : i64
// CHECK-DAG:     %[[TEN:[0-9]+]] = llvm.mlir.constant(10) : i64
// CHECK-DAG:     %[[FOUR:[0-9]+]] = llvm.mlir.constant(4) : i64
// CHECK:         %[[TS:[0-9]+]] = llvm.alloca %{{.*}} x !llvm.array<4 x !llvm.struct<(i64, i64, i64, i64, i64)>>
// CHECK-NEXT:    %[[CX:[0-9]+]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, i64, f32, i64)>
// CHECK:         llvm.store %[[NA]], %{{.*}} : i64, !llvm.ptr
// CHECK-NEXT:    llvm.ptrtoint %[[XA]] : !llvm.ptr to i64
// CHECK:         llvm.store %[[SA]], %{{.*}} : f32, !llvm.ptr
// CHECK-NEXT:    llvm.ptrtoint %[[YA]] : !llvm.ptr to i64
// CHECK:         %[[EP:[0-9]+]] = llvm.mlir.addressof @scale.chunk0.thread : !llvm.ptr
// CHECK-NEXT:    %[[CNT:[0-9]+]] = llvm.call @xlir.spawn_chunks(%[[EP]], %[[CX]], %[[TS]], %[[TEN]], %[[FOUR]], %[[FOUR]])
// CHECK-NEXT:    %[[T0E:[0-9]+]] = llvm.getelementptr inbounds %[[TS]][2] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[SHARE:[0-9]+]] = llvm.load %[[T0E]] : !llvm.ptr -> i64
// CHECK-NEXT:    llvm.call @scale.chunk0(%[[NA]], %[[XA]], %[[SA]], %[[YA]], %[[ZERO]], %[[SHARE]]) : (i64, !llvm.ptr, f32, !llvm.ptr, i64, i64) -> ()
// CHECK-NEXT:    llvm.call @xlir.join_chunks(%[[TS]], %[[CNT]]) : (!llvm.ptr, i64) -> ()
// CHECK-NEXT:    llvm.return

// threads = 0: the count is sysconf(_SC_NPROCESSORS_ONLN) at each launch,
// with room for 64 tasks; a dynamic first dimension's trip count is
// max(0, (upper - lower + step - 1) / step).
// Its one buffer is noalias: there is no other to alias it.
// CHECK-LABEL: llvm.func internal @fill(
// CHECK-SAME:    %{{.*}}: !llvm.ptr {llvm.noalias}, %[[UP:[0-9]+]]: i64)
// CHECK:         llvm.alloca %{{.*}} x !llvm.array<64 x !llvm.struct<(i64, i64, i64, i64, i64)>>
// CHECK:         %[[CPUS:[0-9]+]] = llvm.call @sysconf(%{{.*}}) : (i32) -> i64
// CHECK:         %[[SPAN:[0-9]+]] = llvm.sub %[[UP]], %{{.*}} : i64
// CHECK:         %[[ROUND:[0-9]+]] = llvm.add %[[SPAN]], %{{.*}} : i64
// CHECK-NEXT:    %[[Q:[0-9]+]] = llvm.sdiv %[[ROUND]], %{{.*}} : i64
// CHECK-NEXT:    %[[TRIPS:[0-9]+]] = llvm.call_intrinsic "llvm.smax.i64"(%[[Q]], %{{.*}})
// CHECK-NEXT:    llvm.call @xlir.spawn_chunks(%{{.*}}, %{{.*}}, %{{.*}}, %[[TRIPS]], %[[CPUS]], %{{.*}})
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
