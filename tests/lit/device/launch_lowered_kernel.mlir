// RUN: xlir-opt %s | filecheck %s

// device.launch names a kernel op by its trait (`LaunchableKernel`), never by
// its dialect: the llvm.func that `loop-to-llvm` makes of a loop.kernel has
// it (dialects/llvm.py), as accel.kernel has. (A func.func is refused:
// device/ops_invalid.mlir.)

// CHECK-LABEL: func.func @lowered
// CHECK: device.launch @k(%{{.*}}) on %s : !llvm.ptr
llvm.func internal @k(%a: !llvm.ptr) {
  llvm.return
}
func.func @lowered(%a: !llvm.ptr) {
  %s = device.default_stream
  device.launch @k(%a) on %s : !llvm.ptr
  func.return
}

