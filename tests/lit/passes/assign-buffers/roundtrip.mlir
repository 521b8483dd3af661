// The plan attributes print, parse back and print the same.
// The attributes are #hlo.buffer (one per result, on each top-level op) and
// #hlo.plan (on each function), defined in dialects/hlo_buffers.py and
// registered in the hlo dialect.
// RUN: xlir-opt %s -p assign-buffers | xlir-opt | filecheck %s
// RUN: xlir-opt %s -p assign-buffers --print-op-generic | xlir-opt | filecheck %s

// CHECK-LABEL: func.func @roundtrip
// CHECK-SAME:  hlo.plan = #hlo.plan<arena = 4096, alignment = 64, arguments = 8192, outputs = 4096, alias = 4096, constants = 4>
// CHECK:       stablehlo.constant {hlo.buffers = [#hlo.buffer<const>]}
// CHECK-NEXT:  stablehlo.reshape {{.*}}[#hlo.buffer<arg 1>]
// CHECK-NEXT:  stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK-NEXT:  stablehlo.add {{.*}}[#hlo.buffer<out 0, arg 0>]
func.func @roundtrip(%w: tensor<1024xf32> {tf.aliasing_output = 0 : i32}, %g: tensor<32x32xf32>) -> tensor<1024xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %v = stablehlo.reshape %g : (tensor<32x32xf32>) -> tensor<1024xf32>
  %e = stablehlo.exponential %v : tensor<1024xf32>
  %r = stablehlo.add %w, %e : tensor<1024xf32>
  func.return %r : tensor<1024xf32>
}
