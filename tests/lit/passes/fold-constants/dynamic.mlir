// RUN: xlir-opt %s -p fold-constants | filecheck %s
// RUN: xlir-opt %s -p 'refine-shapes,fold-constants' | filecheck %s --check-prefix=REFINED

// An op of constant operands whose result has a dynamic dimension is not
// folded: a constant's type must be static (a mutant's constant of type
// tensor<?xf32> crashed `fuse`); refine-shapes makes such types static.

// CHECK-LABEL: func.func @main
// CHECK:       stablehlo.dynamic_iota %{{.*}}, dim = 0 : (tensor<1xi64>) -> tensor<?xf32>
// REFINED-LABEL: func.func @main
// REFINED-NEXT:  stablehlo.iota dim = 0 : tensor<0xf32>
func.func @main() -> tensor<?xf32> {
  %shape = stablehlo.constant dense<[0]> : tensor<1xi64>
  %0 = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
