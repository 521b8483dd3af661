// RUN: not xlir-run %s --target cpu 2>&1 | filecheck %s

// bf16 is no CPU type in host code either: a bf16 parameter returned
// beside another output (the executable holds bf16 as f32 on the host, the
// copy moved 2-byte elements) and a bf16 constant output are refused, at
// once, with the locations of the HLO ops the host ops come from.

// CHECK: device-to-llvm cannot lower 8 op(s) of this module:
// CHECK-NEXT: unsupported_host.mlir:[[# @LINE + 3]]:1: error: 'device.alloc' has a value of type bf16, which the CPU does not support
// CHECK-NEXT: unsupported_host.mlir:[[# @LINE + 4]]:3: error: 'device.copy' has a value of type bf16
// CHECK-NEXT: unsupported_host.mlir:[[# @LINE + 3]]:3: error: 'func.return' has a value of type bf16
func.func @main(%arg0: tensor<1x2xbf16>, %arg1: tensor<4x2xi32>) -> (tensor<1x2xbf16>, tensor<4x2xi32>) {
  %0 = stablehlo.add %arg1, %arg1 : tensor<4x2xi32>
  return %arg0, %0 : tensor<1x2xbf16>, tensor<4x2xi32>
}

// CHECK-NEXT: unsupported_host.mlir:[[# @LINE + 4]]:1: error: 'device.alloc' has a value of type bf16
// CHECK-NEXT: unsupported_host.mlir:[[# @LINE + 4]]:3: error: 'loop.get_global' has a value of type bf16
// CHECK-NEXT: unsupported_host.mlir:[[# @LINE + 4]]:3: error: 'device.copy' has a value of type bf16
// CHECK-NEXT: unsupported_host.mlir:[[# @LINE + 3]]:3: error: 'func.return' has a value of type bf16
func.func @constant() -> tensor<5x1xbf16> {
  %0 = stablehlo.constant dense<3.000000e+38> : tensor<5x1xbf16>
  return %0 : tensor<5x1xbf16>
}
// CHECK-NEXT: unsupported_host.mlir:[[# @LINE - 3]]:3: error: 'loop.global' has a value of type bf16
