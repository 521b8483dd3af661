// RUN: xlir-opt %s -p fuse | filecheck %s
// RUN: xlir-run --check %s | filecheck %s --check-prefix=EXEC

// Tensors with no elements: an empty constant counts as small (rematerialized
// like a splat) and fusion goes on around it.

// CHECK-LABEL: func.func @empty_slice
// CHECK:         stablehlo.constant dense<> : tensor<0x6xi32>
// EXEC: PASS @empty_slice
func.func @empty_slice() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = stablehlo.reverse %x, dims = [1] : tensor<2x3xi32>
  %1 = stablehlo.concatenate %x, %0, dim = 1 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x6xi32>
  %2 = stablehlo.slice %1 [1:1, 0:6] : (tensor<2x6xi32>) -> tensor<0x6xi32>
  %3 = stablehlo.constant dense<> : tensor<0x6xi32>
  %4 = stablehlo.add %2, %3 : tensor<0x6xi32>
  check.expect_eq_const %4, dense<> : tensor<0x6xi32>
  func.return
}
