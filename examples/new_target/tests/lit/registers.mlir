// RUN: xlir-opt -p convert-loop-to-qdsp,qdsp-allocate-registers %s | filecheck %s

// xDSL's block-naive allocator names a register for every value: the loop
// carries its sum in one register (operand, block argument and result
// alike), which takes the new sum at `endloop`, and values live across the
// loop keep theirs.
loop.kernel @row_sums(%x: memref<4x3xf32>, %sum: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (4) step (1) {
    %t = loop.for %j = 0 to 3 step 1 iter_args(%a = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<4x3xf32>
      %b = arith.addf %a, %v : f32
      loop.yield %b : f32
    }
    loop.store %t, %sum[%i] : memref<4xf32>
  }
  loop.return
}

// CHECK:      qdsp.lf 0.000000e+00 : !qdsp.reg<[[ZERO:r[0-9]+]]>
// CHECK:      qdsp.mv %{{.*}} : (!qdsp.reg<[[ZERO]]>) -> !qdsp.reg<[[ACC:r[0-9]+]]>
// CHECK-NEXT: %{{.*}} = "qdsp.loop"(%{{.*}}) <{start = 0 : i32, step = 1 : i32, count = 3 : i32, lanes = 1 : i32}> ({
// CHECK-NEXT: ^{{.*}}(%{{.*}}: !qdsp.reg<[[J:r[0-9]+]]>, %{{.*}}: !qdsp.reg<[[ACC]]>):
// CHECK:        qdsp.fadd %{{.*}}, %{{.*}} : (!qdsp.reg<[[ACC]]>, !qdsp.reg<{{r[0-9]+}}>) -> !qdsp.reg<[[SUM:r[0-9]+]]>
// CHECK-NEXT:   qdsp.endloop %{{.*}} : !qdsp.reg<[[SUM]]>
// CHECK-NEXT: }) : (!qdsp.reg<[[ACC]]>) -> !qdsp.reg<[[ACC]]>
