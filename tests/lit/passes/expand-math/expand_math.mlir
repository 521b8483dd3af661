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

// tanh on f32 needs no exp: |x| clamped to 9.1 (tanh is 1 in f32 from 9.01
// on), v = 2 tanh(|x|/2) = a - a^3 D(a^2) / Q(a^2) with D and Q of degree 2,
// then the double-argument formula tanh = v / (1 + v^2/4), and x's sign.
// CHECK-LABEL: loop.kernel @tanh_f32
// CHECK-NOT:     math.tanh
// CHECK:         %[[X:.*]] = loop.load
// CHECK-NEXT:    %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:    %[[SATURATION:.*]] = arith.constant 9.100000e+00 : f32
// CHECK-NEXT:    %[[LARGE:.*]] = arith.cmpf ogt, %[[ABS]], %[[SATURATION]] : f32
// CHECK-NEXT:    %[[A:.*]] = arith.select %[[LARGE]], %[[SATURATION]], %[[ABS]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK-NEXT:    %[[CUBE:.*]] = arith.mulf %[[A]], %[[S]] : f32
// CHECK-NEXT:    %[[D2:.*]] = arith.constant 6.940380e-08 : f32
// CHECK-NEXT:    %[[D2S:.*]] = arith.mulf %[[D2]], %[[S]] : f32
// CHECK-NEXT:    %[[D1:.*]] = arith.constant 0.000974366441 : f32
// CHECK-NEXT:    %[[D21:.*]] = arith.addf %[[D2S]], %[[D1]] : f32
// CHECK-NEXT:    %[[D21S:.*]] = arith.mulf %[[D21]], %[[S]] : f32
// CHECK-NEXT:    %[[D0:.*]] = arith.constant 0.0833332688 : f32
// CHECK-NEXT:    %[[D:.*]] = arith.addf %[[D21S]], %[[D0]] : f32
// CHECK-NEXT:    %[[NUMERATOR:.*]] = arith.mulf %[[CUBE]], %[[D]] : f32
// CHECK-NEXT:    %[[Q2:.*]] = arith.constant 0.00105119124 : f32
// CHECK-NEXT:    %[[Q2S:.*]] = arith.mulf %[[Q2]], %[[S]] : f32
// CHECK-NEXT:    %[[Q1:.*]] = arith.constant 0.111691609 : f32
// CHECK-NEXT:    %[[Q21:.*]] = arith.addf %[[Q2S]], %[[Q1]] : f32
// CHECK-NEXT:    %[[Q21S:.*]] = arith.mulf %[[Q21]], %[[S]] : f32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[Q:.*]] = arith.addf %[[Q21S]], %[[ONE]] : f32
// CHECK-NEXT:    %[[CORRECTION:.*]] = arith.divf %[[NUMERATOR]], %[[Q]] : f32
// CHECK-NEXT:    %[[V:.*]] = arith.subf %[[A]], %[[CORRECTION]] : f32
// CHECK-NEXT:    %[[V2:.*]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK-NEXT:    %[[QUARTER:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NEXT:    %[[W:.*]] = arith.mulf %[[V2]], %[[QUARTER]] : f32
// CHECK-NEXT:    %[[DENOMINATOR:.*]] = arith.addf %[[W]], %[[ONE]] : f32
// CHECK-NEXT:    %[[T:.*]] = arith.divf %[[V]], %[[DENOMINATOR]] : f32
// CHECK-NEXT:    %[[R:.*]] = math.copysign %[[T]], %[[X]] : f32
// CHECK-NEXT:    loop.store %[[R]], %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK-NOT:     math.
// CHECK:         loop.return
loop.kernel @tanh_f32(%a: memref<16xf32>, %out: memref<16xf32>) {
  loop.parallel (%i) = (0) to (16) step (1) {
    %x = loop.load %a[%i] : memref<16xf32>
    %r = math.tanh %x : f32
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

// -----

// Two exps in one block share the constants the first one made (the
// shifter once); an exp in a nested block makes its own.
// CHECK-LABEL: loop.kernel @two_exps
// CHECK:         %[[SHIFTER:.*]] = arith.constant 0x4B400000 : f32
// CHECK-NOT:     arith.constant 0x4B400000 : f32
// CHECK:         arith.addf %{{.*}}, %[[SHIFTER]] : f32
// CHECK-NOT:     arith.constant 0x4B400000 : f32
// CHECK:         arith.addf %{{.*}}, %[[SHIFTER]] : f32
// CHECK:         loop.parallel
// CHECK:         arith.constant 0x4B400000 : f32
// CHECK:         loop.return
loop.kernel @two_exps(%a: memref<16xf32>, %out: memref<16xf32>) {
  loop.parallel (%i) = (0) to (16) step (1) {
    %x = loop.load %a[%i] : memref<16xf32>
    %r = math.exp %x : f32
    %s = math.exp %r : f32
    loop.store %s, %out[%i] : memref<16xf32>
    loop.parallel (%j) = (0) to (1) step (1) {
      %t = math.exp %s : f32
      loop.store %t, %out[%j] : memref<16xf32>
    }
  }
  loop.return
}

// -----

// On vectors (a register tile's vector copies) the same code runs on every
// lane: each constant is broadcast once, compares give vectors of i1 that
// selects take, casts keep the lanes; bf16 lanes are extended to f32 and
// rounded back.
// CHECK-LABEL: loop.kernel @exp_lanes
// CHECK-NOT:     math.exp
// CHECK:         %[[X:.*]] = loop.load %{{.*}} : memref<8xf32>, vector<4xf32>
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant -1.040000e+02 : f32
// CHECK-NEXT:    %[[LOWS:.*]] = vector.broadcast %[[LOW]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[UNDER:.*]] = arith.cmpf olt, %[[X]], %[[LOWS]] : vector<4xf32>
// CHECK-NEXT:    arith.select %[[UNDER]], %[[LOWS]], %[[X]] : vector<4xi1>, vector<4xf32>
// CHECK:         arith.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK:         loop.store %{{.*}} : memref<8xf32>, vector<4xf32>
// CHECK:         %[[B:.*]] = loop.load %{{.*}} : memref<8xbf16>, vector<4xbf16>
// CHECK-NEXT:    arith.extf %[[B]] : vector<4xbf16> to vector<4xf32>
// CHECK-NOT:     math.tanh
// CHECK:         arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
loop.kernel @exp_lanes(%a: memref<8xf32>, %h: memref<8xbf16>) {
  %i = arith.constant 0 : index
  %x = loop.load %a[%i] : memref<8xf32>, vector<4xf32>
  %y = math.exp %x : vector<4xf32>
  loop.store %y, %a[%i] : memref<8xf32>, vector<4xf32>
  %b = loop.load %h[%i] : memref<8xbf16>, vector<4xbf16>
  %t = math.tanh %b : vector<4xbf16>
  loop.store %t, %h[%i] : memref<8xbf16>, vector<4xbf16>
  loop.return
}
