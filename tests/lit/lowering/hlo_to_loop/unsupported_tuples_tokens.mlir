// RUN: not xlir-run %s --target cpu --random 2>&1 | filecheck %s

// Tuples have no buffers on the cpu target yet, and tokens order only
// send, recv, after_all and control flow (send_recv.mlir): every other op
// that takes or makes one is reported at once, rather than a crash. (A
// tuple whose elements are only taken apart again, and a token nothing
// reads, are gone before: simplify and dce.)

// CHECK: hlo-to-loop cannot lower 3 op(s) of this module:
// CHECK-NEXT: unsupported_tuples_tokens.mlir:[[# @LINE + 5]]:3: error: 'stablehlo.tuple' on a value of type tuple<tensor<2xf32>> is not supported (only tensors)
// CHECK-NEXT: unsupported_tuples_tokens.mlir:[[# @LINE + 5]]:3: error: 'stablehlo.custom_call' on a value of type !stablehlo.token is not supported (tokens order only send, recv, after_all and control flow)
// CHECK-NEXT: unsupported_tuples_tokens.mlir:[[# @LINE + 4]]:3: error: 'stablehlo.custom_call' on a value of type tuple<tensor<2xf32>> is not supported (only tensors)
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t = stablehlo.after_all : !stablehlo.token
  %u = stablehlo.tuple %x : tuple<tensor<2xf32>>
  %y = stablehlo.custom_call @consume(%t, %u) : (!stablehlo.token, tuple<tensor<2xf32>>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
