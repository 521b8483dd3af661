// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A condition chooses among lanes of its own shape.

func.func @wrong_lanes(%c: vector<8xi1>, %a: vector<4xi32>) {
  %0 = arith.select %c, %a, %a : vector<8xi1>, vector<4xi32>
  func.return
}
// CHECK: arith_compare_select_invalid.mlir:6:3: error: a condition of type vector<8xi1> chooses lanes of a vector of that shape, not of vector<4xi32>

// -----

// A compare of vectors gives one i1 per lane.

func.func @one_result(%a: vector<4xi32>) {
  %0 = "arith.cmpi"(%a, %a) <{predicate = 0 : i64}> : (vector<4xi32>, vector<4xi32>) -> i1
  func.return
}
// CHECK: arith_compare_select_invalid.mlir:16:3: error: result type i1 does not match operands of type vector<4xi32> (expected vector<4xi1>)

// -----

func.func @float_one_result(%a: vector<4xf16>) {
  %0 = "arith.cmpf"(%a, %a) <{predicate = 1 : i64}> : (vector<4xf16>, vector<4xf16>) -> i1
  func.return
}
// CHECK: arith_compare_select_invalid.mlir:24:3: error: result type i1 does not match operands of type vector<4xf16> (expected vector<4xi1>)

// -----

func.func @float_lanes_of_llvm(%a: vector<4xf32>) {
  %0 = "llvm.fcmp"(%a, %a) <{predicate = 1 : i64}> : (vector<4xf32>, vector<4xf32>) -> vector<8xi1>
  func.return
}
// CHECK: arith_compare_select_invalid.mlir:32:3: error: result type vector<8xi1> does not match operands of type vector<4xf32>
