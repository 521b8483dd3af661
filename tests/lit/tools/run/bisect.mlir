// xlir-run --bisect: the first kernel whose outputs differ on a target from
// the reference, each kernel run on the reference's inputs, and a reproducer
// that xlir-run --expected replays. The miscompile is planted in one kernel
// through the cpu target's debug variable (targets/cpu/planted_miscompile.py).

// A correct compile: every kernel agrees, unfused ops (the dot) included.
// RUN: rm -rf %t && xlir-run %s --target cpu --random --bisect --reproducer-dir %t | filecheck %s --check-prefix=CLEAN
// CLEAN: program: ok on cpu against interpreter
// CLEAN-NEXT: out0: within
// CLEAN-NEXT: ok [1/4] fusion.1
// CLEAN-NEXT: ok [2/4] fusion.2
// CLEAN-NEXT: ok [3/4] stablehlo.dot_general#3
// CLEAN-NEXT: ok [4/4] fusion.3
// CLEAN-NEXT: no kernel differs: 4 kernel(s) agree on cpu against interpreter
// RUN: not test -e %t

// fusion.2 miscompiled (its subtract made an add): the program differs,
// fusion.1 is right, fusion.2 is the first wrong one, and the kernels that
// read it are not run.
// RUN: env XLIR_CPU_PLANT_MISCOMPILE=fusion.2 not xlir-run %s --target cpu --random --bisect --reproducer-dir %t | filecheck %s --check-prefix=PLANTED
// PLANTED: program: MISMATCH on cpu against interpreter
// PLANTED: ok [1/4] fusion.1
// PLANTED-NEXT: MISMATCH [2/4] fusion.2
// PLANTED-NEXT: first wrong kernel: fusion.2 (loop fusion), kernel 2 of 4, on cpu against interpreter
// PLANTED-NEXT: from: {{.*}}bisect.mlir:75:3, {{.*}}bisect.mlir:76:3, {{.*}}bisect.mlir:77:3
// PLANTED-NEXT: out0: {{[0-9]+}} of 32 elements outside rtol=0.0001 atol=1e-05 (max abs err {{.*}}); first at
// PLANTED-NEXT: reproducer: [[DIR:.*]]/bisect.fusion.2.mlir and [[DIR]]/bisect.fusion.2.npz
// PLANTED-NEXT: xlir-run [[DIR]]/bisect.fusion.2.mlir --target cpu --inputs [[DIR]]/bisect.fusion.2.npz --expected [[DIR]]/bisect.fusion.2.npz
// PLANTED-NOT: fusion.3

// The reproducer is the fused kernel alone, with an @main of its inputs.
// RUN: filecheck %s --check-prefix=REPRO < %t/bisect.fusion.2.mlir
// REPRO: // The first kernel xlir-run --bisect found wrong on cpu (against interpreter): fusion.2 (loop fusion)
// REPRO-NEXT: // from: {{.*}}bisect.mlir:75:3
// REPRO-NEXT: // replay: xlir-run {{.*}}bisect.fusion.2.mlir --target cpu --inputs {{.*}}bisect.fusion.2.npz --expected {{.*}}bisect.fusion.2.npz
// REPRO: func.func @main(%0: tensor<8xf32>, %1: tensor<8x4xf32>) -> tensor<8x4xf32>
// REPRO-NEXT: hlo.fusion kind = loop (%0, %1) {name = "fusion.2"}
// REPRO-NOT: stablehlo.reduce
// REPRO: stablehlo.subtract
// REPRO: stablehlo.exponential
// REPRO-NOT: stablehlo.dot_general
// REPRO: func.return

// Replayed: wrong with the planted miscompile, right without it.
// RUN: env XLIR_CPU_PLANT_MISCOMPILE=fusion.2 not xlir-run %t/bisect.fusion.2.mlir --target cpu --inputs %t/bisect.fusion.2.npz --expected %t/bisect.fusion.2.npz | filecheck %s --check-prefix=REPLAY-BAD
// REPLAY-BAD: out0: MISMATCH
// REPLAY-BAD: FAILED
// RUN: xlir-run %t/bisect.fusion.2.mlir --target cpu --inputs %t/bisect.fusion.2.npz --expected %t/bisect.fusion.2.npz | filecheck %s --check-prefix=REPLAY-GOOD
// REPLAY-GOOD: out0: ok
// REPLAY-GOOD: PASSED

// Errors: the same target twice, an unknown reference, no inputs, flags
// without their mode or with another, a planted kernel with nothing to flip.
// RUN: not xlir-run %s --target cpu --against cpu --random --bisect 2>&1 | filecheck %s --check-prefix=SAME
// SAME: xlir-run: error: --bisect compares two targets; --target and --against are both 'cpu'
// RUN: not xlir-run %s --target cpu --against nosuch --random --bisect 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown target 'nosuch' (known targets: {{.*}}cpu{{.*}})
// RUN: not xlir-run %s --target cpu --bisect 2>&1 | filecheck %s --check-prefix=NO-INPUTS
// NO-INPUTS: xlir-run: error: @main takes 2 argument(s) (arg0: tensor<8x4xf32>, arg1: tensor<4x4xf32>); give --inputs FILE.npz or --random
// RUN: not xlir-run %s --target cpu --random --against interpreter 2>&1 | filecheck %s --check-prefix=NO-BISECT
// NO-BISECT: xlir-run: error: --against goes with --bisect
// RUN: not xlir-run %s --target cpu --random --bisect --profile 2>&1 | filecheck %s --check-prefix=BOTH
// BOTH: xlir-run: error: --bisect and --profile run separately; give one
// RUN: not xlir-run %s --target cpu --random --bisect --expected %t.npz 2>&1 | filecheck %s --check-prefix=EXPECTED
// EXPECTED: xlir-run: error: --bisect compares with --against, and saves a reproducer rather than outputs; drop --expected and --output
// RUN: not xlir-run %s --check --bisect 2>&1 | filecheck %s --check-prefix=CHECK-MODE
// CHECK-MODE: xlir-run: error: --check runs test functions; --bisect and --profile run one
// RUN: env XLIR_CPU_PLANT_MISCOMPILE=fusion.1 not xlir-run %S/Inputs/nothing_to_flip.mlir --target cpu --random --bisect --reproducer-dir %t 2>&1 | filecheck %s --check-prefix=NOTHING
// NOTHING: error: XLIR_CPU_PLANT_MISCOMPILE=fusion.1: the fusion has no op to flip
// NOTHING-NOT: Traceback

func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %max = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
  %b = stablehlo.broadcast_in_dim %max, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
  %d = stablehlo.subtract %x, %b : tensor<8x4xf32>
  %e = stablehlo.exponential %d : tensor<8x4xf32>
  %p = stablehlo.dot_general %e, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %t = stablehlo.transpose %p, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %r = stablehlo.reshape %t : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %q = stablehlo.add %r, %e : tensor<8x4xf32>
  func.return %q : tensor<8x4xf32>
}
