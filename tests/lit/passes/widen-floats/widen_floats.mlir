// RUN: xlir-opt %s -p widen-floats | filecheck %s

// Arithmetic on narrow floats is f32 arithmetic, rounded back after each
// op; a loop's carried value stays f32 and is rounded once, after the loop.
// bf16 and float8 values are taken apart as integers (their conversions),
// f16 ones are LLVM's `half` (extf/truncf).

// CHECK-LABEL: loop.kernel @sum
// CHECK:         %[[ZERO_BITS:.*]] = arith.constant 0 : i16
// CHECK-NEXT:    %[[ZERO:.*]] = arith.bitcast %[[ZERO_BITS]] : i16 to bf16
// CHECK:         %[[SUM:.*]] = loop.for %{{.*}} = 0 to 64 step 1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:           %[[X:.*]] = loop.load %{{.*}} : memref<64xbf16>
// CHECK:           %[[XBITS:.*]] = arith.bitcast %[[X]] : bf16 to i16
// CHECK:           %[[PRODUCT:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:           %[[ROUNDED:.*]] = arith.bitcast %{{.*}} : i16 to bf16
// CHECK:           %[[NEXT:.*]] = arith.addf %[[ACC]], %{{.*}} : f32
// CHECK-NEXT:      loop.yield %[[NEXT]] : f32
// CHECK:         %[[SUMBITS:.*]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK:         %[[OUT:.*]] = arith.bitcast %{{.*}} : i16 to bf16
// CHECK-NEXT:    loop.store %[[OUT]], %{{.*}}[] : memref<bf16>
builtin.module {
  loop.kernel @sum(%a: memref<64xbf16>, %b: memref<64xbf16>, %out: memref<bf16>) {
    %zero = arith.constant 0.000000e+00 : bf16
    loop.parallel () = () to () step () {
      %s = loop.for %k = 0 to 64 step 1 iter_args(%acc = %zero) -> (bf16) {
        %x = loop.load %a[%k] : memref<64xbf16>
        %y = loop.load %b[%k] : memref<64xbf16>
        %p = arith.mulf %x, %y : bf16
        %n = arith.addf %acc, %p : bf16
        loop.yield %n : bf16
      }
      loop.store %s, %out[] : memref<bf16>
    }
    loop.return
  }

// CHECK-LABEL: loop.kernel @half
// CHECK:         %[[H:.*]] = loop.load %{{.*}}[%{{.*}}] : memref<8xf16>
// CHECK-NEXT:    %[[WIDE:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:    %[[WIDE2:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:    %[[Q:.*]] = arith.divf %[[WIDE]], %[[WIDE2]] : f32
// CHECK-NEXT:    %[[QH:.*]] = arith.truncf %[[Q]] : f32 to f16
// CHECK-NEXT:    %[[QW:.*]] = arith.extf %[[QH]] : f16 to f32
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[QW]] : f32 to i32
// CHECK:         %[[BYTE:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK-NEXT:    %[[F8:.*]] = arith.bitcast %[[BYTE]] : i8 to f8E4M3FN
// CHECK-NEXT:    loop.store %[[F8]], %{{.*}}[%{{.*}}] : memref<8xf8E4M3FN>
  loop.kernel @half(%a: memref<8xf16>, %c: memref<8xf8E4M3FN>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %x = loop.load %a[%i] : memref<8xf16>
      %y = arith.divf %x, %x : f16
      %z = arith.truncf %y : f16 to f8E4M3FN
      loop.store %z, %c[%i] : memref<8xf8E4M3FN>
    }
    loop.return
  }

// Selects and bitcasts move bits: they stay on the narrow type.
// CHECK-LABEL: loop.kernel @moves
// CHECK:         %[[PICK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f8E5M2
// CHECK-NEXT:    loop.store %[[PICK]]
  loop.kernel @moves(%p: memref<4xi1>, %a: memref<4xf8E5M2>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %c = loop.load %p[%i] : memref<4xi1>
      %x = loop.load %a[%i] : memref<4xf8E5M2>
      %y = arith.select %c, %x, %x : f8E5M2
      loop.store %y, %a[%i] : memref<4xf8E5M2>
    }
    loop.return
  }
}
