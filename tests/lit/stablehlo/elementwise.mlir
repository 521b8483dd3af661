// RUN: xlir-opt %s | xlir-opt | filecheck %s

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4xf32>, %i: tensor<4xi32>) -> tensor<4xf32> {
  // CHECK: %{{.*}} = stablehlo.abs %{{.*}} : tensor<4xf32>
  %0 = stablehlo.abs %x : tensor<4xf32>
  // CHECK: stablehlo.exponential %{{.*}} : tensor<4xf32>
  %1 = stablehlo.exponential %0 : tensor<4xf32>
  // CHECK: stablehlo.tanh %{{.*}} : tensor<4xf32>
  %2 = stablehlo.tanh %1 : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: stablehlo.popcnt %{{.*}} : tensor<4xi32>
  %3 = stablehlo.popcnt %i : tensor<4xi32>
  func.return %2 : tensor<4xf32>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<2x3xi32>, %b: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<2x3xi32>
  %0 = stablehlo.add %a, %b : tensor<2x3xi32>
  // CHECK: stablehlo.shift_right_arithmetic %{{.*}}, %{{.*}} : tensor<2x3xi32>
  %1 = stablehlo.shift_right_arithmetic %0, %b : tensor<2x3xi32>
  func.return %1 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @compare_select
func.func @compare_select(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}}, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.compare GE, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare GE, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
  %2 = stablehlo.select %0, %a, %b : tensor<4xi1>, tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// CHECK-LABEL: func.func @conversions
func.func @conversions(%a: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xi32> {
  // CHECK: stablehlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: stablehlo.convert %{{.*}} : tensor<f32>
  %1 = stablehlo.convert %s : tensor<f32>
  // CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4xui32>
  %2 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4xui32>
  // CHECK: stablehlo.is_finite %{{.*}} : (tensor<4xf32>) -> tensor<4xi1>
  %3 = stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = stablehlo.clamp %s, %a, %s : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xi32>
}
