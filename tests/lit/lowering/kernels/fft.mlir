// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// IFFT of length 4 (a power of two) on each of 2 rows: the operand copied
// into the results, then per row (a loop.parallel over the rows) the
// bit-reversal swaps in a loop.for, two stages of butterflies, each a
// loop.parallel over its independent pairs, with conjugate twiddles from a
// table (quarter turns exact), and the scaling by 1/4.

// CHECK:       loop.global @fft_1_bit_reversed_4 : memref<4xi64> = dense<[0, 2, 1, 3]>
// CHECK-NEXT:  loop.global @fft_1_inverse_twiddle_re_2 : memref<2xf32> = dense<[1.000000e+00, 0.000000e+00]>
// CHECK-NEXT:  loop.global @fft_1_inverse_twiddle_im_2 : memref<2xf32> = dense<[0.000000e+00, 1.000000e+00]>
// CHECK-LABEL: loop.kernel @fft_1(
// CHECK-SAME:    %[[RE:[^:]*]]: memref<2x4xf32>, %[[IM:[^:]*]]: memref<2x4xf32>, %[[ORE:[^:]*]]: memref<2x4xf32>, %[[OIM:[^:]*]]: memref<2x4xf32>) {
// CHECK:         loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 4) step (1, 1) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %[[RE]][%[[I]], %[[J]]]
// CHECK-NEXT:      %[[Y:.*]] = loop.load %[[IM]][%[[I]], %[[J]]]
// CHECK-NEXT:      loop.store %[[X]], %[[ORE]][%[[I]], %[[J]]]
// CHECK-NEXT:      loop.store %[[Y]], %[[OIM]][%[[I]], %[[J]]]
// CHECK:         %[[QUARTER:.*]] = arith.constant 2.500000e-01 : f32
// CHECK:         loop.parallel (%[[ROW:.*]], %{{.*}}) = (0, 0) to (2, 1) step (1, 1) {
// CHECK-NEXT:      loop.for %[[K:.*]] = 0 to 4 step 1 {
// CHECK:             %[[R:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:             arith.cmpi slt, %[[K]], %[[R]] : index
// CHECK:           loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (2, 1) step (1, 1) {
// CHECK:             arith.subf
// CHECK:             arith.addf
// CHECK:             loop.store %{{.*}}, %[[ORE]][%[[ROW]], %{{.*}}]
// CHECK:           loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (1, 2) step (1, 1) {
// CHECK:           loop.parallel (%[[E:.*]]) = (0) to (4) step (1) {
// CHECK:             arith.mulf %{{.*}}, %[[QUARTER]] : f32
// CHECK:         loop.return
func.func @main(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0, %1 = hlo.fft %a, %b, type = IFFT, length = [4] : (tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return %0, %1 : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// RFFT of length 3 (Bluestein, m = 8): scratch for the full complex
// spectrum (3), the filter (8) and the padded lines (8), which the host
// allocates around the launch; the chirp e^(-i pi j^2 / 3) is a table.

// CHECK:       loop.global @fft_1_chirp_re_3 : memref<3xf32> = dense<[1.000000e+00, 5.000000e-01, -5.000000e-01]>
// CHECK-NEXT:  loop.global @fft_1_chirp_im_3 : memref<3xf32> = dense<[0.000000e+00, -0.866025388, 0.866025388]>
// CHECK-LABEL: loop.kernel @fft_1(
// CHECK-SAME:    memref<3xf32>, %{{.*}}: memref<2xf32>, %{{.*}}: memref<2xf32>, %{{.*}}: memref<3xf32>, %{{.*}}: memref<3xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>) {
// CHECK-LABEL: func.func @main(
// CHECK-COUNT-6: device.alloc
// CHECK:         device.launch @fft_1(
// CHECK-COUNT-4: device.free
func.func @main(%a: tensor<3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0, %1 = hlo.fft %a, type = RFFT, length = [3] : (tensor<3xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}
