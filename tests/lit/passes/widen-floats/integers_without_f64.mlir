// RUN: xlir-opt %s -p 'widen-floats{f64=false}' | filecheck %s
// RUN: xlir-opt %s -p widen-floats | filecheck %s --check-prefix=F64

// A target without f64 (XA-1) converts an integer to bf16 through f32,
// rounded once: from 2^24 up, the bits below bit 9 are folded into bit 8
// (a sticky bit f32 keeps, below bf16's rounding position), so the f32 is
// exact; the magnitude converts unsigned and the sign goes back on.
// CHECK-LABEL: loop.kernel @convert
// CHECK-NOT:     f64
// CHECK:         %[[X:.*]] = loop.load
// CHECK:         %[[NEGATIVE:.*]] = arith.cmpi slt, %[[X]], %{{.*}} : i32
// CHECK:         %[[MAGNITUDE:.*]] = arith.select %[[NEGATIVE]], %{{.*}}, %[[X]] : i32
// CHECK:         %[[LOW:.*]] = arith.andi %[[MAGNITUDE]], %{{.*}} : i32
// CHECK:         %[[STICKY:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK:         %[[HIGH:.*]] = arith.andi %[[MAGNITUDE]], %{{.*}} : i32
// CHECK:         %[[FOLDED:.*]] = arith.ori %[[HIGH]], %[[STICKY]] : i32
// CHECK:         %[[LARGE:.*]] = arith.cmpi uge, %[[MAGNITUDE]], %{{.*}} : i32
// CHECK:         %[[EXACT:.*]] = arith.select %[[LARGE]], %[[FOLDED]], %[[MAGNITUDE]] : i32
// CHECK:         %[[F:.*]] = arith.uitofp %[[EXACT]] : i32 to f32
// CHECK:         arith.negf %[[F]] : f32
// CHECK-NOT:     f64
// CHECK:         loop.return

// An iota's index cast to i64 holds values of 32 bits: truncated first.
// CHECK-LABEL: loop.kernel @iota
// CHECK:         %[[WIDE:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:    arith.trunci %[[WIDE]] : i64 to i32
// CHECK-NOT:     f64
// CHECK:         loop.return

// With f64 (the default), integers go through it.
// F64-LABEL: loop.kernel @convert
// F64:         arith.sitofp %{{.*}} : i32 to f64
// F64-LABEL: loop.kernel @iota
// F64:         arith.sitofp %{{.*}} : i64 to f64
builtin.module {
  loop.kernel @convert(%a: memref<8xi32>, %out: memref<8xbf16>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %x = loop.load %a[%i] : memref<8xi32>
      %y = arith.sitofp %x : i32 to bf16
      loop.store %y, %out[%i] : memref<8xbf16>
    }
    loop.return
  }
  loop.kernel @iota(%out: memref<3x4xbf16>) {
    loop.parallel (%i, %j) = (0, 0) to (3, 4) step (1, 1) {
      %w = arith.index_cast %i : index to i64
      %y = arith.sitofp %w : i64 to bf16
      loop.store %y, %out[%i, %j] : memref<3x4xbf16>
    }
    loop.return
  }
}
