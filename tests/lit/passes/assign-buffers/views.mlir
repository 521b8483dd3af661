// RUN: xlir-opt --allow-unregistered-dialect %s --split-input-file -p assign-buffers | filecheck %s

// Views move no data in row-major layout: they share their operand's buffer.

// reshape, bitcast_convert, and a broadcast_in_dim that only adds unit
// dimensions are views of %a's temp buffer.
// CHECK-LABEL: func.func @views
// CHECK-SAME:  arena = 4096
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK-NEXT:  stablehlo.reshape {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK-NEXT:  stablehlo.bitcast_convert {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK-NEXT:  stablehlo.broadcast_in_dim {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
func.func @views(%p: tensor<1024xf32>) -> tensor<f32> {
  %a = stablehlo.exponential %p : tensor<1024xf32>
  %b = stablehlo.reshape %a : (tensor<1024xf32>) -> tensor<32x32xf32>
  %c = stablehlo.bitcast_convert %b : (tensor<32x32xf32>) -> tensor<32x32xi32>
  %d = stablehlo.broadcast_in_dim %c, dims = [0, 2] : (tensor<32x32xi32>) -> tensor<32x1x32xi32>
  %r = "test.use"(%a, %d) : (tensor<1024xf32>, tensor<32x1x32xi32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// A broadcast that repeats elements, or that reorders dimensions, is no view.
// CHECK-LABEL: func.func @not_views
// CHECK:       stablehlo.broadcast_in_dim {{.*}}[#hlo.buffer<temp, offset = 0, size = 16384>]
// CHECK-NEXT:  stablehlo.broadcast_in_dim {{.*}}[#hlo.buffer<temp, offset = 16384, size = 4096>]
func.func @not_views(%p: tensor<32x32xf32>, %q: tensor<1024xf32>) -> tensor<f32> {
  %a = stablehlo.broadcast_in_dim %q, dims = [1] : (tensor<1024xf32>) -> tensor<4x1024xf32>
  %b = stablehlo.broadcast_in_dim %p, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = "test.use"(%a, %b) : (tensor<4x1024xf32>, tensor<32x32xf32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// Views of a parameter are the parameter's buffer; views of a constant are
// constant data; a fusion whose output is its input seen through a reshape
// is a view too.
// CHECK-LABEL: func.func @views_of_parameters_and_constants
// CHECK-SAME:  arena = 0
// CHECK:       stablehlo.reshape {{.*}}[#hlo.buffer<arg 0>]
// CHECK-NEXT:  stablehlo.constant {{.*}}[#hlo.buffer<const>]
// CHECK-NEXT:  stablehlo.reshape {{.*}}[#hlo.buffer<const>]
// CHECK-NEXT:  hlo.fusion kind = loop {{.*}}[#hlo.buffer<arg 0>]
func.func @views_of_parameters_and_constants(%p: tensor<1024xf32>) -> tensor<f32> {
  %a = stablehlo.reshape %p : (tensor<1024xf32>) -> tensor<32x32xf32>
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %d = stablehlo.reshape %c : (tensor<4xf32>) -> tensor<2x2xf32>
  %f = hlo.fusion kind = loop (%p) : (tensor<1024xf32>) -> tensor<1024x1xf32> {
  ^bb0(%x: tensor<1024xf32>):
    %y = stablehlo.reshape %x : (tensor<1024xf32>) -> tensor<1024x1xf32>
    hlo.yield %y : tensor<1024x1xf32>
  }
  %r = "test.use"(%a, %d, %f) : (tensor<32x32xf32>, tensor<2x2xf32>, tensor<1024x1xf32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// A view that is an output of its own, beside its operand, must be a copy:
// each output has its own buffer. Returning a view of a parameter copies too.
// CHECK-LABEL: func.func @view_as_second_output
// CHECK-SAME:  arena = 0
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<out 0>]
// CHECK-NEXT:  stablehlo.reshape {{.*}}[#hlo.buffer<out 1>]
// CHECK-NEXT:  stablehlo.reshape {{.*}}[#hlo.buffer<out 2>]
func.func @view_as_second_output(%p: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<32x32xf32>, tensor<32x32xf32>) {
  %a = stablehlo.exponential %p : tensor<1024xf32>
  %b = stablehlo.reshape %a : (tensor<1024xf32>) -> tensor<32x32xf32>
  %c = stablehlo.reshape %p : (tensor<1024xf32>) -> tensor<32x32xf32>
  func.return %a, %b, %c : tensor<1024xf32>, tensor<32x32xf32>, tensor<32x32xf32>
}
