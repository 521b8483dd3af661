// mlir-opt's spellings: --pass-pipeline in MLIR's syntax (anchors group
// passes, which each run over the whole module), the --mlir-* flags, single
// dash long flags, dumps before passes and after changing ones.

// RUN: xlir-opt %s -pass-pipeline='builtin.module(func.func(cse,dce),cse)' -mlir-print-ir-after-change | filecheck %s --check-prefix=CHANGE
// CHANGE: // -----// IR Dump After cse //----- //
// CHANGE-NEXT: builtin.module {
// Only the first cse changes the IR: one dump.
// RUN: xlir-opt %s -pass-pipeline='builtin.module(func.func(cse,dce),cse)' -mlir-print-ir-after-change | grep -c "IR Dump" | filecheck %s --check-prefix=ONCE
// ONCE: {{^}}1{{$}}

// RUN: xlir-opt %s --pass-pipeline='builtin.module(cse,dce)' --mlir-print-ir-before=dce --mlir-print-ir-after-all | filecheck %s --check-prefix=DUMPS
// DUMPS: // -----// IR Dump After cse //----- //
// DUMPS: // -----// IR Dump Before dce //----- //
// DUMPS: // -----// IR Dump After dce //----- //

// RUN: xlir-opt %s -p cse --print-ir-before-all -print-ir-module-scope | filecheck %s --check-prefix=BEFORE
// BEFORE: // -----// IR Dump Before cse //----- //
// BEFORE-NEXT: builtin.module {
// BEFORE: stablehlo.add
// BEFORE: stablehlo.add

// RUN: xlir-opt %s --pass-pipeline='builtin.module()' -mlir-print-op-generic | filecheck %s --check-prefix=EMPTY
// EMPTY: "func.func"()

// RUN: not xlir-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | filecheck %s --check-prefix=UNCLOSED
// UNCLOSED: xlir-opt: error: --pass-pipeline: expected ',' or ')' at column 19, found the end

// RUN: not xlir-opt %s --pass-pipeline='gpu.module(cse)' 2>&1 | filecheck %s --check-prefix=ANCHOR
// ANCHOR: xlir-opt: error: --pass-pipeline: expected a pass, or an anchor among builtin.module, func.func at column 1, found 'g'

// RUN: not xlir-opt %s --pass-pipeline='builtin.module(cse)' -p dce 2>&1 | filecheck %s --check-prefix=BOTH
// BOTH: xlir-opt: error: give the pipeline with -p or --pass-pipeline, not both

// RUN: not xlir-opt %s -p cse --print-ir-before=cse,nope 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: xlir-opt: error: --print-ir-before: unknown pass(es) 'nope'

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  %1 = stablehlo.add %a, %a : tensor<4xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}
