// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | filecheck %s
// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | xlir-opt -p loop-to-llvm | filecheck %s --check-prefix=LLVM

// A float remainder is one `arith.remf` (C's fmod, exact), which the loop
// level prints and parses, and which the cpu lowers to LLVM's `frem`.

// CHECK-LABEL: loop.kernel @{{.*}}
// CHECK:         arith.remf %{{.*}}, %{{.*}} : f16
// CHECK-NOT:     math.trunc
// CHECK-LABEL: loop.kernel @{{.*}}
// CHECK:         arith.remf %{{.*}}, %{{.*}} : f64
// LLVM:          llvm.frem %{{.*}}, %{{.*}} : f16
// LLVM:          llvm.frem %{{.*}}, %{{.*}} : f64
func.func @main(%a: tensor<8xf16>, %b: tensor<8xf16>, %c: tensor<3xf64>) -> (tensor<8xf16>, tensor<3xf64>) {
  %r = stablehlo.remainder %a, %b : tensor<8xf16>
  %s = stablehlo.remainder %c, %c : tensor<3xf64>
  return %r, %s : tensor<8xf16>, tensor<3xf64>
}
