// RUN: xlir-opt %s --split-input-file --verify-diagnostics

loop.kernel @wide(%x: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %v = loop.load %x[%c0] : memref<8xf64>
  // expected-error @+1 {{'simt.shuffle_xor' op shuffles f32 or i32, not f64}}
  %w = simt.shuffle_xor %v, 1 : i32 : f64
  loop.return
}

// -----

loop.kernel @past_the_warp(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %v = loop.load %x[%c0] : memref<8xf32>
  // expected-error @+1 {{'simt.shuffle_xor' op offset 32 must be in [1, 32)}}
  %w = simt.shuffle_xor %v, 32 : i32 : f32
  loop.return
}
