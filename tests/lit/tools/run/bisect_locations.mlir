// xlir-run --bisect on a program JAX located: the first wrong kernel's
// report and reproducer name the user's Python lines beside the text's.

// RUN: rm -rf %t && env XLIR_CPU_PLANT_MISCOMPILE=fusion.1 not xlir-run %s --target cpu --random --bisect --reproducer-dir %t | filecheck %s
// CHECK: first wrong kernel: fusion.1 (loop fusion), kernel 1 of 1, on cpu against interpreter
// CHECK-NEXT: from: {{.*}}bisect_locations.mlir:12:5 [model.py:7:11 (jit(f)/mul)], {{.*}}bisect_locations.mlir:13:5 [model.py:8:11 (jit(f)/add)]
// RUN: filecheck %s --check-prefix=REPRODUCER --input-file=%t/bisect_locations.fusion.1.mlir
// REPRODUCER: // from: {{.*}}bisect_locations.mlir:12:5 [model.py:7:11 (jit(f)/mul)], {{.*}}bisect_locations.mlir:13:5 [model.py:8:11 (jit(f)/add)]

module @jit_f {
  func.func public @main(%arg0: tensor<8xf32> loc("x"), %arg1: tensor<8xf32> loc("y")) -> tensor<8xf32> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8xf32> loc(#loc4)
    %1 = stablehlo.add %0, %arg1 : tensor<8xf32> loc(#loc6)
    return %1 : tensor<8xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("model.py":7:11 to :16)
#loc3 = loc("f"(#loc2))
#loc4 = loc("jit(f)/mul"(#loc3))
#loc5 = loc("model.py":8:11 to :20)
#loc6 = loc(callsite("jit(f)/add"(#loc5) at "main"("run.py":3:0)))
