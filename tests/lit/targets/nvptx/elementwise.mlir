// RUN: xlir-compile --target nvptx %s -o %t.ptx
// RUN: filecheck %s < %t.ptx

// 4096 elements: each thread does 4 neighbours (XLA's unroll), its buffers
// are 16-byte aligned (cuMemAlloc's allocations, passed whole), so the four
// loads and stores are one vector access each, the inputs through the
// non-coherent cache.
// CHECK:      .visible .entry fusion_1(
// CHECK-NEXT:   .param .u64 .ptr .align 16 fusion_1_param_0,
// CHECK:        ld.global.nc.v4.b32
// CHECK:        ld.global.nc.v4.b32
// CHECK:        st.global.v4.b32
func.func @main(%x: tensor<4096xf32>, %y: tensor<4096xf32>) -> tensor<4096xf32> {
  %p = stablehlo.multiply %x, %y : tensor<4096xf32>
  %s = stablehlo.add %p, %x : tensor<4096xf32>
  return %s : tensor<4096xf32>
}
