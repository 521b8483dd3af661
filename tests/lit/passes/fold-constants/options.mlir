// A negative cap is a diagnostic naming the pass, not a silent no-op.
// RUN: not xlir-opt %s -p 'fold-constants{max-elements=-1}' 2>&1 | filecheck %s
// CHECK: error: pass 'fold-constants' failed: max-elements must be at least 0, but is -1
// CHECK-NOT: note: the IR after pass

// A cap of 0 folds nothing.
// RUN: xlir-opt %s -p 'fold-constants{max-elements=0}' | filecheck %s --check-prefix=ZERO
// ZERO: stablehlo.add
func.func @f() -> tensor<i32> {
  %0 = stablehlo.constant dense<1> : tensor<i32>
  %1 = stablehlo.add %0, %0 : tensor<i32>
  func.return %1 : tensor<i32>
}
