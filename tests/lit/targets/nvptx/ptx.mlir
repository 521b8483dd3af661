// RUN: xlir-compile --target nvptx %s -o %t.ptx
// RUN: filecheck %s --check-prefix=PTX < %t.ptx
// RUN: filecheck %s --check-prefix=MANIFEST < %t.manifest.json
// RUN: xlir-compile --target nvptx --sm 90 %s -o %t.sm90.ptx
// RUN: filecheck %s --check-prefix=SM90 < %t.sm90.ptx
// RUN: not xlir-compile --target nvptx %s -o - 2>&1 | filecheck %s --check-prefix=STDOUT
// STDOUT: -o -: this target writes files beside its output (.manifest.json); name an output file

// Softmax over rows: two row reductions (max, sum) and elementwise work.
// Each fusion is one `.visible .entry`; the row reductions shuffle within
// warps and meet at a barrier; buffers a kernel only reads are loaded
// through the non-coherent cache. A kernel that runs on its own block size
// only (barriers) declares it, so ptxas keeps its registers within what a
// block of that many threads may hold; the elementwise one (any block
// size) does not.
// PTX:       .target sm_80
// PTX:       .visible .entry fusion_1(
// PTX:       .maxntid 128
// PTX:         ld.global.nc.b32
// PTX:         shfl.sync.bfly.b32
// PTX:         bar.sync 0;
// PTX:       .visible .entry fusion_2(
// PTX:       .visible .entry fusion_3(
// PTX-NOT:   .maxntid
// SM90:      .target sm_90

// MANIFEST:      "format": "xlir-nvptx-manifest",
// MANIFEST-NEXT: "version": 1,
// MANIFEST-NEXT: "sm": 80,
// MANIFEST-NEXT: "image": "{{.*}}.ptx",
// MANIFEST:      "name": "fusion_1",
// MANIFEST-NEXT: "grid": [
// MANIFEST-NEXT:   64,
// MANIFEST:      "block": [
// MANIFEST-NEXT:   128,
// MANIFEST:      "shared_bytes": 16,
// MANIFEST:      "inputs": [
// MANIFEST:        "shape": [
// MANIFEST-NEXT:     64,
// MANIFEST-NEXT:     128
// MANIFEST:        "dtype": "float32",
// MANIFEST-NEXT:   "buffer": 0,
// MANIFEST-NEXT:   "offset": 0
// MANIFEST:      "steps": [
// MANIFEST:        "op": "launch",
// MANIFEST-NEXT:   "kernel": "fusion_1",
func.func @main(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %max = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  %mb = stablehlo.broadcast_in_dim %max, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
  %d = stablehlo.subtract %x, %mb : tensor<64x128xf32>
  %e = stablehlo.exponential %d : tensor<64x128xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  %sb = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
  %r = stablehlo.divide %e, %sb : tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
