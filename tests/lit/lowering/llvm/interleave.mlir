// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s
// RUN: xlir-opt %s -p loop-to-llvm | xlir-translate - | filecheck %s --check-prefix=IR

// An `interleave` mark goes on the back edge of the nest's innermost loop
// only, and on the loop of a threaded nest's chunk function.
// CHECK-LABEL: llvm.func internal @threaded.chunk0(
// CHECK:         llvm.br {{.*}} {xlir.interleave_count = 2 : i32}
// CHECK-LABEL: llvm.func internal @rows(
// CHECK:         ^[[OUTER:bb[0-9]+]](%{{.*}}: i64):
// CHECK:         llvm.br {{.*}} {xlir.interleave_count = 4 : i32}
// CHECK:         llvm.br ^[[OUTER]](%{{[0-9]+}} : i64){{$}}
// CHECK:         llvm.br {{.*}} {xlir.interleave_count = 4 : i32}
// CHECK-NOT:     xlir.interleave_count

// The translation makes it a distinct loop id per loop, naming the hint.
// IR:      br label %{{.+}}, !llvm.loop ![[THREADED:[0-9]+]]
// IR:      br label %{{.+}}, !llvm.loop ![[FIRST:[0-9]+]]
// IR:      br label %{{.+}}, !llvm.loop ![[SECOND:[0-9]+]]
// IR-DAG:  ![[THREADED]] = distinct !{![[THREADED]], ![[TWO:[0-9]+]]}
// IR-DAG:  ![[TWO]] = !{!"llvm.loop.interleave.count", i32 2}
// IR-DAG:  ![[FIRST]] = distinct !{![[FIRST]], ![[FOUR:[0-9]+]]}
// IR-DAG:  ![[SECOND]] = distinct !{![[SECOND]], ![[FOUR]]}
// IR-DAG:  ![[FOUR]] = !{!"llvm.loop.interleave.count", i32 4}

module {
  loop.kernel @rows(%x: memref<8x1024xf32>, %y: memref<1024xf32>) {
    loop.parallel (%i, %j) = (0, 0) to (8, 1024) step (1, 1) attributes {interleave = 4 : i64} {
      %v = loop.load %x[%i, %j] : memref<8x1024xf32>
      %w = arith.mulf %v, %v : f32
      loop.store %w, %x[%i, %j] : memref<8x1024xf32>
    }
    loop.parallel (%j) = (0) to (1024) step (1) attributes {interleave = 4 : i64} {
      %v = loop.load %y[%j] : memref<1024xf32>
      %w = arith.addf %v, %v : f32
      loop.store %w, %y[%j] : memref<1024xf32>
    }
    loop.return
  }
  loop.kernel @threaded(%x: memref<1024xf32>) {
    loop.parallel (%i) = (0) to (1024) step (1) attributes {interleave = 2 : i64, threads = 2 : i64} {
      %v = loop.load %x[%i] : memref<1024xf32>
      %w = arith.mulf %v, %v : f32
      loop.store %w, %x[%i] : memref<1024xf32>
    }
    loop.return
  }
}
