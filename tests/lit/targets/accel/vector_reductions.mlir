// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// An integer row maximum of 37 columns: two steps of 16 lanes from the
// identity (INT_MIN), counting 64-byte addresses, the lanes reduced by
// vredmax and combined with the initial value, then the last 5 columns in
// order from that total.
// CHECK-LABEL: accel.kernel "row_max", 2
// CHECK:         %[[LOWEST:.*]] = accel.lui 32768
// CHECK-NEXT:    %[[START:.*]] = accel.vsplat %[[LOWEST]]
// CHECK:         %[[LANES:.*]] = "accel.for"(%{{.*}}, %{{.*}}, %[[START]]) <{step = 64 : i32, hardware
// CHECK:           accel.vld
// CHECK-NEXT:      %[[MAX:.*]] = accel.vmax
// CHECK-NEXT:      accel.yield %[[MAX]] : !accel.v
// CHECK:         %[[ALL:.*]] = accel.vredmax %[[LANES]]
// CHECK-NEXT:    %[[ROW:.*]] = accel.vext %[[ALL]], 0
// CHECK-NEXT:    %[[TOTAL:.*]] = accel.max %{{.*}}, %[[ROW]]
// CHECK:         "accel.for"(%{{.*}}, %{{.*}}, %[[TOTAL]]) <{step = 4 : i32, hardware
// CHECK:           accel.lw
// CHECK-NEXT:      accel.max
loop.kernel @row_max(%x: memref<37xi32>, %y: memref<1xi32>) {
  %init = arith.constant 3 : i32
  %z = arith.constant 0 : index
  %s = loop.for %j = 0 to 37 step 1 iter_args(%acc = %init) -> (i32) {
    %v = loop.load %x[%j] : memref<37xi32>
    %n = arith.maxsi %acc, %v : i32
    loop.yield %n : i32
  }
  loop.store %s, %y[%z] : memref<1xi32>
  loop.return
}

// Left on the scalar unit: a product (XA-1 has no lane product), and a
// column sum (its loads do not read the loop's counter as their last index).
// CHECK-LABEL: accel.kernel "product_and_column", 4
// CHECK-NOT:     accel.vred
// CHECK-NOT:     step = {{16|64}}
// CHECK:         accel.halt
loop.kernel @product_and_column(%r: memref<32xf32>, %x: memref<32x2xf32>, %p: memref<1xf32>, %c: memref<1xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %z = arith.constant 0 : index
  %prod = loop.for %j = 0 to 32 step 1 iter_args(%acc = %one) -> (f32) {
    %v = loop.load %r[%j] : memref<32xf32>
    %n = arith.mulf %acc, %v : f32
    loop.yield %n : f32
  }
  loop.store %prod, %p[%z] : memref<1xf32>
  %sum = loop.for %j = 0 to 32 step 1 iter_args(%acc = %zero) -> (f32) {
    %v = loop.load %x[%j, %z] : memref<32x2xf32>
    %n = arith.addf %acc, %v : f32
    loop.yield %n : f32
  }
  loop.store %sum, %c[%z] : memref<1xf32>
  loop.return
}
