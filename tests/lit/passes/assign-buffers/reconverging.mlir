// RUN: xlir-opt %s -p fuse,assign-buffers | filecheck %s

// A loop fusion whose formula reconverges at every step (x = x + x, 60
// times: 2^60 paths from the argument to the output) is still computed in
// place of its dying argument; assign-buffers visits each value once
// instead of following every path (which took exponential time).

// CHECK-LABEL: func.func @reconverging
// CHECK-SAME:  arena = 0
// CHECK:       hlo.fusion
// CHECK-SAME:  [#hlo.buffer<out 0>]
func.func @reconverging(%p: tensor<64xf32>) -> tensor<64xf32> {
  %x0 = stablehlo.exponential %p : tensor<64xf32>
  %x1 = stablehlo.add %x0, %x0 : tensor<64xf32>
  %x2 = stablehlo.add %x1, %x1 : tensor<64xf32>
  %x3 = stablehlo.add %x2, %x2 : tensor<64xf32>
  %x4 = stablehlo.add %x3, %x3 : tensor<64xf32>
  %x5 = stablehlo.add %x4, %x4 : tensor<64xf32>
  %x6 = stablehlo.add %x5, %x5 : tensor<64xf32>
  %x7 = stablehlo.add %x6, %x6 : tensor<64xf32>
  %x8 = stablehlo.add %x7, %x7 : tensor<64xf32>
  %x9 = stablehlo.add %x8, %x8 : tensor<64xf32>
  %x10 = stablehlo.add %x9, %x9 : tensor<64xf32>
  %x11 = stablehlo.add %x10, %x10 : tensor<64xf32>
  %x12 = stablehlo.add %x11, %x11 : tensor<64xf32>
  %x13 = stablehlo.add %x12, %x12 : tensor<64xf32>
  %x14 = stablehlo.add %x13, %x13 : tensor<64xf32>
  %x15 = stablehlo.add %x14, %x14 : tensor<64xf32>
  %x16 = stablehlo.add %x15, %x15 : tensor<64xf32>
  %x17 = stablehlo.add %x16, %x16 : tensor<64xf32>
  %x18 = stablehlo.add %x17, %x17 : tensor<64xf32>
  %x19 = stablehlo.add %x18, %x18 : tensor<64xf32>
  %x20 = stablehlo.add %x19, %x19 : tensor<64xf32>
  %x21 = stablehlo.add %x20, %x20 : tensor<64xf32>
  %x22 = stablehlo.add %x21, %x21 : tensor<64xf32>
  %x23 = stablehlo.add %x22, %x22 : tensor<64xf32>
  %x24 = stablehlo.add %x23, %x23 : tensor<64xf32>
  %x25 = stablehlo.add %x24, %x24 : tensor<64xf32>
  %x26 = stablehlo.add %x25, %x25 : tensor<64xf32>
  %x27 = stablehlo.add %x26, %x26 : tensor<64xf32>
  %x28 = stablehlo.add %x27, %x27 : tensor<64xf32>
  %x29 = stablehlo.add %x28, %x28 : tensor<64xf32>
  %x30 = stablehlo.add %x29, %x29 : tensor<64xf32>
  %x31 = stablehlo.add %x30, %x30 : tensor<64xf32>
  %x32 = stablehlo.add %x31, %x31 : tensor<64xf32>
  %x33 = stablehlo.add %x32, %x32 : tensor<64xf32>
  %x34 = stablehlo.add %x33, %x33 : tensor<64xf32>
  %x35 = stablehlo.add %x34, %x34 : tensor<64xf32>
  %x36 = stablehlo.add %x35, %x35 : tensor<64xf32>
  %x37 = stablehlo.add %x36, %x36 : tensor<64xf32>
  %x38 = stablehlo.add %x37, %x37 : tensor<64xf32>
  %x39 = stablehlo.add %x38, %x38 : tensor<64xf32>
  %x40 = stablehlo.add %x39, %x39 : tensor<64xf32>
  %x41 = stablehlo.add %x40, %x40 : tensor<64xf32>
  %x42 = stablehlo.add %x41, %x41 : tensor<64xf32>
  %x43 = stablehlo.add %x42, %x42 : tensor<64xf32>
  %x44 = stablehlo.add %x43, %x43 : tensor<64xf32>
  %x45 = stablehlo.add %x44, %x44 : tensor<64xf32>
  %x46 = stablehlo.add %x45, %x45 : tensor<64xf32>
  %x47 = stablehlo.add %x46, %x46 : tensor<64xf32>
  %x48 = stablehlo.add %x47, %x47 : tensor<64xf32>
  %x49 = stablehlo.add %x48, %x48 : tensor<64xf32>
  %x50 = stablehlo.add %x49, %x49 : tensor<64xf32>
  %x51 = stablehlo.add %x50, %x50 : tensor<64xf32>
  %x52 = stablehlo.add %x51, %x51 : tensor<64xf32>
  %x53 = stablehlo.add %x52, %x52 : tensor<64xf32>
  %x54 = stablehlo.add %x53, %x53 : tensor<64xf32>
  %x55 = stablehlo.add %x54, %x54 : tensor<64xf32>
  %x56 = stablehlo.add %x55, %x55 : tensor<64xf32>
  %x57 = stablehlo.add %x56, %x56 : tensor<64xf32>
  %x58 = stablehlo.add %x57, %x57 : tensor<64xf32>
  %x59 = stablehlo.add %x58, %x58 : tensor<64xf32>
  %x60 = stablehlo.add %x59, %x59 : tensor<64xf32>
  func.return %x60 : tensor<64xf32>
}
