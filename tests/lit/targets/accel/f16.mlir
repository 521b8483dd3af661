// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// f16 moves in its f32 container (the DMA's f16 mode), `extf` is the
// container itself, and `truncf` rounds the f32 to the nearest f16 on the
// vector unit: (|x| + S) - S, S = 2^(max(e, -14) + 13) (the f32 adder's
// ties to even), infinity from 65520 (0x477FF000), NaN kept, the sign put
// back (half_floats.py).
// CHECK-LABEL: accel.kernel "halves", 2
// CHECK:         accel.dma.cfg {{.*}} "f16"
// CHECK:         %[[X:.*]] = accel.vfmul
// CHECK-NEXT:    %[[MAG:.*]] = accel.vand %[[X]], %{{.*}}
// CHECK-NEXT:    %[[EXP:.*]] = accel.vand %[[X]], %{{.*}}
// CHECK-NEXT:    %[[LOW:.*]] = accel.vmax %[[EXP]], %{{.*}}
// CHECK-NEXT:    %[[S:.*]] = accel.vadd %[[LOW]], %{{.*}}
// CHECK-NEXT:    %[[UP:.*]] = accel.vfadd %[[MAG]], %[[S]]
// CHECK-NEXT:    %[[ROUNDED:.*]] = accel.vfsub %[[UP]], %[[S]]
// CHECK-NEXT:    %[[BIG:.*]] = accel.vsle %{{.*}}, %[[MAG]]
// CHECK-NEXT:    %[[INF:.*]] = accel.vsel %[[BIG]], %{{.*}}, %[[ROUNDED]]
// CHECK-NEXT:    %[[NAN:.*]] = accel.vslt %{{.*}}, %[[MAG]]
// CHECK-NEXT:    %[[KEPT:.*]] = accel.vsel %[[NAN]], %[[MAG]], %[[INF]]
// CHECK-NEXT:    %[[SIGN:.*]] = accel.vand %[[X]], %{{.*}}
// CHECK-NEXT:    accel.vor %[[KEPT]], %[[SIGN]]
loop.kernel @halves(%x: memref<4xf16>, %y: memref<4xf16>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf16>
    %w = arith.extf %v : f16 to f32
    %s = arith.mulf %w, %w : f32
    %h = arith.truncf %s : f32 to f16
    loop.store %h, %y[%i] : memref<4xf16>
  }
  loop.return
}
