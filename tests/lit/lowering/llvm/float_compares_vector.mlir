// RUN: xlir-opt %s -p loop-to-llvm | filecheck %s
// RUN: xlir-opt %s -p loop-to-llvm | xlir-opt | filecheck %s
// RUN: xlir-opt %s -p loop-to-llvm | xlir-translate - | filecheck %s --check-prefix=IR

// Float compares of vectors (a register tile's relu or mask): an ordered or
// unordered predicate is one llvm.fcmp of the vectors, giving a vector of
// i1 that a select takes lane by lane; the NaN tests (`x une x`, `ord`) stay
// integer tests of the bits (nan_tests.mlir says why), and `true`/`false`
// are a splat i1.

// CHECK-LABEL: llvm.func internal @lanes
// CHECK:         %[[X:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK:         %[[Y:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK-NEXT:    %[[LT:.*]] = llvm.fcmp "olt" %[[X]], %[[Y]] : vector<4xf32>
// CHECK-NEXT:    %[[UGE:.*]] = llvm.fcmp "uge" %[[X]], %[[Y]] : vector<4xf32>
// CHECK:         %[[XB:.*]] = llvm.bitcast %[[X]] : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:    %[[XM:.*]] = llvm.and %[[XB]], %{{.*}} : vector<4xi32>
// CHECK-NEXT:    %[[NAN:.*]] = llvm.icmp "sgt" %[[XM]], %{{.*}} : vector<4xi32>
// CHECK:         %[[ORD:.*]] = llvm.and %{{.*}}, %{{.*}} : vector<4xi1>
// CHECK:         %[[T:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 0, 0, 0] : vector<4xi1>
// CHECK-NEXT:    %[[A:.*]] = llvm.select %[[LT]], %[[X]], %[[Y]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %[[B:.*]] = llvm.select %[[UGE]], %[[A]], %[[Y]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %[[C:.*]] = llvm.select %[[NAN]], %[[B]], %[[Y]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %[[D:.*]] = llvm.select %[[ORD]], %[[C]], %[[Y]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    llvm.select %[[T]], %[[D]], %[[Y]] : vector<4xi1>, vector<4xf32>
// CHECK:         %[[S:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
// CHECK-NEXT:    llvm.fcmp "one" %[[S]], %[[S]] : f64

// IR-LABEL: define internal void @lanes
// IR: fcmp olt <4 x float> %{{.*}}, %{{.*}}
// IR: fcmp uge <4 x float> %{{.*}}, %{{.*}}
// IR: select <4 x i1> %{{.*}}, <4 x float> %{{.*}}, <4 x float>
// IR: fcmp one double
loop.kernel @lanes(%a: memref<8xf32>, %b: memref<8xf32>, %d: memref<2xf64>) {
  %i = arith.constant 0 : index
  %j = arith.constant 4 : index
  %x = loop.load %a[%i] : memref<8xf32>, vector<4xf32>
  %y = loop.load %a[%j] : memref<8xf32>, vector<4xf32>
  %lt = arith.cmpf olt, %x, %y : vector<4xf32>
  %uge = arith.cmpf uge, %x, %y : vector<4xf32>
  %nan = arith.cmpf une, %x, %x : vector<4xf32>
  %ord = arith.cmpf ord, %x, %y : vector<4xf32>
  %t = arith.cmpf true, %x, %y : vector<4xf32>
  %0 = arith.select %lt, %x, %y : vector<4xi1>, vector<4xf32>
  %1 = arith.select %uge, %0, %y : vector<4xi1>, vector<4xf32>
  %2 = arith.select %nan, %1, %y : vector<4xi1>, vector<4xf32>
  %3 = arith.select %ord, %2, %y : vector<4xi1>, vector<4xf32>
  %4 = arith.select %t, %3, %y : vector<4xi1>, vector<4xf32>
  loop.store %4, %b[%i] : memref<8xf32>, vector<4xf32>
  %s = loop.load %d[%i] : memref<2xf64>
  %one = arith.cmpf one, %s, %s : f64
  %r = arith.select %one, %s, %s : f64
  loop.store %r, %d[%i] : memref<2xf64>
  loop.return
}
