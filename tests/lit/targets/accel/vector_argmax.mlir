// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// JAX's argmax of 37 columns: two steps of 16 lanes from (-inf, INT_MAX),
// the lanes' numbers from vidx; then the largest lane value (vredmax.f),
// the first index among the lanes holding it or a NaN (vredmin), the value
// at that index, combined with the initial pair by the loop's own body;
// then the last 5 columns in order.
// CHECK-LABEL: accel.kernel "argmax", 3
// CHECK:         %[[NUMBERS:.*]] = accel.vidx
// CHECK:         %[[VALUES:.*]], %{{.*}} = "accel.for"({{.*}}) <{step = 16 : i32, hardware
// CHECK:           accel.vld
// CHECK:           accel.vadd %{{.*}}, %[[NUMBERS]]
// CHECK:           accel.vsel
// CHECK:           accel.vsel
// CHECK:         %[[MAX:.*]] = accel.vredmax.f %[[VALUES]]
// CHECK:         accel.vfeq %[[VALUES]], %[[MAX]]
// CHECK:         accel.vfne %[[VALUES]], %[[VALUES]]
// CHECK:         %[[FIRST:.*]] = accel.vredmin
// CHECK:         accel.vredmax.f
// CHECK:         "accel.for"({{.*}}) <{step = 1 : i32, hardware
// CHECK:           accel.lw
loop.kernel @argmax(%x: memref<37xf32>, %y: memref<1xf32>, %z: memref<1xi32>) {
  %low = arith.constant 0xFF800000 : f32
  %first = arith.constant 0 : i32
  %zero = arith.constant 0 : index
  %s, %t = loop.for %j = 0 to 37 step 1 iter_args(%acc = %low, %at = %first) -> (f32, i32) {
    %v = loop.load %x[%j] : memref<37xf32>
    %n = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %acc, %v : f32
    %nan = arith.cmpf une, %acc, %acc : f32
    %pick = arith.ori %gt, %nan : i1
    %eq = arith.cmpf oeq, %acc, %v : f32
    %lt = arith.cmpi slt, %at, %n : i32
    %tie = arith.andi %eq, %lt : i1
    %keep = arith.ori %pick, %tie : i1
    %value = arith.select %pick, %acc, %v : f32
    %index = arith.select %keep, %at, %n : i32
    loop.yield %value, %index : f32, i32
  }
  loop.store %s, %y[%zero] : memref<1xf32>
  loop.store %t, %z[%zero] : memref<1xi32>
  loop.return
}

// Left in order: ties keep the later index (the lanes' rule picks the
// first), so the loop is not the argmax the lanes compute.
// CHECK-LABEL: accel.kernel "last_argmax", 3
// CHECK-NOT:     accel.vredmin
// CHECK-NOT:     step = {{16|64}}
// CHECK:         accel.halt
loop.kernel @last_argmax(%x: memref<37xf32>, %y: memref<1xf32>, %z: memref<1xi32>) {
  %low = arith.constant 0xFF800000 : f32
  %first = arith.constant 0 : i32
  %zero = arith.constant 0 : index
  %s, %t = loop.for %j = 0 to 37 step 1 iter_args(%acc = %low, %at = %first) -> (f32, i32) {
    %v = loop.load %x[%j] : memref<37xf32>
    %n = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %acc, %v : f32
    %nan = arith.cmpf une, %acc, %acc : f32
    %pick = arith.ori %gt, %nan : i1
    %eq = arith.cmpf oeq, %acc, %v : f32
    %lt = arith.cmpi sgt, %at, %n : i32
    %tie = arith.andi %eq, %lt : i1
    %keep = arith.ori %pick, %tie : i1
    %value = arith.select %pick, %acc, %v : f32
    %index = arith.select %keep, %at, %n : i32
    loop.yield %value, %index : f32, i32
  }
  loop.store %s, %y[%zero] : memref<1xf32>
  loop.store %t, %z[%zero] : memref<1xi32>
  loop.return
}
