// RUN: xlir-opt %s -p sort-routines --split-input-file | filecheck %s

// A top_k whose elements order as their bits (floats of 16 to 64 bits,
// bf16, integers of 8 to 64 bits) with i32 or i64 indices goes to the
// top_k routine.
// CHECK-LABEL: func.func @marked
// CHECK:         chlo.top_k(%x, k = 2) {xlir.top_k_routine}
// CHECK:         chlo.top_k(%b, k = 1) {xlir.top_k_routine}
// CHECK:         chlo.top_k(%u, k = 3) {xlir.top_k_routine}
func.func @marked(%x: tensor<4x8xf32>, %b: tensor<5xbf16>, %u: tensor<2x6xui16>) -> (tensor<4x2xi32>, tensor<1xi64>, tensor<2x3xi32>) {
  %v, %i = chlo.top_k(%x, k = 2) : tensor<4x8xf32> -> (tensor<4x2xf32>, tensor<4x2xi32>)
  %bv, %bi = chlo.top_k(%b, k = 1) : tensor<5xbf16> -> (tensor<1xbf16>, tensor<1xi64>)
  %uv, %ui = chlo.top_k(%u, k = 3) : tensor<2x6xui16> -> (tensor<2x3xui16>, tensor<2x3xi32>)
  func.return %i, %bi, %ui : tensor<4x2xi32>, tensor<1xi64>, tensor<2x3xi32>
}

// -----

// Booleans, float8 formats (keyed by their f32 value) and i16 indices keep
// the selection kernel.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT:     xlir.top_k_routine
func.func @unmarked(%p: tensor<8xi1>, %f: tensor<8xf8E4M3FNUZ>, %x: tensor<8xf32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi16>) {
  %pv, %pi = chlo.top_k(%p, k = 2) : tensor<8xi1> -> (tensor<2xi1>, tensor<2xi32>)
  %fv, %fi = chlo.top_k(%f, k = 2) : tensor<8xf8E4M3FNUZ> -> (tensor<2xf8E4M3FNUZ>, tensor<2xi32>)
  %xv, %xi = chlo.top_k(%x, k = 2) : tensor<8xf32> -> (tensor<2xf32>, tensor<2xi16>)
  func.return %pi, %fi, %xi : tensor<2xi32>, tensor<2xi32>, tensor<2xi16>
}
