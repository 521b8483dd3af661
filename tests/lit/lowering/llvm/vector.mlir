// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s
// RUN: xlir-opt %s -p loop-to-llvm | xlir-translate - | filecheck %s --check-prefix=IR

// Vector ops of register tiles: a vector load or store is one llvm.load or
// llvm.store of the vector type at its first element, aligned as an element
// (LLVM would otherwise assume the vector's own size); a broadcast inserts
// lane 0 and shuffles it to every lane; arith and math ops keep their vector
// types (math.fma: llvm.fma.v4f32).

// CHECK-LABEL: llvm.func internal @tile
// CHECK:         %[[P:.*]] = llvm.getelementptr inbounds %{{.*}}[%{{.*}}, %{{.*}}] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<8 x f32>
// CHECK-NEXT:    %[[Y:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK:         %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK-NEXT:    %[[U:.*]] = llvm.mlir.undef : vector<4xf32>
// CHECK-NEXT:    %[[L0:.*]] = llvm.insertelement %[[X]], %[[U]][%{{.*}} : i32] : vector<4xf32>
// CHECK-NEXT:    %[[S:.*]] = llvm.shufflevector %[[L0]], %[[U]] [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT:    %[[F:.*]] = llvm.call_intrinsic "llvm.fma.v4f32"(%[[S]], %[[Y]], %{{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    %[[M:.*]] = llvm.call_intrinsic "llvm.maximum.v4f32"(%[[F]], %[[Y]]) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    %[[A:.*]] = llvm.fadd %[[M]], %[[Y]] : vector<4xf32>
// CHECK:         llvm.store %[[A]], %{{.*}} {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
// CHECK:         llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<2xf64>

// IR: load <4 x float>, ptr %{{.*}}, align 4
// IR: shufflevector <4 x float> %{{.*}}, <4 x float> undef, <4 x i32> zeroinitializer
// IR: call <4 x float> @llvm.fma.v4f32(
// IR: store <4 x float> %{{.*}}, ptr %{{.*}}, align 4
// IR: load <2 x double>, ptr %{{.*}}, align 8
loop.kernel @tile(%a: memref<4x8xf32>, %b: memref<8x8xf32>, %c: memref<4x8xf32>, %d: memref<2x2xf64>) {
  %i = arith.constant 1 : index
  %j = arith.constant 4 : index
  %y = loop.load %b[%i, %j] : memref<8x8xf32>, vector<4xf32>
  %x = loop.load %a[%i, %i] : memref<4x8xf32>
  %s = vector.broadcast %x : f32 to vector<4xf32>
  %f = math.fma %s, %y, %y : vector<4xf32>
  %m = arith.maximumf %f, %y : vector<4xf32>
  %r = arith.addf %m, %y : vector<4xf32>
  loop.store %r, %c[%i, %j] : memref<4x8xf32>, vector<4xf32>
  %z = arith.constant 0 : index
  %w = loop.load %d[%z, %z] : memref<2x2xf64>, vector<2xf64>
  loop.store %w, %d[%i, %z] : memref<2x2xf64>, vector<2xf64>
  loop.return
}

// A bf16 broadcast moves bits (a broadcast_in_dim of a bf16 row, found by
// the fuzzer): it broadcasts the i16 that holds them, where bf16
// arithmetic is refused.
// CHECK-LABEL: llvm.func internal @bf16_row
// CHECK:         %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK:         %[[L:.*]] = llvm.insertelement %[[X]], %{{.*}} : vector<4xi16>
// CHECK-NEXT:    %[[S:.*]] = llvm.shufflevector %[[L]], %{{.*}} [0, 0, 0, 0] : vector<4xi16>
// CHECK:         llvm.store %[[S]], %{{.*}} : vector<4xi16>, !llvm.ptr
// IR: shufflevector <4 x i16> %{{.*}}, <4 x i16> undef, <4 x i32> zeroinitializer
loop.kernel @bf16_row(%a: memref<6xbf16>, %b: memref<6x4xbf16>) {
  %i = arith.constant 1 : index
  %z = arith.constant 0 : index
  %x = loop.load %a[%i] : memref<6xbf16>
  %s = vector.broadcast %x : bf16 to vector<4xbf16>
  loop.store %s, %b[%i, %z] : memref<6x4xbf16>, vector<4xbf16>
  loop.return
}

// A bf16 tile's integer ops on vectors: the bits widened by a shift and
// bitcast to f32, and rounded back with compares and a select (a vector of
// i1 choosing lane by lane).
// CHECK-LABEL: llvm.func internal @bf16_lanes
// CHECK:         %[[Y:.*]] = llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr -> vector<4xi16>
// CHECK-NEXT:    %[[W:.*]] = llvm.zext %[[Y]] : vector<4xi16> to vector<4xi32>
// CHECK:         %[[H:.*]] = llvm.shl %[[W]], %{{.*}} : vector<4xi32>
// CHECK-NEXT:    %[[F:.*]] = llvm.bitcast %[[H]] : vector<4xi32> to vector<4xf32>
// CHECK-NEXT:    %[[B:.*]] = llvm.bitcast %[[F]] : vector<4xf32> to vector<4xi32>
// CHECK:         %[[C:.*]] = llvm.icmp "ugt" %[[B]], %{{.*}} : vector<4xi32>
// CHECK-NEXT:    %[[R:.*]] = llvm.lshr %[[B]], %{{.*}} : vector<4xi32>
// CHECK-NEXT:    %[[S:.*]] = llvm.select %[[C]], %[[B]], %[[R]] : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:    llvm.trunc %[[S]] : vector<4xi32> to vector<4xi16>
// IR-LABEL: define internal void @bf16_lanes
// IR: icmp ugt <4 x i32>
// IR: select <4 x i1> %{{.*}}, <4 x i32> %{{.*}}, <4 x i32>
loop.kernel @bf16_lanes(%a: memref<8xbf16>, %b: memref<8xbf16>) {
  %i = arith.constant 4 : index
  %y = loop.load %a[%i] : memref<8xbf16>, vector<4xbf16>
  %bits = arith.bitcast %y : vector<4xbf16> to vector<4xi16>
  %w = arith.extui %bits : vector<4xi16> to vector<4xi32>
  %c16 = arith.constant 16 : i32
  %s16 = vector.broadcast %c16 : i32 to vector<4xi32>
  %h = arith.shli %w, %s16 : vector<4xi32>
  %f = arith.bitcast %h : vector<4xi32> to vector<4xf32>
  %back = arith.bitcast %f : vector<4xf32> to vector<4xi32>
  %inf = arith.constant 2139095040 : i32
  %infs = vector.broadcast %inf : i32 to vector<4xi32>
  %nan = arith.cmpi ugt, %back, %infs : vector<4xi32>
  %r = arith.shrui %back, %s16 : vector<4xi32>
  %s = arith.select %nan, %back, %r : vector<4xi1>, vector<4xi32>
  %t = arith.trunci %s : vector<4xi32> to vector<4xi16>
  %o = arith.bitcast %t : vector<4xi16> to vector<4xbf16>
  loop.store %o, %b[%i] : memref<8xbf16>, vector<4xbf16>
  loop.return
}
