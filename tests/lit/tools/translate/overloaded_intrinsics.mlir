// Float intrinsics used on several types in one module are declared per
// type (xDSL 0.74 declared them by bare name, and the second type's call
// failed in llvmlite: lowering/llvm/xdsl_translation.py), vectors included
// (llvmlite's declare_intrinsic cannot name them: a vector sqrt raised an
// AttributeError, fuzzer seed 24000007).
// RUN: xlir-translate %s | filecheck %s

// CHECK-DAG: declare float @llvm.sqrt.f32(float)
// CHECK-DAG: declare double @llvm.sqrt.f64(double)
// CHECK-DAG: declare float @llvm.pow.f32(float, float)
// CHECK-DAG: declare double @llvm.pow.f64(double, double)
// CHECK-DAG: declare <4 x float> @llvm.sqrt.v4f32(<4 x float>)
// CHECK-DAG: declare <8 x double> @llvm.pow.v8f64(<8 x double>, <8 x double>)
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
llvm.func @vectors(%x: vector<4xf32>, %y: vector<8xf64>) -> vector<8xf64> {
  %0 = llvm.intr.sqrt(%x) : (vector<4xf32>) -> vector<4xf32>
  %1 = llvm.intr.pow(%y, %y) : (vector<8xf64>, vector<8xf64>) -> vector<8xf64>
  llvm.return %1 : vector<8xf64>
}
