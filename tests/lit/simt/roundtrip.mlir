// RUN: xlir-opt %s | xlir-opt | filecheck %s

// The two ops of the simt dialect print as they parse.
// CHECK-LABEL: loop.kernel @shuffles
// CHECK:         simt.shuffle_xor %{{.*}}, 16 : i32 : f32
// CHECK:         simt.shared_memory : memref<8xf32>
loop.kernel @shuffles(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %v = loop.load %x[%c0] : memref<8xf32>
  %w = simt.shuffle_xor %v, 16 : i32 : f32
  %s = simt.shared_memory : memref<8xf32>
  loop.store %w, %s[%c0] : memref<8xf32>
  loop.return
}
