// RUN: xlir-opt %s | filecheck %s
// RUN: xlir-opt %s | xlir-opt | filecheck %s

// An integer or float compare of vectors gives a vector of i1, and a select takes
// one as its condition, lane by lane, as register tiles make them (a bf16
// dot's epilogue rounds its sums with them); the condition's type is
// printed only where it is a vector.

// CHECK-LABEL: func.func @lanes
// CHECK:         %[[C:.*]] = arith.cmpi ugt, %a, %b : vector<4xi32>
// CHECK-NEXT:    arith.select %[[C]], %a, %b : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:    %[[S:.*]] = arith.cmpi slt, %s, %s : i32
// CHECK-NEXT:    arith.select %[[S]], %a, %b : vector<4xi32>
// CHECK-NEXT:    arith.select %[[S]], %s, %s : i32
func.func @lanes(%a: vector<4xi32>, %b: vector<4xi32>, %s: i32) -> (vector<4xi1>, vector<4xi32>, vector<4xi32>, i32) {
  %c = arith.cmpi ugt, %a, %b : vector<4xi32>
  %0 = arith.select %c, %a, %b : vector<4xi1>, vector<4xi32>
  %d = arith.cmpi slt, %s, %s : i32
  %1 = arith.select %d, %a, %b : vector<4xi32>
  %2 = arith.select %d, %s, %s : i32
  func.return %c, %0, %1, %2 : vector<4xi1>, vector<4xi32>, vector<4xi32>, i32
}

// CHECK-LABEL: func.func @float_lanes
// CHECK:         %[[C:.*]] = arith.cmpf ult, %a, %b : vector<4xf32>
// CHECK-NEXT:    arith.select %[[C]], %a, %b : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    arith.cmpf ord, %s, %s fastmath<nnan> : f64
func.func @float_lanes(%a: vector<4xf32>, %b: vector<4xf32>, %s: f64) -> (vector<4xf32>, i1) {
  %c = arith.cmpf ult, %a, %b : vector<4xf32>
  %0 = arith.select %c, %a, %b : vector<4xi1>, vector<4xf32>
  %d = arith.cmpf ord, %s, %s fastmath<nnan> : f64
  func.return %0, %d : vector<4xf32>, i1
}
