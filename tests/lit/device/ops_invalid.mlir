// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One case per rule of the device dialect's verifiers.

func.func @alloc_static(%n: index) {
  %b = device.alloc : memref<?xf32>
  func.return
}
// CHECK: ops_invalid.mlir:6:3: error: 'device.alloc' op buffer type memref<?xf32> must have a static shape and the row-major identity layout

// -----

func.func @alloc_layout() {
  %b = device.alloc : memref<4x4xf32, strided<[1, 4]>>
  func.return
}
// CHECK: ops_invalid.mlir:14:3: error: 'device.alloc' op buffer type memref<4x4xf32, strided<[1, 4]>> must have a static shape and the row-major identity layout

// -----

func.func @copy_shapes(%a: memref<4x4xf32>, %b: memref<16xf32>) {
  %s = device.default_stream
  device.copy device_to_device %a, %b on %s : memref<4x4xf32>, memref<16xf32>
  func.return
}
// CHECK: ops_invalid.mlir:23:3: error: 'device.copy' op source memref<4x4xf32> and target memref<16xf32> must have the same shape and element type

// -----

func.func @copy_elements(%a: memref<4xf32>, %b: memref<4xi32>) {
  %s = device.default_stream
  device.copy host_to_device %a, %b on %s : memref<4xf32>, memref<4xi32>
  func.return
}
// CHECK: ops_invalid.mlir:32:3: error: 'device.copy' op source memref<4xf32> and target memref<4xi32> must have the same shape and element type

// -----

func.func @copy_direction(%a: memref<4xf32>, %b: memref<4xf32>) {
  %s = device.default_stream
  device.copy sideways %a, %b on %s : memref<4xf32>, memref<4xf32>
  func.return
}
// CHECK: ops_invalid.mlir:41:15: error: Expected `host_to_device`, `device_to_host`, or `device_to_device`.

// -----

func.func @read_scalar_indices(%p: memref<4xi1>) {
  %s = device.default_stream
  %v = device.read_scalar %p[] on %s : memref<4xi1>
  func.return
}
// CHECK: ops_invalid.mlir:50:3: error: 'device.read_scalar' op takes one index per dimension of memref<4xi1> (1), but has 0

// -----

func.func @launch_undefined(%a: memref<4xf32>) {
  %s = device.default_stream
  device.launch @missing(%a) on %s : memref<4xf32>
  func.return
}
// CHECK: ops_invalid.mlir:59:3: error: 'device.launch' op @missing is not defined, not a 'loop.kernel'

// -----

func.func @not_a_kernel(%a: memref<4xf32>) {
  func.return
}
func.func @launch_function(%a: memref<4xf32>) {
  %s = device.default_stream
  device.launch @not_a_kernel(%a) on %s : memref<4xf32>
  func.return
}
// CHECK: ops_invalid.mlir:71:3: error: 'device.launch' op @not_a_kernel is a 'func.func', not a 'loop.kernel'

// -----

loop.kernel @k(%a: memref<4xf32>, %n: index) {
  loop.return
}
func.func @launch_arguments(%a: memref<4xf32>) {
  %s = device.default_stream
  device.launch @k(%a) on %s : memref<4xf32>
  func.return
}
// CHECK: ops_invalid.mlir:83:3: error: 'device.launch' op argument types (memref<4xf32>) must equal the parameter types of @k (memref<4xf32>, index)

// -----

loop.kernel @k(%a: memref<4xf32>) {
  loop.return
}
func.func @launch_types(%a: memref<8xf32>) {
  %s = device.default_stream
  device.launch @k(%a) on %s : memref<8xf32>
  func.return
}
// CHECK: ops_invalid.mlir:95:3: error: 'device.launch' op argument types (memref<8xf32>) must equal the parameter types of @k (memref<4xf32>)

// -----

func.func @stream_type(%a: memref<4xf32>) {
  %e = device.event_create
  "device.synchronize"(%e) : (!device.event) -> ()
  func.return
}
// CHECK: ops_invalid.mlir:104:3: error: operand 'stream' at position 0 does not verify:

// -----

func.func @collective_buffers(%a: memref<4xf32>) {
  %s = device.default_stream
  device.collective(%a) on %s : memref<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    %y = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %y : tensor<4xf32>
  }
  func.return
}
// CHECK: ops_invalid.mlir:113:3: error: 'device.collective' op has 1 buffer(s), but its region takes 1 input(s) and returns 1 result(s)

// -----

func.func @collective_types(%a: memref<4xf32>, %b: memref<8xf32>) {
  %s = device.default_stream
  device.collective(%a, %b) on %s : memref<4xf32>, memref<8xf32> {
  ^bb0(%x: tensor<4xf32>):
    %y = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %y : tensor<4xf32>
  }
  func.return
}
// CHECK: ops_invalid.mlir:126:3: error: 'device.collective' op buffer #1 of type memref<8xf32> does not hold the region's value of type tensor<4xf32>
