// RUN: not xlir-compile --target nvptx %s -o %t.ptx 2>&1 | filecheck %s
// RUN: not xlir-compile --target nvptx --sm 8x %s -o %t.ptx 2>&1 | filecheck %s --check-prefix=SM
// RUN: not xlir-compile --target nvptx --cpu sm_8x %s -o %t.ptx 2>&1 | filecheck %s --check-prefix=CPU
// RUN: not xlir-compile --target nvptx --triple x86_64-linux-gnu %s -o %t.ptx 2>&1 | filecheck %s --check-prefix=TRIPLE
// SM: error: argument --sm: invalid int value: '8x'
// CPU: error: 'sm_8x' is not a CUDA compute capability; expected e.g. --sm 80 (Ampere) or --sm 90 (Hopper)
// TRIPLE: error: target 'nvptx' compiles for nvptx64-nvidia-cuda; name the GPU with --sm (e.g. --sm 90), not a triple

// f64 transcendentals have no arithmetic expansion at the loop level, and a
// GPU kernel no math library: every such op is listed, with its location.
// CHECK: nvptx-loop-to-llvm cannot lower {{[0-9]+}} op(s) of this module for target 'nvptx':
// CHECK: errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'math.atan2' calls the math function 'atan2', which a GPU kernel has no library for
// CHECK-NEXT: errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'math.cbrt' calls the math function 'cbrt'
// CHECK-NOT: error:
func.func @main(%x: tensor<8xf64>, %y: tensor<8xf64>) -> tensor<8xf64> {
  %a = stablehlo.atan2 %x, %y : tensor<8xf64>
  %b = stablehlo.cbrt %a : tensor<8xf64>
  return %b : tensor<8xf64>
}
