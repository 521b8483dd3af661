// RUN: xlir-opt %s --split-input-file -p hlo-opt,hlo-to-loop | filecheck %s

// A reshaped parameter read by a dot: the plan puts the reshape in the
// parameter's memory, so the host names that memory with its new shape
// (`loop.reshape`) and launches no copy kernel for it.
// CHECK-LABEL: func.func @reshaped_parameter(
// CHECK-SAME:  %[[A:[^:]*]]: memref<2x4xf32>, %[[B:[^:]*]]: memref<8xf32>)
// CHECK:         %[[OUT:.*]] = device.alloc : memref<2x2xf32>
// CHECK-NEXT:    %[[R:.*]] = loop.reshape %[[B]] : memref<8xf32> -> memref<4x2xf32>
// CHECK-NEXT:    device.launch @dot_general_1(%[[A]], %[[R]], %[[OUT]])
// CHECK-NEXT:    device.synchronize
func.func @reshaped_parameter(%a: tensor<2x4xf32>, %b: tensor<8xf32>) -> tensor<2x2xf32> {
  %r = stablehlo.reshape %b : (tensor<8xf32>) -> tensor<4x2xf32>
  %0 = stablehlo.dot_general %a, %r, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// A dot planned in an output that returns it reshaped: the dot writes the
// output's memory seen with the dot's shape; the reshape costs nothing.
// CHECK-LABEL: func.func @reshaped_output(
// CHECK:         %[[OUT:.*]] = device.alloc : memref<4xf32>
// CHECK-NEXT:    %[[R:.*]] = loop.reshape %[[OUT]] : memref<4xf32> -> memref<2x2xf32>
// CHECK-NEXT:    device.launch @dot_general_1(%{{.*}}, %{{.*}}, %[[R]])
// CHECK-NEXT:    device.synchronize
// CHECK-NEXT:    func.return %[[OUT]] : memref<4xf32>
func.func @reshaped_output(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = stablehlo.reshape %0 : (tensor<2x2xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// A view into other memory (a parameter bitcast to another element type,
// planned in the arena) is still a copy kernel.
// CHECK-LABEL: func.func @bitcast_parameter(
// CHECK:         device.launch @fusion_1(
// CHECK-NEXT:    device.launch @dot_general_1(
func.func @bitcast_parameter(%a: tensor<2x2xf32>, %b: tensor<2x2xi32>) -> tensor<2x2xf32> {
  %r = stablehlo.bitcast_convert %b : (tensor<2x2xi32>) -> tensor<2x2xf32>
  %0 = stablehlo.dot_general %a, %r, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
