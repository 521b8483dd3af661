// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A diagnostic at an op that JAX located names the user's Python line too.
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [0] x [1] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(#loc2)
  func.return %0 : tensor<4xf32>
}
#loc1 = loc("model.py":13:4 to :30)
#loc2 = loc(callsite("jit(f)/dot_general"(#loc1) at "main"("run.py":3:0)))
// CHECK: locations_invalid.mlir:5:3: error: 'stablehlo.dot_general' op rhs batching and contracting dimensions [1] has dimension 1 out of range [0, 1)
// CHECK: model.py:13:4: note: made here as 'jit(f)/dot_general'

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<4xf32> loc(#loc9)
  func.return %0 : tensor<4xf32>
}
// CHECK: locations_invalid.mlir:16:56: error: undefined location alias #loc9: expected a line `#loc9 = loc(...)` in this text

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<4xf32> loc(#loc1)
  func.return %0 : tensor<4xf32>
}
#loc1 = loc(#loc1)
// CHECK: locations_invalid.mlir:27:13: error: location alias #loc1 refers to itself

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<4xf32> loc(#loc1)
  func.return %0 : tensor<4xf32>
}
#loc1 = loc("f.py":1:2)
#loc1 = loc("f.py":3:4)
// CHECK: locations_invalid.mlir:37:1: error: location alias #loc1 is defined twice

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<4xf32> loc(callsite("a" at))
  func.return %0 : tensor<4xf32>
}
// CHECK: locations_invalid.mlir:43:71: error: expected a location: unknown, "file":line:col, "name", "name"(location), callsite(location at location), fused[...] or a #loc alias; found ')'

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<4xf32> loc("f.py":3)
  func.return %0 : tensor<4xf32>
}
// CHECK: locations_invalid.mlir:51:64: error: Expected ':' between a location's line and column

// -----

// An op xlir does not know is not made, but its line's location is read.
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.zeta %arg0, %arg0 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32> loc(#loc3)
  func.return %0 : tensor<4xf32>
}
#loc2 = loc("model.py":5:11 to :30)
#loc3 = loc("jit(f)/zeta"(#loc2))
// CHECK: locations_invalid.mlir:60:18: error: Operation chlo.zeta is not registered
// CHECK: model.py:5:11: note: made here as 'jit(f)/zeta'

// -----

// (a mutant of the corpus's text the fuzzer found)
#loc12 = loc loc("f.py":1:2)
// CHECK: locations_invalid.mlir:71:10: error: expected 'loc(...)' defining location alias #loc12
// CHECK-NOT: note
