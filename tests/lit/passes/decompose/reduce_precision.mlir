// RUN: xlir-opt %s -p decompose | filecheck %s

// reduce_precision of a float becomes integer operations on its bits:
// round the mantissa (ties to even), clamp the exponent, keep NaNs.

// CHECK-LABEL: func.func @to_half(%x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %[[BITS:.+]] = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xui32>
// CHECK:         stablehlo.shift_right_logical
// CHECK:         %[[ROUNDED:.+]] = stablehlo.and {{.+}} : tensor<4xui32>
// CHECK:         stablehlo.compare LE,
// CHECK:         stablehlo.compare GT,
// CHECK:         %[[R:.+]] = stablehlo.bitcast_convert {{.+}} : (tensor<4xui32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[NAN:.+]] = stablehlo.compare NE, %x, %x, FLOAT
// CHECK-NEXT:    %{{.+}} = stablehlo.select %[[NAN]], %x, %[[R]]
// CHECK-NOT:     reduce_precision
func.func @to_half(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// With no mantissa bit left a NaN becomes infinity of its sign; a format
// as wide as the type's changes nothing but NaNs' handling.
// CHECK-LABEL: func.func @no_mantissa
// CHECK-NEXT:    %[[BITS:.+]] = stablehlo.bitcast_convert %x : (tensor<f64>) -> tensor<ui64>
// CHECK:         stablehlo.constant dense<9223372036854775808> : tensor<ui64>
// CHECK-NEXT:    %[[SIGN:.+]] = stablehlo.broadcast_in_dim
// CHECK:         %[[R:.+]] = stablehlo.bitcast_convert {{.+}} : (tensor<ui64>) -> tensor<f64>
// CHECK-NEXT:    %[[S:.+]] = stablehlo.and %[[BITS]], %[[SIGN]]
// CHECK-NEXT:    %[[INF:.+]] = stablehlo.or %[[S]],
// CHECK-NEXT:    %[[NANR:.+]] = stablehlo.bitcast_convert %[[INF]] : (tensor<ui64>) -> tensor<f64>
// CHECK-NEXT:    %[[NAN:.+]] = stablehlo.compare NE, %x, %x, FLOAT
// CHECK-NEXT:    %r = stablehlo.select %[[NAN]], %[[NANR]], %[[R]]
func.func @no_mantissa(%x: tensor<f64>) -> tensor<f64> {
  %r = stablehlo.reduce_precision %x, format = e5m0 : tensor<f64>
  func.return %r : tensor<f64>
}

// Types without a decomposition keep the op.
// CHECK-LABEL: func.func @narrow_float
// CHECK-NEXT:    stablehlo.reduce_precision %x, format = e2m1 : tensor<2xf8E4M3FN>
func.func @narrow_float(%x: tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FN> {
  %r = stablehlo.reduce_precision %x, format = e2m1 : tensor<2xf8E4M3FN>
  func.return %r : tensor<2xf8E4M3FN>
}
