// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @special
func.func @special(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  // CHECK: %{{.*}} = chlo.erf %{{.*}} : tensor<4x128xf32> -> tensor<4x128xf32>
  // GENERIC: "chlo.erf"(%{{.*}}) : (tensor<4x128xf32>) -> tensor<4x128xf32>
  %0 = chlo.erf %x : tensor<4x128xf32> -> tensor<4x128xf32>
  // CHECK: chlo.erfc %{{.*}} : tensor<4x128xf32> -> tensor<4x128xf32>
  %1 = chlo.erfc %0 : tensor<4x128xf32> -> tensor<4x128xf32>
  // CHECK: chlo.erf_inv %{{.*}} : tensor<4x128xf32> -> tensor<4x128xf32>
  %2 = chlo.erf_inv %1 : tensor<4x128xf32> -> tensor<4x128xf32>
  // CHECK: chlo.lgamma %{{.*}} : tensor<4x128xf32> -> tensor<4x128xf32>
  %3 = chlo.lgamma %2 : tensor<4x128xf32> -> tensor<4x128xf32>
  // CHECK: chlo.digamma %{{.*}} : tensor<4x128xf32> -> tensor<4x128xf32>
  %4 = chlo.digamma %3 : tensor<4x128xf32> -> tensor<4x128xf32>
  // CHECK: chlo.bessel_i1e %{{.*}} {note = "kept"} : tensor<4x128xf32> -> tensor<4x128xf32>
  %5 = chlo.bessel_i1e %4 {note = "kept"} : tensor<4x128xf32> -> tensor<4x128xf32>
  func.return %5 : tensor<4x128xf32>
}

// CHECK-LABEL: func.func @trig
func.func @trig(%x: tensor<8xf64>, %z: tensor<2xcomplex<f32>>) -> tensor<8xf64> {
  // CHECK: chlo.acos %{{.*}} : tensor<8xf64> -> tensor<8xf64>
  %0 = chlo.acos %x : tensor<8xf64> -> tensor<8xf64>
  // CHECK: chlo.acosh %{{.*}} : tensor<8xf64> -> tensor<8xf64>
  %1 = chlo.acosh %0 : tensor<8xf64> -> tensor<8xf64>
  // CHECK: chlo.asin %{{.*}} : tensor<8xf64> -> tensor<8xf64>
  %2 = chlo.asin %1 : tensor<8xf64> -> tensor<8xf64>
  // CHECK: chlo.asinh %{{.*}} : tensor<8xf64> -> tensor<8xf64>
  %3 = chlo.asinh %2 : tensor<8xf64> -> tensor<8xf64>
  // CHECK: chlo.atan %{{.*}} : tensor<8xf64> -> tensor<8xf64>
  %4 = chlo.atan %3 : tensor<8xf64> -> tensor<8xf64>
  // CHECK: chlo.atanh %{{.*}} : tensor<8xf64> -> tensor<8xf64>
  %5 = chlo.atanh %4 : tensor<8xf64> -> tensor<8xf64>
  // CHECK: chlo.cosh %{{.*}} : tensor<8xf64> -> tensor<8xf64>
  %6 = chlo.cosh %5 : tensor<8xf64> -> tensor<8xf64>
  // CHECK: chlo.sinh %{{.*}} : tensor<8xf64> -> tensor<8xf64>
  %7 = chlo.sinh %6 : tensor<8xf64> -> tensor<8xf64>
  // CHECK: chlo.tan %{{.*}} : tensor<8xf64> -> tensor<8xf64>
  %8 = chlo.tan %7 : tensor<8xf64> -> tensor<8xf64>
  // CHECK: chlo.conj %{{.*}} : tensor<8xf64> -> tensor<8xf64>
  %9 = chlo.conj %8 : tensor<8xf64> -> tensor<8xf64>
  // CHECK: chlo.conj %{{.*}} : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  %10 = chlo.conj %z : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  // CHECK: chlo.asin %{{.*}} : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  %11 = chlo.asin %10 : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  func.return %9 : tensor<8xf64>
}

// CHECK-LABEL: func.func @predicates
func.func @predicates(%x: tensor<3x5xbf16>) -> (tensor<3x5xi1>, tensor<3x5xi1>, tensor<3x5xi1>) {
  // CHECK: chlo.is_inf %{{.*}} : tensor<3x5xbf16> -> tensor<3x5xi1>
  // GENERIC: "chlo.is_inf"(%{{.*}}) : (tensor<3x5xbf16>) -> tensor<3x5xi1>
  %0 = chlo.is_inf %x : tensor<3x5xbf16> -> tensor<3x5xi1>
  // CHECK: chlo.is_neg_inf %{{.*}} : tensor<3x5xbf16> -> tensor<3x5xi1>
  %1 = chlo.is_neg_inf %x : tensor<3x5xbf16> -> tensor<3x5xi1>
  // CHECK: chlo.is_pos_inf %{{.*}} : tensor<3x5xbf16> -> tensor<3x5xi1>
  %2 = chlo.is_pos_inf %x : tensor<3x5xbf16> -> tensor<3x5xi1>
  func.return %0, %1, %2 : tensor<3x5xi1>, tensor<3x5xi1>, tensor<3x5xi1>
}

// CHECK-LABEL: func.func @top_k
func.func @top_k(%arg0: tensor<256x1024xf32>, %v: tensor<16xi32>) -> (tensor<256x8xf32>, tensor<256x8xi32>) {
  // CHECK: %{{.*}}, %{{.*}} = chlo.top_k(%{{.*}}, k = 8) : tensor<256x1024xf32> -> (tensor<256x8xf32>, tensor<256x8xi32>)
  // GENERIC: "chlo.top_k"(%{{.*}}) <{k = 8 : i64}> : (tensor<256x1024xf32>) -> (tensor<256x8xf32>, tensor<256x8xi32>)
  %values, %indices = chlo.top_k(%arg0, k = 8) : tensor<256x1024xf32> -> (tensor<256x8xf32>, tensor<256x8xi32>)
  // CHECK: chlo.top_k(%{{.*}}, k = 16) : tensor<16xi32> -> (tensor<16xi32>, tensor<16xi64>)
  %a:2 = chlo.top_k(%v, k = 16) : tensor<16xi32> -> (tensor<16xi32>, tensor<16xi64>)
  func.return %values, %indices : tensor<256x8xf32>, tensor<256x8xi32>
}
