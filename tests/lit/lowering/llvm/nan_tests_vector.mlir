// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s

// NaN tests on vectors and of two operands (uno: either is NaN), and
// `x oeq x` (not NaN) on f16, each on the bits (nan_tests.mlir says why).

// CHECK-LABEL:    llvm.func internal @tests
// CHECK:          %[[XB:.*]] = llvm.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:     %[[XM:.*]] = llvm.and %[[XB]], %{{.*}} : vector<4xi32>
// CHECK-NEXT:     %[[XN:.*]] = llvm.icmp "sgt" %[[XM]], %{{.*}} : vector<4xi32>
// CHECK:          %[[YB:.*]] = llvm.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:     %[[YM:.*]] = llvm.and %[[YB]], %{{.*}} : vector<4xi32>
// CHECK-NEXT:     %[[YN:.*]] = llvm.icmp "sgt" %[[YM]], %{{.*}} : vector<4xi32>
// CHECK-NEXT:     llvm.or %[[XN]], %[[YN]] : vector<4xi1>
// CHECK:          %[[HB:.*]] = llvm.bitcast %{{.*}} : f16 to i16
// CHECK-NEXT:     %[[HM:.*]] = llvm.and %[[HB]], %{{.*}} : i16
// CHECK-NEXT:     llvm.icmp "sle" %[[HM]], %{{.*}} : i16
loop.kernel @tests(%a: memref<8xf32>, %b: memref<8xf16>) {
  %i = arith.constant 0 : index
  %j = arith.constant 4 : index
  %x = loop.load %a[%i] : memref<8xf32>, vector<4xf32>
  %y = loop.load %a[%j] : memref<8xf32>, vector<4xf32>
  %u = arith.cmpf uno, %x, %y : vector<4xf32>
  %h = loop.load %b[%i] : memref<8xf16>
  %n = arith.cmpf oeq, %h, %h : f16
  loop.return
}
