// RUN: xlir-opt %s -p int-in-float --split-input-file | filecheck %s

// hlo-to-loop's guarded f32 to u8 conversion: the float code reads %x
// itself and stands for the last select; the guard's compares, ors and
// selects are gone (dead).
// CHECK-LABEL: loop.kernel @guarded
// CHECK:         %[[X:.*]] = loop.load %a
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[BELOW:.*]] = arith.cmpf olt, %[[X]], %[[LOW]] : f32
// CHECK-NEXT:    %[[HIGH:.*]] = arith.constant 2.550000e+02 : f32
// CHECK-NEXT:    %[[ABOVE:.*]] = arith.cmpf ogt, %[[X]], %[[HIGH]] : f32
// CHECK-NEXT:    %[[C1:.*]] = arith.select %[[ABOVE]], %[[HIGH]], %[[X]] : f32
// CHECK-NEXT:    %[[C2:.*]] = arith.select %[[BELOW]], %[[LOW]], %[[C1]] : f32
// CHECK-NEXT:    %[[T:.*]] = math.trunc %[[C2]] : f32
// CHECK-NEXT:    %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK:         %[[I:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    %[[Y:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[I]] : i8
// CHECK-NEXT:    loop.store %[[Y]], %b
// CHECK-NOT:     arith.ori
// CHECK-NOT:     arith.fptoui
loop.kernel @guarded(%a: memref<64xf32>, %b: memref<64xi8>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %x = loop.load %a[%i] : memref<64xf32>
    %c256 = arith.constant 2.560000e+02 : f32
    %c0 = arith.constant 0.000000e+00 : f32
    %above = arith.cmpf oge, %x, %c256 : f32
    %below = arith.cmpf ole, %x, %c0 : f32
    %nan = arith.cmpf uno, %x, %x : f32
    %o1 = arith.ori %above, %below : i1
    %outside = arith.ori %o1, %nan : i1
    %true = arith.constant true
    %inside = arith.xori %outside, %true : i1
    %safe = arith.select %inside, %x, %c0 : f32
    %y = arith.fptoui %safe : f32 to i8
    %max = arith.constant -1 : i8
    %zero = arith.constant 0 : i8
    %y1 = arith.select %above, %max, %y : i8
    %y2 = arith.select %below, %zero, %y1 : i8
    %y3 = arith.select %nan, %zero, %y2 : i8
    loop.store %y3, %b[%i] : memref<64xi8>
  }
  loop.return
}

// -----

// Vectors of f32 to i32 (signed: bounds -2^31 and 2^31, which is out of
// i32's range, so the guard picks 2^31 - 1 above it); the selects in
// another order than hlo-to-loop's.
// CHECK-LABEL: loop.kernel @guarded_vector
// CHECK:         %[[X:.*]] = loop.load %a[%i] : memref<64xf32>, vector<16xf32>
// CHECK-NEXT:    arith.extf %[[X]] : vector<16xf32> to vector<16xf64>
// CHECK-NOT:     arith.ori
// CHECK-NOT:     arith.fptosi
// CHECK:         %[[Y:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xi32>
// CHECK-NEXT:    loop.store %[[Y]], %b
loop.kernel @guarded_vector(%a: memref<64xf32>, %b: memref<64xi32>) {
  loop.parallel (%i) = (0) to (64) step (16) {
    %x = loop.load %a[%i] : memref<64xf32>, vector<16xf32>
    %high = arith.constant dense<2.147483648e+09> : vector<16xf32>
    %low = arith.constant dense<-2.147483648e+09> : vector<16xf32>
    %above = arith.cmpf oge, %x, %high : vector<16xf32>
    %below = arith.cmpf ole, %x, %low : vector<16xf32>
    %nan = arith.cmpf uno, %x, %x : vector<16xf32>
    %o1 = arith.ori %above, %below : vector<16xi1>
    %outside = arith.ori %o1, %nan : vector<16xi1>
    %true = arith.constant dense<true> : vector<16xi1>
    %inside = arith.xori %outside, %true : vector<16xi1>
    %zerof = arith.constant dense<0.000000e+00> : vector<16xf32>
    %safe = arith.select %inside, %x, %zerof : vector<16xi1>, vector<16xf32>
    %y = arith.fptosi %safe : vector<16xf32> to vector<16xi32>
    %max = arith.constant dense<2147483647> : vector<16xi32>
    %min = arith.constant dense<-2147483648> : vector<16xi32>
    %zero = arith.constant dense<0> : vector<16xi32>
    %y1 = arith.select %nan, %zero, %y : vector<16xi1>, vector<16xi32>
    %y2 = arith.select %below, %min, %y1 : vector<16xi1>, vector<16xi32>
    %y3 = arith.select %above, %max, %y2 : vector<16xi1>, vector<16xi32>
    loop.store %y3, %b[%i] : memref<64xi32>, vector<16xi32>
  }
  loop.return
}

// -----

// Guards that are not the saturating conversion's stay, and the float
// code converts the guarded value: at or above 200 (not 256) picks 255;
// at or below 0 picks 7; no select after the conversion covers NaN, which
// `inside` leaves out.
// CHECK-LABEL: loop.kernel @not_implied
// CHECK:         %safe1 = arith.select %inside1, %x, %c0 : f32
// CHECK:         arith.cmpf olt, %safe1
// CHECK:         %y1 = arith.select %low_above, %max, %y : i8
// CHECK:         %y3 = arith.select %nan, %zero, %y2 : i8
// CHECK-NEXT:    loop.store %y3, %b
// CHECK:         %safe2 = arith.select %inside2, %x, %c0 : f32
// CHECK:         arith.cmpf olt, %safe2
// CHECK:         %z2 = arith.select %below, %seven, %z1 : i8
// CHECK:         %z3 = arith.select %nan, %zero, %z2 : i8
// CHECK-NEXT:    loop.store %z3, %c
// CHECK:         %safe3 = arith.select %inside2, %x, %c0 : f32
// CHECK:         arith.cmpf olt, %safe3
// CHECK:         %w2 = arith.select %below, %zero, %w1 : i8
// CHECK-NEXT:    loop.store %w2, %d
// CHECK-NOT:     arith.fptoui
loop.kernel @not_implied(%a: memref<64xf32>, %b: memref<64xi8>, %c: memref<64xi8>, %d: memref<64xi8>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %x = loop.load %a[%i] : memref<64xf32>
    %c200 = arith.constant 2.000000e+02 : f32
    %c256 = arith.constant 2.560000e+02 : f32
    %c0 = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %max = arith.constant -1 : i8
    %seven = arith.constant 7 : i8
    %zero = arith.constant 0 : i8
    %nan = arith.cmpf uno, %x, %x : f32
    %below = arith.cmpf ole, %x, %c0 : f32
    %low_above = arith.cmpf oge, %x, %c200 : f32
    %o1 = arith.ori %low_above, %below : i1
    %outside1 = arith.ori %o1, %nan : i1
    %inside1 = arith.xori %outside1, %true : i1
    %safe1 = arith.select %inside1, %x, %c0 : f32
    %y = arith.fptoui %safe1 : f32 to i8
    %y1 = arith.select %low_above, %max, %y : i8
    %y2 = arith.select %below, %zero, %y1 : i8
    %y3 = arith.select %nan, %zero, %y2 : i8
    loop.store %y3, %b[%i] : memref<64xi8>
    %above = arith.cmpf oge, %x, %c256 : f32
    %o2 = arith.ori %above, %below : i1
    %outside2 = arith.ori %o2, %nan : i1
    %inside2 = arith.xori %outside2, %true : i1
    %safe2 = arith.select %inside2, %x, %c0 : f32
    %z = arith.fptoui %safe2 : f32 to i8
    %z1 = arith.select %above, %max, %z : i8
    %z2 = arith.select %below, %seven, %z1 : i8
    %z3 = arith.select %nan, %zero, %z2 : i8
    loop.store %z3, %c[%i] : memref<64xi8>
    %safe3 = arith.select %inside2, %x, %c0 : f32
    %w = arith.fptoui %safe3 : f32 to i8
    %w1 = arith.select %above, %max, %w : i8
    %w2 = arith.select %below, %zero, %w1 : i8
    loop.store %w2, %d[%i] : memref<64xi8>
  }
  loop.return
}
