// RUN: xlir-opt %s -p int-in-float --split-input-file | filecheck %s

// f32 to i32: widened to f64, clamped to [-2^31, 2^31 - 1], truncated, read
// back through the 1.5 * 2^52 sum's low bits; NaN gives 0.
// CHECK-LABEL: loop.kernel @signed
// CHECK:         %[[X:.*]] = loop.load %a
// CHECK-NEXT:    %[[W:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant 0xC1E0000000000000 : f64
// CHECK-NEXT:    %[[BELOW:.*]] = arith.cmpf olt, %[[W]], %[[LOW]] : f64
// CHECK-NEXT:    %[[HIGH:.*]] = arith.constant 0x41DFFFFFFFC00000 : f64
// CHECK-NEXT:    %[[ABOVE:.*]] = arith.cmpf ogt, %[[W]], %[[HIGH]] : f64
// CHECK-NEXT:    %[[C1:.*]] = arith.select %[[ABOVE]], %[[HIGH]], %[[W]] : f64
// CHECK-NEXT:    %[[C2:.*]] = arith.select %[[BELOW]], %[[LOW]], %[[C1]] : f64
// CHECK-NEXT:    %[[T:.*]] = math.trunc %[[C2]] : f64
// CHECK-NEXT:    %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:    %[[MAGIC:.*]] = arith.constant 0x4338000000000000 : f64
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[T]], %[[MAGIC]] : f64
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[SUM]] : f64 to i64
// CHECK-NEXT:    %[[I:.*]] = arith.trunci %[[BITS]] : i64 to i32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Y:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[I]] : i32
// CHECK-NEXT:    loop.store %[[Y]], %b
// CHECK-NOT:     arith.fptosi
loop.kernel @signed(%a: memref<64xf32>, %b: memref<64xi32>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %x = loop.load %a[%i] : memref<64xf32>
    %y = arith.fptosi %x : f32 to i32
    loop.store %y, %b[%i] : memref<64xi32>
  }
  loop.return
}

// -----

// f64 to u8 (no widening, clamped to [0, 255]) and f32 vectors to i32
// vectors (the constants broadcast).
// CHECK-LABEL: loop.kernel @unsigned_and_vector
// CHECK:         %[[W:.*]] = loop.load %c
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:    arith.cmpf olt, %[[W]], %[[LOW]] : f64
// CHECK-NEXT:    %[[HIGH:.*]] = arith.constant 2.550000e+02 : f64
// CHECK:         arith.trunci %{{.*}} : i64 to i8
// CHECK:         arith.extf %{{.*}} : vector<16xf32> to vector<16xf64>
// CHECK:         math.trunc %{{.*}} : vector<16xf64>
// CHECK:         arith.bitcast %{{.*}} : vector<16xf64> to vector<16xi64>
// CHECK-NEXT:    arith.trunci %{{.*}} : vector<16xi64> to vector<16xi32>
// CHECK-NOT:     arith.fpto
loop.kernel @unsigned_and_vector(%a: memref<64xf32>, %b: memref<64xi32>, %c: memref<64xf64>, %d: memref<64xi8>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %w = loop.load %c[%i] : memref<64xf64>
    %z = arith.fptoui %w : f64 to i8
    loop.store %z, %d[%i] : memref<64xi8>
  }
  loop.parallel (%j) = (0) to (64) step (16) {
    %v = loop.load %a[%j] : memref<64xf32>, vector<16xf32>
    %vi = arith.fptosi %v : vector<16xf32> to vector<16xi32>
    loop.store %vi, %b[%j] : memref<64xi32>, vector<16xi32>
  }
  loop.return
}

// -----

// f32 to u8 and f16 to i16: 16 bits or fewer stay in f32 (no f64 lanes),
// read back through the 1.5 * 2^23 sum's low bits.
// CHECK-LABEL: loop.kernel @narrow_in_f32
// CHECK:         %[[X:.*]] = loop.load %a
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    arith.cmpf olt, %[[X]], %[[LOW]] : f32
// CHECK-NEXT:    %[[HIGH:.*]] = arith.constant 2.550000e+02 : f32
// CHECK:         %[[T:.*]] = math.trunc %{{.*}} : f32
// CHECK:         %[[MAGIC:.*]] = arith.constant 0x4B400000 : f32
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[T]], %[[MAGIC]] : f32
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK-NEXT:    arith.trunci %[[BITS]] : i32 to i8
// CHECK:         %[[H:.*]] = loop.load %c
// CHECK-NEXT:    arith.extf %[[H]] : f16 to f32
// CHECK:         arith.constant -3.276800e+04 : f32
// CHECK:         arith.trunci %{{.*}} : i32 to i16
// CHECK-NOT:     f64
loop.kernel @narrow_in_f32(%a: memref<64xf32>, %b: memref<64xi8>, %c: memref<64xf16>, %d: memref<64xi16>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %x = loop.load %a[%i] : memref<64xf32>
    %y = arith.fptoui %x : f32 to i8
    loop.store %y, %b[%i] : memref<64xi8>
    %h = loop.load %c[%i] : memref<64xf16>
    %k = arith.fptosi %h : f16 to i16
    loop.store %k, %d[%i] : memref<64xi16>
  }
  loop.return
}

// -----

// Left alone: 64-bit results.
// CHECK-LABEL: loop.kernel @wide
// CHECK:         arith.fptosi %{{.*}} : f64 to i64
// CHECK:         arith.fptoui %{{.*}} : f32 to i64
// CHECK-NOT:     math.trunc
loop.kernel @wide(%a: memref<64xf64>, %b: memref<64xi64>, %c: memref<64xf32>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %x = loop.load %a[%i] : memref<64xf64>
    %y = arith.fptosi %x : f64 to i64
    loop.store %y, %b[%i] : memref<64xi64>
    %u = loop.load %c[%i] : memref<64xf32>
    %v = arith.fptoui %u : f32 to i64
    loop.store %v, %b[%i] : memref<64xi64>
  }
  loop.return
}
