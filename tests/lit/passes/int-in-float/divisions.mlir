// RUN: xlir-opt %s -p int-in-float --split-input-file | filecheck %s

// A signed i32 division and remainder by a loaded divisor become f64
// divisions, truncated, read back as integers through the 1.5 * 2^52 sum's
// low bits; the remainder is a - q * b.
// CHECK-LABEL: loop.kernel @signed_i32
// CHECK:         %[[A:.*]] = loop.load %a
// CHECK-NEXT:    %[[B:.*]] = loop.load %b
// CHECK-NEXT:    %[[FA:.*]] = arith.sitofp %[[A]] : i32 to f64
// CHECK-NEXT:    %[[FB:.*]] = arith.sitofp %[[B]] : i32 to f64
// CHECK-NEXT:    %[[FQ:.*]] = arith.divf %[[FA]], %[[FB]] : f64
// CHECK-NEXT:    %[[T:.*]] = math.trunc %[[FQ]] : f64
// CHECK-NEXT:    %[[MAGIC:.*]] = arith.constant 0x4338000000000000 : f64
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[T]], %[[MAGIC]] : f64
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[SUM]] : f64 to i64
// CHECK-NEXT:    %[[Q:.*]] = arith.trunci %[[BITS]] : i64 to i32
// CHECK-NEXT:    loop.store %[[Q]], %q
// CHECK:         %[[RQ:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK-NEXT:    %[[P:.*]] = arith.muli %[[RQ]], %[[B]] : i32
// CHECK-NEXT:    %[[R:.*]] = arith.subi %[[A]], %[[P]] : i32
// CHECK-NEXT:    loop.store %[[R]], %r
// CHECK-NOT:     arith.divsi
// CHECK-NOT:     arith.remsi
loop.kernel @signed_i32(%a: memref<64xi32>, %b: memref<64xi32>, %q: memref<64xi32>, %r: memref<64xi32>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %x = loop.load %a[%i] : memref<64xi32>
    %y = loop.load %b[%i] : memref<64xi32>
    %d = arith.divsi %x, %y : i32
    loop.store %d, %q[%i] : memref<64xi32>
    %m = arith.remsi %x, %y : i32
    loop.store %m, %r[%i] : memref<64xi32>
  }
  loop.return
}

// -----

// Unsigned (uitofp), on vectors (the vector's shape kept), and narrow: 16
// bits or fewer divide in f32, read back through 1.5 * 2^23.
// CHECK-LABEL: loop.kernel @unsigned_vector_and_narrow
// CHECK:         arith.uitofp %{{.*}} : vector<8xi32> to vector<8xf64>
// CHECK:         arith.divf %{{.*}}, %{{.*}} : vector<8xf64>
// CHECK-NEXT:    math.trunc %{{.*}} : vector<8xf64>
// CHECK:         arith.bitcast %{{.*}} : vector<8xf64> to vector<8xi64>
// CHECK-NEXT:    arith.trunci %{{.*}} : vector<8xi64> to vector<8xi32>
// CHECK:         arith.sitofp %{{.*}} : i16 to f32
// CHECK:         arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.constant 0x4B400000 : f32
// CHECK:         arith.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT:    arith.trunci %{{.*}} : i32 to i16
// CHECK-NEXT:    arith.muli
// CHECK-NEXT:    arith.subi
loop.kernel @unsigned_vector_and_narrow(%a: memref<64xi32>, %b: memref<64xi32>, %c: memref<64xi16>, %d: memref<64xi16>) {
  loop.parallel (%i) = (0) to (64) step (8) {
    %x = loop.load %a[%i] : memref<64xi32>, vector<8xi32>
    %y = loop.load %b[%i] : memref<64xi32>, vector<8xi32>
    %q = arith.divui %x, %y : vector<8xi32>
    loop.store %q, %a[%i] : memref<64xi32>, vector<8xi32>
  }
  loop.parallel (%j) = (0) to (64) step (1) {
    %u = loop.load %c[%j] : memref<64xi16>
    %v = loop.load %d[%j] : memref<64xi16>
    %r = arith.remsi %u, %v : i16
    loop.store %r, %c[%j] : memref<64xi16>
  }
  loop.return
}

// -----

// Left alone: i64 and index (not exact in f64); a constant divisor, a splat
// of one, and hlo-to-loop's guard of a constant divisor, which LLVM divides
// with a multiply.
// CHECK-LABEL: loop.kernel @left_alone
// CHECK-NOT:     arith.divf
// CHECK:         arith.divsi %{{.*}}, %{{.*}} : i64
// CHECK:         arith.remui %{{.*}}, %{{.*}} : index
// CHECK:         arith.divsi %{{.*}}, %{{.*}} : i32
// CHECK:         arith.remsi %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:         arith.divsi %{{.*}}, %[[GUARDED:.*]] : i32
// CHECK-NOT:     arith.divf
loop.kernel @left_alone(%a: memref<64xi64>, %b: memref<64xi32>, %c: memref<64xi32>) {
  %seven = arith.constant 7 : i32
  %sevens = arith.constant dense<7> : vector<4xi32>
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %min = arith.constant -2147483648 : i32
  %minus_one = arith.constant -1 : i32
  loop.parallel (%i) = (0) to (64) step (1) {
    %x = loop.load %a[%i] : memref<64xi64>
    %q = arith.divsi %x, %x : i64
    loop.store %q, %a[%i] : memref<64xi64>
    %k = arith.remui %i, %i : index
    %y = loop.load %b[%k] : memref<64xi32>
    %d = arith.divsi %y, %seven : i32
    loop.store %d, %b[%i] : memref<64xi32>
    %v = loop.load %c[%i] : memref<64xi32>, vector<4xi32>
    %vr = arith.remsi %v, %sevens : vector<4xi32>
    loop.store %vr, %c[%i] : memref<64xi32>, vector<4xi32>
    %is_zero = arith.cmpi eq, %seven, %zero : i32
    %is_min = arith.cmpi eq, %y, %min : i32
    %is_minus_one = arith.cmpi eq, %seven, %minus_one : i32
    %overflow = arith.andi %is_min, %is_minus_one : i1
    %bad = arith.ori %is_zero, %overflow : i1
    %divisor = arith.select %bad, %one, %seven : i32
    %g = arith.divsi %y, %divisor : i32
    loop.store %g, %c[%i] : memref<64xi32>
  }
  loop.return
}

// -----

// A guard whose choice is not known (a loaded divisor) is divided in f64.
// CHECK-LABEL: loop.kernel @guarded_loaded
// CHECK:         %[[D:.*]] = arith.select
// CHECK-NEXT:    arith.sitofp %{{.*}} : i32 to f64
// CHECK-NEXT:    arith.sitofp %[[D]] : i32 to f64
// CHECK-NOT:     arith.divsi
loop.kernel @guarded_loaded(%a: memref<64xi32>, %b: memref<64xi32>) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  loop.parallel (%i) = (0) to (64) step (1) {
    %x = loop.load %a[%i] : memref<64xi32>
    %y = loop.load %b[%i] : memref<64xi32>
    %is_zero = arith.cmpi eq, %y, %zero : i32
    %divisor = arith.select %is_zero, %one, %y : i32
    %q = arith.divsi %x, %divisor : i32
    loop.store %q, %a[%i] : memref<64xi32>
  }
  loop.return
}
