// RUN: xlir-opt %s -p widen-floats | filecheck %s

// Negation and absolute value of bf16 only flip or clear the sign bit:
// integer code on the bits, so a signaling NaN keeps its bits (f32
// arithmetic rounded back would quiet it). f16 stays LLVM's `half`, float8
// goes through f32.

// CHECK-LABEL: loop.kernel @negate_bf16
// CHECK:         %[[X:.*]] = loop.load %{{.*}}[%{{.*}}] : memref<8xbf16>
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[X]] : bf16 to i16
// CHECK-NEXT:    %[[SIGN:.*]] = arith.constant -32768 : i16
// CHECK-NEXT:    %[[FLIPPED:.*]] = arith.xori %[[BITS]], %[[SIGN]] : i16
// CHECK-NEXT:    %[[NEG:.*]] = arith.bitcast %[[FLIPPED]] : i16 to bf16
// CHECK-NEXT:    loop.store %[[NEG]], %{{.*}}[%{{.*}}] : memref<8xbf16>
// CHECK-NOT:     arith.negf
// CHECK:         loop.return
builtin.module {
  loop.kernel @negate_bf16(%a: memref<8xbf16>, %c: memref<8xbf16>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %x = loop.load %a[%i] : memref<8xbf16>
      %y = arith.negf %x : bf16
      loop.store %y, %c[%i] : memref<8xbf16>
    }
    loop.return
  }

// CHECK-LABEL: loop.kernel @abs_bf16
// CHECK:         %[[X:.*]] = loop.load %{{.*}}[%{{.*}}] : memref<8xbf16>
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[X]] : bf16 to i16
// CHECK-NEXT:    %[[MASK:.*]] = arith.constant 32767 : i16
// CHECK-NEXT:    %[[CLEARED:.*]] = arith.andi %[[BITS]], %[[MASK]] : i16
// CHECK-NEXT:    %[[ABS:.*]] = arith.bitcast %[[CLEARED]] : i16 to bf16
// CHECK-NEXT:    loop.store %[[ABS]], %{{.*}}[%{{.*}}] : memref<8xbf16>
// CHECK-NOT:     math.absf
// CHECK:         loop.return
  loop.kernel @abs_bf16(%a: memref<8xbf16>, %c: memref<8xbf16>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %x = loop.load %a[%i] : memref<8xbf16>
      %y = math.absf %x : bf16
      loop.store %y, %c[%i] : memref<8xbf16>
    }
    loop.return
  }

// f16 is widened (LLVM folds it into a sign flip).
// CHECK-LABEL: loop.kernel @negate_f16
// CHECK:         %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:    %[[N:.*]] = arith.negf %[[W]] : f32
// CHECK-NEXT:    arith.truncf %[[N]] : f32 to f16
  loop.kernel @negate_f16(%a: memref<8xf16>, %c: memref<8xf16>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %x = loop.load %a[%i] : memref<8xf16>
      %y = arith.negf %x : f16
      loop.store %y, %c[%i] : memref<8xf16>
    }
    loop.return
  }

// A negation feeding arithmetic: the sum reads the negated bits, extended.
// CHECK-LABEL: loop.kernel @negate_then_add
// CHECK:         arith.xori
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f32
  loop.kernel @negate_then_add(%a: memref<8xbf16>, %c: memref<8xbf16>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %x = loop.load %a[%i] : memref<8xbf16>
      %y = arith.negf %x : bf16
      %z = arith.addf %y, %x : bf16
      loop.store %z, %c[%i] : memref<8xbf16>
    }
    loop.return
  }

// float8 is widened (the evaluator computes it in f32).
// CHECK-LABEL: loop.kernel @negate_f8
// CHECK:         arith.negf %{{.*}} : f32
// CHECK-NOT:     arith.xori
// CHECK:         loop.return
  loop.kernel @negate_f8(%a: memref<8xf8E5M2>, %c: memref<8xf8E5M2>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %x = loop.load %a[%i] : memref<8xf8E5M2>
      %y = arith.negf %x : f8E5M2
      loop.store %y, %c[%i] : memref<8xf8E5M2>
    }
    loop.return
  }
}
