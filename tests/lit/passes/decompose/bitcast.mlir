// RUN: xlir-opt %s -p decompose | filecheck %s

// Between widths, pieces go in and out of the wide element's bits, the
// first piece in the lowest bits; same-width bitcasts stay.

// CHECK-LABEL: func.func @merge(%x: tensor<3x4xi8>) -> tensor<3xi32> {
// CHECK-NEXT:    %[[U:.+]] = stablehlo.bitcast_convert %x : (tensor<3x4xi8>) -> tensor<3x4xui8>
// CHECK-NEXT:    %[[W:.+]] = stablehlo.convert %[[U]] : (tensor<3x4xui8>) -> tensor<3x4xui32>
// CHECK-NEXT:    %[[I:.+]] = stablehlo.iota dim = 1 : tensor<3x4xui32>
// CHECK-NEXT:    %[[EIGHT:.+]] = stablehlo.constant dense<8> : tensor<ui32>
// CHECK-NEXT:    %[[EIGHTS:.+]] = stablehlo.broadcast_in_dim %[[EIGHT]]
// CHECK-NEXT:    %[[AT:.+]] = stablehlo.multiply %[[I]], %[[EIGHTS]]
// CHECK-NEXT:    %[[S:.+]] = stablehlo.shift_left %[[W]], %[[AT]]
// CHECK-NEXT:    %[[Z:.+]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT:    %[[M:.+]] = stablehlo.reduce(%[[S]] init: %[[Z]]) applies stablehlo.or across dimensions = [1]
// CHECK-NEXT:    %r = stablehlo.bitcast_convert %[[M]] : (tensor<3xui32>) -> tensor<3xi32>
func.func @merge(%x: tensor<3x4xi8>) -> tensor<3xi32> {
  %r = stablehlo.bitcast_convert %x : (tensor<3x4xi8>) -> tensor<3xi32>
  func.return %r : tensor<3xi32>
}

// CHECK-LABEL: func.func @split(%x: tensor<f64>) -> tensor<64xi1> {
// CHECK-NEXT:    %[[B:.+]] = stablehlo.bitcast_convert %x : (tensor<f64>) -> tensor<ui64>
// CHECK-NEXT:    %[[SPREAD:.+]] = stablehlo.broadcast_in_dim %[[B]], dims = [] : (tensor<ui64>) -> tensor<64xui64>
// CHECK:         %[[SH:.+]] = stablehlo.shift_right_logical %[[SPREAD]],
// CHECK-NEXT:    %[[BIT:.+]] = stablehlo.and %[[SH]],
// CHECK:         %r = stablehlo.compare NE, %[[BIT]],
func.func @split(%x: tensor<f64>) -> tensor<64xi1> {
  %r = stablehlo.bitcast_convert %x : (tensor<f64>) -> tensor<64xi1>
  func.return %r : tensor<64xi1>
}

// CHECK-LABEL: func.func @same_width
// CHECK-NEXT:    stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2xi32>
func.func @same_width(%x: tensor<2xf32>) -> tensor<2xi32> {
  %r = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2xi32>
  func.return %r : tensor<2xi32>
}
