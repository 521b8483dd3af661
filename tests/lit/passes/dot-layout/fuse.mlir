// RUN: xlir-opt %s -p dot-layout,cse,dce,fuse | filecheck %s
// RUN: xlir-opt %s -p inline,decompose,simplify,fold-constants,cse,dce,dot-layout,fuse,assign-buffers | filecheck %s --check-prefix=PIPE

// The transpose dot-layout inserts is materialized: `fuse` puts it (with the
// elementwise op producing the rhs) in a loop fusion of its own, and the
// dot's output fusion reads that fusion's result; the passes after it do not
// fold it back into the dot.

// CHECK-LABEL: func.func @scaled_a_bt
// CHECK:      %[[T:.*]] = hlo.fusion kind = loop (%b, %s) {{.*}} -> tensor<64x96xf32> {
// CHECK:        stablehlo.multiply
// CHECK:        stablehlo.transpose {{.*}} dims = [1, 0] : (tensor<96x64xf32>) -> tensor<64x96xf32>
// CHECK:      hlo.fusion kind = output (%a, %[[T]], %c)
// CHECK:        stablehlo.dot_general {{.*}} contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x96xf32>) -> tensor<8x96xf32>
// CHECK:        stablehlo.add
// PIPE-LABEL: func.func @scaled_a_bt
// PIPE:       hlo.fusion kind = loop (%b, %s) {{.*}} -> tensor<64x96xf32>
// PIPE:       stablehlo.dot_general {{.*}} contracting_dims = [1] x [0]
func.func @scaled_a_bt(%a: tensor<8x64xf32>, %b: tensor<96x64xf32>, %s: tensor<96x64xf32>, %c: tensor<8x96xf32>) -> tensor<8x96xf32> {
  %w = stablehlo.multiply %b, %s : tensor<96x64xf32>
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<96x64xf32>) -> tensor<8x96xf32>
  %1 = stablehlo.add %0, %c : tensor<8x96xf32>
  func.return %1 : tensor<8x96xf32>
}
