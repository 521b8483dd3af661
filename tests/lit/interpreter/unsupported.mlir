// RUN: not xlir-run %s --random 2>&1 | filecheck %s

// Every op the interpreter cannot run is listed at once, before anything runs.

// CHECK: the interpreter does not support 2 op(s) of this module:
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.custom_call': custom call target 'my_kernel' is not supported
// CHECK: unsupported.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.rng_bit_generator': needs a ui64 state, but the state has type tensor<2xui32>
func.func @main(%x: tensor<4xf32>, %state: tensor<2xui32>) -> (tensor<4xf32>, tensor<4xui32>) {
  %0 = stablehlo.custom_call @my_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1:2 = "stablehlo.rng_bit_generator"(%state) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui32>) -> (tensor<2xui32>, tensor<4xui32>)
  return %0, %1#1 : tensor<4xf32>, tensor<4xui32>
}
