// RUN: xlir-opt %s -p cse,dce --print-ir-after-all | filecheck %s --check-prefix=AFTER
// AFTER: // -----// IR Dump After cse //----- //
// AFTER: stablehlo.add
// AFTER: // -----// IR Dump After dce //----- //

// RUN: rm -rf %t && xlir-opt %s -p cse,dce --print-ir-after-all=%t -o /dev/null && ls %t | filecheck %s --check-prefix=DIR
// DIR: 01-cse.mlir
// DIR-NEXT: 02-dce.mlir

// RUN: xlir-opt %s -p cse,dce --pass-timing -o /dev/null 2>&1 | filecheck %s --check-prefix=TIMING
// TIMING: pass timing report
// TIMING: {{[0-9.]+}} {{.*}}% cse
// TIMING: {{[0-9.]+}} {{.*}}% dce
// TIMING: total

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
