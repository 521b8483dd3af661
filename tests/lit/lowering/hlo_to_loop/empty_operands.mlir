// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | filecheck %s

// An operand with no elements is never loaded: a concatenate or pad reads
// it only where a select then takes another value, and a load at its
// clamped index would lie outside the buffer.

// CHECK:       loop.kernel @fusion_1(%{{.*}}: memref<0x2xf32>, %[[Y:.*]]: memref<3x2xf32>, %{{.*}}: memref<3x2xf32>) {
// CHECK-NOT:     memref<0x2xf32>
// CHECK:         loop.load %[[Y]]
// CHECK:       loop.kernel @fusion_2(%{{.*}}: memref<0x2xf32>, %[[P:.*]]: memref<f32>, %{{.*}}: memref<2x2xf32>) {
// CHECK-NOT:     memref<0x2xf32>
// CHECK:         loop.load %[[P]][] : memref<f32>
// CHECK-NOT:     loop.load
// CHECK:         loop.return
func.func @main(%x: tensor<0x2xf32>, %y: tensor<3x2xf32>, %p: tensor<f32>) -> (tensor<3x2xf32>, tensor<2x2xf32>) {
  %c = stablehlo.concatenate %x, %y, dim = 0 : (tensor<0x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %n = stablehlo.negate %c : tensor<3x2xf32>
  %q = stablehlo.pad %x, %p, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<0x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %n, %q : tensor<3x2xf32>, tensor<2x2xf32>
}
