// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s
// RUN: xlir-opt %s -p loop-to-llvm | xlir-translate - | filecheck %s --check-prefix=IR

// Unsigned casts of register tiles' vectors lower lane by lane as on scalars:
// `uitofp` of lanes under 64 bits is `sitofp` of the lanes zero-extended (a
// one-hot's vector of i1 to i32); of i64 lanes, `sitofp` of each lane halved
// (its sticky bit kept) and doubled where the lane is negative as signed;
// `fptoui` is the saturating intrinsic on the vector type.

// CHECK-LABEL: llvm.func internal @casts
// CHECK:         %[[HIT:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-NEXT:    %[[HW:.*]] = llvm.zext %[[HIT]] : vector<8xi1> to vector<8xi32>
// CHECK-NEXT:    llvm.sitofp %[[HW]] : vector<8xi32> to vector<8xf32>
// CHECK:         %[[XW:.*]] = llvm.zext %{{.*}} : vector<8xi32> to vector<8xi64>
// CHECK-NEXT:    llvm.sitofp %[[XW]] : vector<8xi64> to vector<8xf32>
// CHECK:         %[[Y:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<8xi64>
// CHECK:         %[[ONE:.*]] = llvm.shufflevector %{{.*}} [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xi64>
// CHECK-NEXT:    %[[HALF:.*]] = llvm.lshr %[[Y]], %[[ONE]] : vector<8xi64>
// CHECK-NEXT:    %[[STICKY:.*]] = llvm.and %[[Y]], %[[ONE]] : vector<8xi64>
// CHECK-NEXT:    %[[HALVED:.*]] = llvm.or %[[HALF]], %[[STICKY]] : vector<8xi64>
// CHECK-NEXT:    %[[H:.*]] = llvm.sitofp %[[HALVED]] : vector<8xi64> to vector<8xf32>
// CHECK-NEXT:    %[[DOUBLED:.*]] = llvm.fadd %[[H]], %[[H]] : vector<8xf32>
// CHECK-NEXT:    %[[DIRECT:.*]] = llvm.sitofp %[[Y]] : vector<8xi64> to vector<8xf32>
// CHECK:         %[[NEG:.*]] = llvm.icmp "slt" %[[Y]], %{{.*}} : vector<8xi64>
// CHECK-NEXT:    %[[G:.*]] = llvm.select %[[NEG]], %[[DOUBLED]], %[[DIRECT]] : vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    llvm.call_intrinsic "llvm.fptoui.sat.v8i32.v8f32"(%[[G]]) : (vector<8xf32>) -> vector<8xi32>
// CHECK:         %[[KW:.*]] = llvm.zext %{{.*}} : vector<8xi8> to vector<8xi32>
// CHECK-NEXT:    llvm.sitofp %[[KW]] : vector<8xi32> to vector<8xf32>

// IR: zext <8 x i1> %{{.*}} to <8 x i32>
// IR: sitofp <8 x i64> %{{.*}} to <8 x float>
// IR: select <8 x i1> %{{.*}}, <8 x float> %{{.*}}, <8 x float> %{{.*}}
// IR: call <8 x i32> @llvm.fptoui.sat.v8i32.v8f32(<8 x float> %{{.*}})
// IR: sitofp <8 x i32> %{{.*}} to <8 x float>
loop.kernel @casts(%a: memref<8xi32>, %b: memref<8xi64>, %c: memref<8xf32>, %d: memref<8xi32>, %e: memref<8xi8>) {
  %z = arith.constant 0 : index
  %x = loop.load %a[%z] : memref<8xi32>, vector<8xi32>
  %hit = arith.cmpi eq, %x, %x : vector<8xi32>
  %one = arith.uitofp %hit : vector<8xi1> to vector<8xf32>
  loop.store %one, %c[%z] : memref<8xf32>, vector<8xf32>
  %f = arith.uitofp %x : vector<8xi32> to vector<8xf32>
  loop.store %f, %c[%z] : memref<8xf32>, vector<8xf32>
  %y = loop.load %b[%z] : memref<8xi64>, vector<8xi64>
  %g = arith.uitofp %y : vector<8xi64> to vector<8xf32>
  %u = arith.fptoui %g : vector<8xf32> to vector<8xi32>
  loop.store %u, %d[%z] : memref<8xi32>, vector<8xi32>
  %h = loop.load %e[%z] : memref<8xi8>, vector<8xi8>
  %k = arith.uitofp %h : vector<8xi8> to vector<8xf32>
  loop.store %k, %c[%z] : memref<8xf32>, vector<8xf32>
  loop.return
}
