// RUN: not xlir-opt %s -p hlo-opt,hlo-to-loop 2>&1 | filecheck %s

// Tokens order sends and receives inside a function; one taken or returned
// at the function's boundary has no buffer to live in, and is refused at
// the ops that use it.

// CHECK: hlo-to-loop cannot lower 2 op(s) of this module:
// CHECK: send_recv_refused.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.send' takes or returns a token at the function's boundary, which is not supported (tokens order sends and receives inside a function)
// CHECK: send_recv_refused.mlir:[[# @LINE + 3]]:3: error: 'func.return' takes or returns a token at the function's boundary
func.func @main(%x: tensor<4xf32>, %t: !stablehlo.token) -> (tensor<4xf32>, !stablehlo.token) {
  %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  func.return %x, %s : tensor<4xf32>, !stablehlo.token
}
