// arith.dot_quads adds to each i32 lane the four products of the unsigned
// bytes of its lhs with the signed bytes of its rhs, wrapping like
// arith.addi, on scalars and vectors: the loop evaluator, the cpu target's
// plain integer code (byte-dot-bits=0, as on a host without VNNI) and, on
// a host with VNNI, vpdpbusd give the same bits.
// lhs 0x010080FF: bytes 255, 128, 0, 1; rhs 0x05FF7F80: bytes -128, 127, -1, 5
// -> 255 * -128 + 128 * 127 + 0 + 5 = -16379; 1000 - 16379 = -15379.
// lhs 0xFFFFFFFF, rhs 0x7F7F7F7F: 4 * 255 * 127 = 129540, added to
// 2^31 - 1: wraps to -2147354109.

// RUN: xlir-run %s 2>&1 | filecheck %s
// RUN: xlir-run %s --target cpu 2>&1 | filecheck %s
// RUN: xlir-opt %s -p 'loop-to-llvm,device-to-llvm' | filecheck %s --check-prefix=PLAIN
// RUN: xlir-opt %s -p 'loop-to-llvm{byte-dot-bits=512},device-to-llvm' | filecheck %s --check-prefix=VNNI
// CHECK: out0: tensor<5xi32> = [{{ *}}-15379 {{ *}}-15379 {{ *}}-15379 {{ *}}-15379 -2147354109]

// PLAIN-NOT: vpdpbusd
// PLAIN:     llvm.ashr
// VNNI:      llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.128"({{.*}}) : (vector<4xi32>, vector<4xi32>, vector<4xi32>) -> vector<4xi32>
loop.kernel @quads(%out: memref<5xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = arith.constant 1000 : i32
  %l = arith.constant 16810239 : i32
  %r = arith.constant 100630400 : i32
  %av = vector.broadcast %a : i32 to vector<4xi32>
  %lv = vector.broadcast %l : i32 to vector<4xi32>
  %rv = vector.broadcast %r : i32 to vector<4xi32>
  %v = arith.dot_quads %av, %lv, %rv : vector<4xi32>
  loop.store %v, %out[%c0] : memref<5xi32>, vector<4xi32>
  %as = arith.constant 2147483647 : i32
  %ls = arith.constant -1 : i32
  %rs = arith.constant 2139062143 : i32
  %s = arith.dot_quads %as, %ls, %rs : i32
  loop.store %s, %out[%c4] : memref<5xi32>
  loop.return
}
func.func @main() -> memref<5xi32> {
  %s = device.default_stream
  %out = device.alloc : memref<5xi32>
  device.launch @quads(%out) on %s : memref<5xi32>
  device.synchronize %s
  func.return %out : memref<5xi32>
}
