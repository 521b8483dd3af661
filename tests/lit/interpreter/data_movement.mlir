// RUN: xlir-run --check --split-input-file %s | filecheck %s

// CHECK: PASS @iota_broadcast_reshape_transpose
func.func @iota_broadcast_reshape_transpose() {
  %0 = stablehlo.iota dim = 1 : tensor<2x3xi32>
  check.expect_eq_const %0, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  %1 = stablehlo.iota dim = 0 : tensor<3xf32>
  check.expect_eq_const %1, dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
  %v = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %2 = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %2, dense<[[1, 1, 1], [2, 2, 2]]> : tensor<2x3xi32>
  %m = stablehlo.constant dense<[[1, 2, 3]]> : tensor<1x3xi32>
  %3 = stablehlo.broadcast_in_dim %m, dims = [0, 2] : (tensor<1x3xi32>) -> tensor<2x2x3xi32>
  check.expect_eq_const %3, dense<[[[1, 2, 3], [1, 2, 3]], [[1, 2, 3], [1, 2, 3]]]> : tensor<2x2x3xi32>
  %t = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %4 = stablehlo.broadcast_in_dim %t, dims = [1, 0] : (tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %4, dense<[[1, 3], [2, 4]]> : tensor<2x2xi32>
  %5 = stablehlo.reshape %0 : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %5, dense<[[0, 1], [2, 0], [1, 2]]> : tensor<3x2xi32>
  %6 = stablehlo.transpose %0, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %6, dense<[[0, 0], [1, 1], [2, 2]]> : tensor<3x2xi32>
  %s = stablehlo.constant dense<7> : tensor<i32>
  %7 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1x1xi32>
  check.expect_eq_const %7, dense<[[7]]> : tensor<1x1xi32>
  func.return
}

// -----

// CHECK: PASS @reverse_concatenate_slice
func.func @reverse_concatenate_slice() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = stablehlo.reverse %x, dims = [1] : tensor<2x3xi32>
  check.expect_eq_const %0, dense<[[3, 2, 1], [6, 5, 4]]> : tensor<2x3xi32>
  %1 = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xi32>
  check.expect_eq_const %1, dense<[[6, 5, 4], [3, 2, 1]]> : tensor<2x3xi32>
  %2 = stablehlo.concatenate %x, %0, dim = 1 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x6xi32>
  check.expect_eq_const %2, dense<[[1, 2, 3, 3, 2, 1], [4, 5, 6, 6, 5, 4]]> : tensor<2x6xi32>
  %e = stablehlo.constant dense<> : tensor<0x3xi32>
  %3 = stablehlo.concatenate %e, %x, dim = 0 : (tensor<0x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq %3, %x : tensor<2x3xi32>
  %4 = stablehlo.slice %2 [0:2, 1:6:2] : (tensor<2x6xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %4, dense<[[2, 3, 1], [5, 6, 4]]> : tensor<2x3xi32>
  %5 = stablehlo.slice %2 [1:1, 0:6] : (tensor<2x6xi32>) -> tensor<0x6xi32>
  check.expect_eq_const %5, dense<> : tensor<0x6xi32>
  func.return
}

// -----

// CHECK: PASS @pad
func.func @pad() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.pad %x, %z, low = [1, 0], high = [0, 1], interior = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<3x6xi32>
  check.expect_eq_const %0, dense<[[0, 0, 0, 0, 0, 0], [1, 0, 2, 0, 3, 0], [4, 0, 5, 0, 6, 0]]> : tensor<3x6xi32>
  // negative edge padding removes elements (after interior padding)
  %1 = stablehlo.pad %x, %z, low = [0, -1], high = [-1, -2], interior = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<1x2xi32>
  check.expect_eq_const %1, dense<[[0, 2]]> : tensor<1x2xi32>
  %f = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %n = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %2 = stablehlo.pad %f, %n, low = [2], high = [1], interior = [5] : (tensor<1xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %2, dense<[0x7FC00000, 0x7FC00000, 1.0, 0x7FC00000]> : tensor<4xf32>
  func.return
}

// -----

// CHECK: PASS @dynamic_slices_clamp
func.func @dynamic_slices_clamp() {
  %x = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
  %i = stablehlo.constant dense<5> : tensor<i32>
  %j = stablehlo.constant dense<-3> : tensor<i32>
  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<3x4xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
  check.expect_eq_const %0, dense<[[5, 6], [9, 10]]> : tensor<2x2xi32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %1 = stablehlo.dynamic_slice %x, %one, %one, sizes = [1, 3] : (tensor<3x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1x3xi32>
  check.expect_eq_const %1, dense<[[6, 7, 8]]> : tensor<1x3xi32>
  %u = stablehlo.constant dense<[[0, 0, 0]]> : tensor<1x3xi32>
  %2 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<3x4xi32>, tensor<1x3xi32>, tensor<i32>, tensor<i32>) -> tensor<3x4xi32>
  check.expect_eq_const %2, dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 0, 0, 0]]> : tensor<3x4xi32>
  // the operand itself is unchanged
  check.expect_eq_const %x, dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
  func.return
}

// -----

// CHECK: PASS @get_dimension_size
func.func @get_dimension_size() {
  %x = stablehlo.constant dense<0.0> : tensor<3x5xf32>
  %0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<3x5xf32>) -> tensor<i32>
  check.expect_eq_const %0, dense<5> : tensor<i32>
  func.return
}

// CHECK: {{^}}5 passed, 0 failed
