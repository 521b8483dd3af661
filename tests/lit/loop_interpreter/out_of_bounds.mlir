// An out-of-bounds load is a diagnostic at the op that names the index of
// the first lane outside the buffer (the vectorized path checks the min and
// max of each index array).

// RUN: not xlir-run %s --random 2>&1 | filecheck %s

// CHECK: out_of_bounds.mlir:[[# @LINE + 5]]:5: error: 'loop.load' index [0, 8] is out of bounds of memref<4x8xf32>
loop.kernel @shift(%a: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %c1 = arith.constant 1 : index
  loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
    %k = arith.addi %j, %c1 : index
    %v = loop.load %a[%i, %k] : memref<4x8xf32>
    loop.store %v, %out[%i, %j] : memref<4x8xf32>
  }
  loop.return
}
func.func @main(%a: memref<4x8xf32>) -> memref<4x8xf32> {
  %s = device.default_stream
  %out = device.alloc : memref<4x8xf32>
  device.launch @shift(%a, %out) on %s : memref<4x8xf32>, memref<4x8xf32>
  func.return %out : memref<4x8xf32>
}
