// RUN: xlir-opt %s -p cse,dce --print-ir-after-all | filecheck %s --check-prefix=AFTER
// AFTER: // -----// IR Dump After cse //----- //
// AFTER: stablehlo.add
// AFTER: // -----// IR Dump After dce //----- //

// Only the named passes are dumped; the final output follows.
// RUN: xlir-opt %s -p cse,dce,cse --print-ir-after=cse | filecheck %s --check-prefix=NAMED
// NAMED: // -----// IR Dump After cse //----- //
// NAMED-NOT: IR Dump After dce
// NAMED: // -----// IR Dump After cse //----- //
// NAMED-NOT: IR Dump After
// NAMED: func.func @f

// RUN: rm -rf %t && xlir-opt %s -p cse,dce --dump-dir=%t -o /dev/null && ls %t | filecheck %s --check-prefix=DIR
// DIR: 00-input.mlir
// DIR-NEXT: 01-cse.mlir
// DIR-NEXT: 02-dce.mlir

// RUN: xlir-opt %s -p cse,dce --pass-timing -o /dev/null 2>&1 | filecheck %s --check-prefix=TIMING
// TIMING: pass timing report
// TIMING: {{[0-9.]+}} {{.*}}% cse
// TIMING: {{[0-9.]+}} {{.*}}% dce
// TIMING: total

// Ops are counted with nested ops, the module excluded: 5 before cse, 4 after.
// RUN: xlir-opt %s -p cse,dce --pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS
// STATS: pass statistics report
// STATS: ops before   ops after     fusions  temp bytes  pass
// STATS-NEXT: 5           4           0           -  cse
// STATS-NEXT: 4           4           0           -  dce

// RUN: xlir-opt %s -p cse | filecheck %s --check-prefix=CSE
// CSE-LABEL: func.func @f
// CSE: %[[A:.*]] = stablehlo.add %arg0, %arg0
// CSE-NOT: stablehlo.add
// CSE: stablehlo.multiply %[[A]], %[[A]]

func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  %1 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// After hlo-opt the add and multiply are one fusion writing the output: no temp.
// RUN: xlir-opt %s -p hlo-opt --pass-statistics --buffer-report -o /dev/null 2>&1 | filecheck %s --check-prefix=PLAN
// PLAN: ops before   ops after     fusions  temp bytes  pass
// PLAN: 4           6           1           -  fuse
// PLAN-NEXT: 6           6           1           0  assign-buffers
// PLAN: buffers of @f: temp 0 bytes (one buffer per op: 0), arguments 16, outputs 16, alias 0, constants 0
// PLAN: arg 0 {{.*}} %arg0
// PLAN: out 0 {{.*}} hlo.fusion
