// RUN: xlir-opt -p convert-loop-to-qdsp %s | filecheck %s

// An elementwise op, a broadcast (the row's scale ignores the column) and a
// reduction (a sum over the columns, carried in a register).
loop.kernel @scale_rows(%x: memref<8x6xf32>, %s: memref<8xf32>, %y: memref<8x6xf32>, %sum: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (8, 6) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<8x6xf32>
    %k = loop.load %s[%i] : memref<8xf32>
    %w = arith.mulf %v, %k : f32
    loop.store %w, %y[%i, %j] : memref<8x6xf32>
  }
  loop.parallel (%i) = (0) to (8) step (1) {
    %t = loop.for %j = 0 to 6 step 1 iter_args(%a = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<8x6xf32>
      %b = arith.addf %a, %v : f32
      loop.yield %b : f32
    }
    loop.store %t, %sum[%i] : memref<8xf32>
  }
  loop.return
}

// CHECK:      qdsp.kernel "scale_rows" {
// CHECK-NEXT: ^{{.*}}(%{{.*}}: memref<8x6xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<8x6xf32>, %{{.*}}: memref<8xf32>):
// CHECK-NEXT:   %[[ZERO:.*]] = qdsp.lf 0.000000e+00 : !qdsp.reg
// The first parallel loop: a hardware loop over the rows, its counter i...
// CHECK-NEXT:   "qdsp.loop"() <{start = 0 : i32, step = 1 : i32, count = 8 : i32, lanes = 1 : i32}>
// CHECK-NEXT:   ^{{.*}}(%[[I:.*]]: !qdsp.reg):
// ... and one over the 6 columns in four lanes, each lane its own j.
// CHECK-NEXT:     "qdsp.loop"() <{start = 0 : i32, step = 1 : i32, count = 6 : i32, lanes = 4 : i32}>
// CHECK-NEXT:     ^{{.*}}(%[[J:.*]]: !qdsp.reg):
// x[i, j]: word i * 6 + j of buffer 0.
// CHECK-NEXT:       %[[SIX:.*]] = qdsp.li 6
// CHECK-NEXT:       %[[ROW:.*]] = qdsp.imul %[[I]], %[[SIX]]
// CHECK-NEXT:       %[[A:.*]] = qdsp.iadd %[[ROW]], %[[J]]
// CHECK-NEXT:       %[[V:.*]] = qdsp.ld %[[A]], 0 : (!qdsp.reg) -> !qdsp.reg
// The broadcast: s[i], buffer 1 at the row's index only.
// CHECK-NEXT:       %[[K:.*]] = qdsp.ld %[[I]], 1 : (!qdsp.reg) -> !qdsp.reg
// CHECK-NEXT:       %[[W:.*]] = qdsp.fmul %[[V]], %[[K]]
// CHECK:            qdsp.st %[[W]], %{{.*}}, 2 : !qdsp.reg, !qdsp.reg
// CHECK-NEXT:       qdsp.endloop
// CHECK:          qdsp.endloop
// The reduction: the rows in four lanes, each lane's sum carried in a
// register through a one-lane loop over the columns.
// CHECK:        "qdsp.loop"() <{start = 0 : i32, step = 1 : i32, count = 8 : i32, lanes = 4 : i32}>
// CHECK:          %[[INIT:.*]] = qdsp.mv %[[ZERO]]
// CHECK-NEXT:     %[[SUM:.*]] = "qdsp.loop"(%[[INIT]]) <{start = 0 : i32, step = 1 : i32, count = 6 : i32, lanes = 1 : i32}> ({
// CHECK-NEXT:     ^{{.*}}(%{{.*}}: !qdsp.reg, %[[ACC:.*]]: !qdsp.reg):
// CHECK:            %[[B:.*]] = qdsp.fadd %[[ACC]], %{{.*}}
// CHECK-NEXT:       qdsp.endloop %[[B]] : !qdsp.reg
// CHECK:          qdsp.st %[[SUM]], %{{.*}}, 3
