// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Integer casts take vectors as well as scalars, as register tiles make them
// (an int8 contraction widens vectors of i8 lanes).

// CHECK-LABEL: func.func @casts
// CHECK:         arith.extsi %v : vector<4xi8> to vector<4xi32>
// CHECK-NEXT:    arith.extui %v : vector<4xi8> to vector<4xi32>
// CHECK-NEXT:    arith.trunci %w : vector<4xi32> to vector<4xi8>
// CHECK-NEXT:    arith.sitofp %w : vector<4xi32> to vector<4xf32>
// CHECK-NEXT:    arith.extsi %s : i8 to i64
func.func @casts(%v: vector<4xi8>, %w: vector<4xi32>, %s: i8) {
  %0 = arith.extsi %v : vector<4xi8> to vector<4xi32>
  %1 = arith.extui %v : vector<4xi8> to vector<4xi32>
  %2 = arith.trunci %w : vector<4xi32> to vector<4xi8>
  %3 = arith.sitofp %w : vector<4xi32> to vector<4xf32>
  %4 = arith.extsi %s : i8 to i64
  func.return
}

// -----

// A widening cast must widen, lane by lane as well.

func.func @narrowing_extsi(%v: vector<4xi32>) {
  %0 = arith.extsi %v : vector<4xi32> to vector<4xi8>
  func.return
}
// CHECK: arith_casts.mlir:26:3: error: Destination bit-width must be larger than the input bit-width

// -----

func.func @widening_trunci(%s: i8) {
  %0 = arith.trunci %s : i8 to i32
  func.return
}
// CHECK: arith_casts.mlir:34:3: error: Destination bit-width must be smaller than the input bit-width
