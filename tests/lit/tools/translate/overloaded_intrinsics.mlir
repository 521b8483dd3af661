// Float intrinsics used on several types in one module are declared per
// type (xDSL 0.74 declared them by bare name, and the second type's call
// failed in llvmlite: lowering/llvm/xdsl_translation.py).
// RUN: xlir-translate %s | filecheck %s

// CHECK-DAG: declare float @llvm.sqrt.f32(float)
// CHECK-DAG: declare double @llvm.sqrt.f64(double)
// CHECK-DAG: declare float @llvm.pow.f32(float, float)
// CHECK-DAG: declare double @llvm.pow.f64(double, double)
llvm.func @single(%x: f32) -> f32 {
  %0 = llvm.intr.sqrt(%x) : (f32) -> f32
  %1 = llvm.intr.pow(%0, %x) : (f32, f32) -> f32
  llvm.return %1 : f32
}
llvm.func @double(%x: f64) -> f64 {
  %0 = llvm.intr.sqrt(%x) : (f64) -> f64
  %1 = llvm.intr.pow(%0, %x) : (f64, f64) -> f64
  llvm.return %1 : f64
}
