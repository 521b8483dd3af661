// Every op the loop interpreter cannot run is listed at once, with its
// location, before anything runs; a diagnostic, never a traceback.

// RUN: not xlir-run %s --random 2>&1 | filecheck %s

// CHECK: the loop interpreter does not support 2 op(s) of this module:
// CHECK-NEXT: unsupported.mlir:[[# @LINE + 6]]:5: error: 'arith.mulsi_extended' is not supported by the loop interpreter
// CHECK: unsupported.mlir:[[# @LINE + 11]]:3: error: 'memref.dim' is not supported by the loop interpreter
loop.kernel @k(%a: memref<4xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %a[%i] : memref<4xf32>
    %w = math.tan %v : f32
    %m:2 = arith.mulsi_extended %i, %i : index
  }
  loop.return
}
func.func @main(%a: memref<4xf32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %d = memref.dim %a, %c0 : memref<4xf32>
  func.return %a : memref<4xf32>
}
