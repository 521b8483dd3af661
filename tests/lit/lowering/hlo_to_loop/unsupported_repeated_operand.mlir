// RUN: not xlir-run %s --target cpu --random 2>&1 | filecheck %s

// An op hlo-to-loop cannot lower that takes one value twice is reported like
// any other, not a crash while its launch's buffers are deduplicated.

// CHECK: hlo-to-loop cannot lower 1 op(s) of this module:
// CHECK-NEXT: unsupported_repeated_operand.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.custom_call' custom call target 'my_kernel' is not supported on this target
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %e = stablehlo.exponential %x : tensor<2xf32>
  %s = stablehlo.custom_call @my_kernel(%e, %e) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}
