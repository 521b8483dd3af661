// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s
// RUN: xlir-opt %s -p loop-to-llvm | xlir-translate - | filecheck %s --check-prefix=IR

// A register tile's gathered load (a transposed operand's column,
// passes/loop/jam_vector.py): lane 0 broadcast, each other lane's scalar put
// in by `vector.insert`, which is an insertelement at its constant lane; on
// bf16 it moves the i16 that holds the bits.
// CHECK-LABEL: llvm.func internal @gathered
// CHECK:         %[[L:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         %[[Y:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         %[[S:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT:    %{{.*}} = llvm.insertelement %[[Y]], %[[S]][%[[L]] : i32] : vector<4xf32>
// CHECK:         llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi16>
// IR: insertelement <4 x float> %{{.*}}, float %{{.*}}, i32 3
loop.kernel @gathered(%a: memref<4x4xf32>, %b: memref<4xf32>, %h: memref<4xbf16>, %o: memref<4xbf16>) {
  %i = arith.constant 1 : index
  %j = arith.constant 2 : index
  %x = loop.load %a[%i, %i] : memref<4x4xf32>
  %y = loop.load %a[%j, %i] : memref<4x4xf32>
  %s = vector.broadcast %x : f32 to vector<4xf32>
  %v = vector.insert %y, %s [3] : f32 into vector<4xf32>
  %z = arith.constant 0 : index
  loop.store %v, %b[%z] : memref<4xf32>, vector<4xf32>
  %p = loop.load %h[%i] : memref<4xbf16>
  %q = loop.load %h[%j] : memref<4xbf16>
  %t = vector.broadcast %p : bf16 to vector<4xbf16>
  %u = vector.insert %q, %t [1] : bf16 into vector<4xbf16>
  loop.store %u, %o[%z] : memref<4xbf16>, vector<4xbf16>
  loop.return
}
