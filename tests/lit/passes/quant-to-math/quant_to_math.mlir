// RUN: xlir-opt %s --split-input-file -p quant-to-math | filecheck %s
// RUN: xlir-opt %s --split-input-file -p quant-to-math,cse | xlir-opt --verify-each -p hlo-opt > /dev/null

// Quantize, an op on quantized values (dequantize, add, quantize) and
// dequantize become arithmetic on the storage integers; the bitcast to the
// storage type is the storage value itself.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xi8>, tensor<2xf32>)
// CHECK: stablehlo.divide %x
// CHECK: stablehlo.round_nearest_even
// CHECK: stablehlo.clamp
// CHECK: %[[Q1:.*]] = stablehlo.convert %{{.*}} : (tensor<2xf32>) -> tensor<2xi8>
// CHECK: stablehlo.convert %[[Q1]] : (tensor<2xi8>) -> tensor<2xf32>
// CHECK: stablehlo.subtract
// CHECK: stablehlo.multiply
// CHECK: %[[SUM:.*]] = stablehlo.add %{{.*}}, %{{.*}} : tensor<2xf32>
// CHECK: stablehlo.divide %[[SUM]]
// CHECK: %[[R:.*]] = stablehlo.convert %{{.*}} : (tensor<2xf32>) -> tensor<2xi8>
// CHECK: func.return %[[R]], %{{.*}} : tensor<2xi8>, tensor<2xf32>
// CHECK-NOT: quant.uniform
func.func @add(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xi8>, tensor<2xf32>) {
  %q1 = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  %q2 = stablehlo.uniform_quantize %y : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %r = stablehlo.add %q1, %q2 : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %b = stablehlo.bitcast_convert %r : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xi8>
  %d = stablehlo.uniform_dequantize %r : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xf32>
  return %b, %d : tensor<2xi8>, tensor<2xf32>
}

// -----

// Per-axis scales and zero points are broadcast along their axis; quantized
// arguments and results are their storage integers.
// CHECK-LABEL: func.func @per_axis
// CHECK-SAME: (%q: tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK: %[[ZP:.*]] = stablehlo.constant dense<[-3.000000e+01, -2.000000e+01]> : tensor<2xf32>
// CHECK: stablehlo.broadcast_in_dim %[[ZP]], dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
// CHECK: %[[SCALE:.*]] = stablehlo.constant dense<[1.000000e-01, 5.000000e-01]> : tensor<2xf32>
// CHECK: stablehlo.broadcast_in_dim %[[SCALE]], dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
// CHECK-NOT: quant.uniform
func.func @per_axis(%q: tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>> {
  %r = stablehlo.uniform_quantize %q : (tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>
  return %r : tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-20,0.2:-30}>>
}
