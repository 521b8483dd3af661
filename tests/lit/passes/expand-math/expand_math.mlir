// RUN: xlir-opt %s -p expand-math --split-input-file | filecheck %s

// exp on f32 becomes arith code: clamp, k = round(x/ln2) by the 1.5*2^23
// shifter (k read from the sum's bits), Cody-Waite r = x - k ln2 in two
// parts, the polynomial, and 2^k built from k's bits in two factors.
// CHECK-LABEL: loop.kernel @exp_f32
// CHECK-NOT:     math.exp
// CHECK:         %[[X:.*]] = loop.load
// CHECK:         arith.cmpf olt, %[[X]], %{{.*}} : f32
// CHECK:         %[[SHIFTER:.*]] = arith.constant 0x4B400000 : f32
// CHECK-NEXT:    %[[SHIFTED:.*]] = arith.addf %{{.*}}, %[[SHIFTER]] : f32
// CHECK-NEXT:    %[[K_FLOAT:.*]] = arith.subf %[[SHIFTED]], %[[SHIFTER]] : f32
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[SHIFTED]] : f32 to i32
// CHECK-NEXT:    %[[SHIFTER_BITS:.*]] = arith.constant 1262485504 : i32
// CHECK-NEXT:    %[[K:.*]] = arith.subi %[[BITS]], %[[SHIFTER_BITS]] : i32
// CHECK-NEXT:    %[[LN2_HI:.*]] = arith.constant 0.693145752 : f32
// CHECK-NEXT:    arith.mulf %[[K_FLOAT]], %[[LN2_HI]] : f32
// CHECK:         %[[HALF_K:.*]] = arith.shrsi %[[K]], %{{.*}} : i32
// CHECK:         %[[FIRST:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:    %[[REST_K:.*]] = arith.subi %[[K]], %[[HALF_K]] : i32
// CHECK:         %[[SECOND:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[MANTISSA:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %[[SCALED:.*]] = arith.mulf %[[MANTISSA]], %[[FIRST]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.mulf %[[SCALED]], %[[SECOND]] : f32
// CHECK-NEXT:    loop.store %[[R]], %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK-NOT:     math.
// CHECK:         loop.return
loop.kernel @exp_f32(%a: memref<16xf32>, %out: memref<16xf32>) {
  loop.parallel (%i) = (0) to (16) step (1) {
    %x = loop.load %a[%i] : memref<16xf32>
    %r = math.exp %x : f32
    loop.store %r, %out[%i] : memref<16xf32>
  }
  loop.return
}

// -----

// bf16 goes through f32: extended, expanded, truncated back once. The last
// select makes log of a negative number or NaN NaN.
// CHECK-LABEL: loop.kernel @log_bf16
// CHECK:         %[[X:.*]] = loop.load %{{.*}}[%{{.*}}] : memref<16xbf16>
// CHECK-NEXT:    %[[WIDE:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NOT:     math.log
// CHECK:         %[[NEGATIVE:.*]] = arith.cmpf ult, %[[WIDE]], %{{.*}} : f32
// CHECK-NEXT:    %[[NAN:.*]] = arith.constant 0x7fc00000 : f32
// CHECK-NEXT:    %[[LOG:.*]] = arith.select %[[NEGATIVE]], %[[NAN]], %{{.*}} : f32
// CHECK-NEXT:    %[[R:.*]] = arith.truncf %[[LOG]] : f32 to bf16
// CHECK-NEXT:    loop.store %[[R]]
loop.kernel @log_bf16(%a: memref<16xbf16>, %out: memref<16xbf16>) {
  loop.parallel (%i) = (0) to (16) step (1) {
    %x = loop.load %a[%i] : memref<16xbf16>
    %r = math.log %x : bf16
    loop.store %r, %out[%i] : memref<16xbf16>
  }
  loop.return
}

// -----

// What must not change: f64 (a backend calls its intrinsic or libm), ops
// LLVM has vectorizing intrinsics for, ops with no expansion, and math
// outside kernels.
// CHECK-LABEL: loop.kernel @left_alone
// CHECK-NEXT:    loop.parallel
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%{{.*}}] : memref<16xf64>
// CHECK-NEXT:      %[[Y:.*]] = loop.load %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK-NEXT:      %{{.*}} = math.exp %[[X]] : f64
// CHECK-NEXT:      %{{.*}} = math.sin %[[X]] : f64
// CHECK-NEXT:      %{{.*}} = math.sqrt %[[Y]] : f32
// CHECK-NEXT:      %{{.*}} = math.fma %[[Y]], %[[Y]], %[[Y]] : f32
// CHECK-NEXT:      %{{.*}} = math.floor %[[Y]] : f32
// CHECK-NEXT:      %{{.*}} = math.rsqrt %[[Y]] : f32
// CHECK-NEXT:      %{{.*}} = math.round %[[Y]] : f32
// CHECK-NEXT:      %{{.*}} = math.erf %[[Y]] : f32
// CHECK-LABEL: func.func @host
// CHECK-NEXT:    math.exp %{{.*}} : f32
loop.kernel @left_alone(%a: memref<16xf64>, %b: memref<16xf32>, %out: memref<16xf64>, %out2: memref<16xf32>) {
  loop.parallel (%i) = (0) to (16) step (1) {
    %x = loop.load %a[%i] : memref<16xf64>
    %y = loop.load %b[%i] : memref<16xf32>
    %e = math.exp %x : f64
    %s = math.sin %x : f64
    %q = math.sqrt %y : f32
    %f = math.fma %y, %y, %y : f32
    %g = math.floor %y : f32
    %rs = math.rsqrt %y : f32
    %rn = math.round %y : f32
    %h = math.erf %y : f32
    %sum = arith.addf %e, %s : f64
    loop.store %sum, %out[%i] : memref<16xf64>
    %t = arith.addf %q, %f : f32
    %u = arith.addf %t, %g : f32
    %w = arith.addf %u, %rs : f32
    %z = arith.addf %w, %rn : f32
    %v = arith.addf %z, %h : f32
    loop.store %v, %out2[%i] : memref<16xf32>
  }
  loop.return
}

func.func @host(%x: f32) -> f32 {
  %e = math.exp %x : f32
  func.return %e : f32
}
