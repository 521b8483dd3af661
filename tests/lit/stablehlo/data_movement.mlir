// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s

// CHECK-LABEL: func.func @constants
func.func @constants() -> tensor<f32> {
  // Bit patterns stay bit patterns: -inf, NaN, -0.0, bf16 +inf.
  // CHECK: stablehlo.constant dense<0xff800000> : tensor<f32>
  %0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  // CHECK: stablehlo.constant dense<[0x7fc00000, 1.000000e+00, -0.000000e+00]> : tensor<3xf32>
  %1 = stablehlo.constant dense<[0x7FC00000, 1.0, 0x80000000]> : tensor<3xf32>
  // CHECK: stablehlo.constant dense<0x7f80> : tensor<bf16>
  %2 = stablehlo.constant dense<0x7F80> : tensor<bf16>
  // CHECK: stablehlo.constant dense<1.000000e-05> : tensor<f32>
  %3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
  // CHECK: stablehlo.constant dense<true> : tensor<i1>
  %4 = stablehlo.constant dense<true> : tensor<i1>
  // CHECK: stablehlo.constant dense<-2147483648> : tensor<i32>
  %5 = stablehlo.constant dense<-2147483648> : tensor<i32>
  // CHECK: stablehlo.constant dense<{{\[}}[0, 0], [1023, 0]]> : tensor<2x2xi64>
  %6 = stablehlo.constant dense<[[0, 0], [1023, 0]]> : tensor<2x2xi64>
  // CHECK: stablehlo.constant dense<[-1.000000e+00, 2.500000e-01]> : tensor<2xf32>
  %7 = stablehlo.constant dense<"0x000080BF0000803E"> : tensor<2xf32>
  // CHECK: stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
  %8 = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
  func.return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<4x8xf32>, %s: tensor<f32>, %i: tensor<i32>) -> tensor<4x8xf32> {
  // CHECK: stablehlo.iota dim = 1 : tensor<4x8xi32>
  %0 = stablehlo.iota dim = 1 : tensor<4x8xi32>
  // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %1 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  // CHECK: stablehlo.reshape %{{.*}} : (tensor<4x8xf32>) -> tensor<32xf32>
  %2 = stablehlo.reshape %x : (tensor<4x8xf32>) -> tensor<32xf32>
  // CHECK: stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %3 = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  // CHECK: stablehlo.reverse %{{.*}}, dims = [0] : tensor<4x8xf32>
  %4 = stablehlo.reverse %x, dims = [0] : tensor<4x8xf32>
  // CHECK: stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %5 = stablehlo.concatenate %x, %4, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  // CHECK: stablehlo.slice %{{.*}} [0:4:2, 1:8] : (tensor<4x8xf32>) -> tensor<2x7xf32>
  %6 = stablehlo.slice %x [0:4:2, 1:8] : (tensor<4x8xf32>) -> tensor<2x7xf32>
  // CHECK: stablehlo.pad %{{.*}}, %{{.*}}, low = [1, -1], high = [0, 2], interior = [1, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8x9xf32>
  %7 = stablehlo.pad %x, %s, low = [1, -1], high = [0, 2], interior = [1, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8x9xf32>
  // CHECK: stablehlo.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, sizes = [2, 4] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  %8 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 4] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  // CHECK: stablehlo.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  %9 = stablehlo.dynamic_update_slice %x, %8, %i, %i : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  // CHECK: stablehlo.get_dimension_size %{{.*}}, dim = 1 : (tensor<4x8xf32>) -> tensor<i32>
  %10 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<4x8xf32>) -> tensor<i32>
  func.return %9 : tensor<4x8xf32>
}
