// RUN: xlir-opt %s -p decompose | filecheck %s

// Up to 32 bits: widen to 64, multiply, shift right by the width, narrow.
// CHECK-LABEL: func.func @narrow(%a: tensor<3xi8>, %b: tensor<3xi8>) -> tensor<3xi8> {
// CHECK-NEXT:    %[[A:.+]] = stablehlo.convert %a : (tensor<3xi8>) -> tensor<3xi64>
// CHECK-NEXT:    %[[B:.+]] = stablehlo.convert %b : (tensor<3xi8>) -> tensor<3xi64>
// CHECK-NEXT:    %[[P:.+]] = stablehlo.multiply %[[A]], %[[B]] : tensor<3xi64>
// CHECK-NEXT:    %[[W:.+]] = stablehlo.constant dense<8> : tensor<i64>
// CHECK-NEXT:    %[[WS:.+]] = stablehlo.broadcast_in_dim %[[W]], dims = [] : (tensor<i64>) -> tensor<3xi64>
// CHECK-NEXT:    %[[H:.+]] = stablehlo.shift_right_arithmetic %[[P]], %[[WS]] : tensor<3xi64>
// CHECK-NEXT:    %h = stablehlo.convert %[[H]] : (tensor<3xi64>) -> tensor<3xi8>
func.func @narrow(%a: tensor<3xi8>, %b: tensor<3xi8>) -> tensor<3xi8> {
  %h = "chlo.mulhi"(%a, %b) : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  func.return %h : tensor<3xi8>
}

// Unsigned operands shift logically.
// CHECK-LABEL: func.func @narrow_unsigned
// CHECK:         stablehlo.convert %a : (tensor<2xui32>) -> tensor<2xui64>
// CHECK:         stablehlo.shift_right_logical
func.func @narrow_unsigned(%a: tensor<2xui32>, %b: tensor<2xui32>) -> tensor<2xui32> {
  %h = "chlo.mulhi"(%a, %b) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui32>
  func.return %h : tensor<2xui32>
}

// 64 bits: four 32x32-bit partial products on the bits read as unsigned,
// then the signed correction.
// CHECK-LABEL: func.func @wide(%a: tensor<2xi64>, %b: tensor<2xi64>) -> tensor<2xi64> {
// CHECK-NEXT:    %[[UA:.+]] = stablehlo.bitcast_convert %a : (tensor<2xi64>) -> tensor<2xui64>
// CHECK-NEXT:    %[[UB:.+]] = stablehlo.bitcast_convert %b : (tensor<2xi64>) -> tensor<2xui64>
// CHECK-COUNT-4: stablehlo.multiply {{.*}} : tensor<2xui64>
// CHECK:         stablehlo.compare LT, %a,
// CHECK-NEXT:    stablehlo.select {{.*}}, %[[UB]],
// CHECK:         stablehlo.compare LT, %b,
// CHECK-NEXT:    stablehlo.select {{.*}}, %[[UA]],
// CHECK-NEXT:    %[[D:.+]] = stablehlo.subtract
// CHECK-NEXT:    %h = stablehlo.bitcast_convert %[[D]] : (tensor<2xui64>) -> tensor<2xi64>
// CHECK-NOT:     chlo.mulhi
func.func @wide(%a: tensor<2xi64>, %b: tensor<2xi64>) -> tensor<2xi64> {
  %h = "chlo.mulhi"(%a, %b) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  func.return %h : tensor<2xi64>
}
