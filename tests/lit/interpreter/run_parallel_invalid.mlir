// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// interpreter.run_parallel's verifier: a rectangular grid of functions of the
// module whose arguments and results, process after process, are its own.

func.func @f(%x: tensor<i32>) -> tensor<i32> {
  func.return %x : tensor<i32>
}
func.func @ragged(%x: tensor<i32>) {
  %r:3 = "interpreter.run_parallel"(%x, %x, %x) {programs = [[@f, @f], [@f]]} : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
  func.return
}
// CHECK: run_parallel_invalid.mlir:10:3: error: 'interpreter.run_parallel' op every replica needs the same number of partitions, but the rows of programs have [1, 2] functions

// -----

func.func @empty() {
  "interpreter.run_parallel"() {programs = []} : () -> ()
  func.return
}
// CHECK: run_parallel_invalid.mlir:18:3: error: 'interpreter.run_parallel' op programs must name at least one function

// -----

func.func @unknown(%x: tensor<i32>) {
  %r = "interpreter.run_parallel"(%x) {programs = [[@missing]]} : (tensor<i32>) -> tensor<i32>
  func.return
}
// CHECK: run_parallel_invalid.mlir:26:3: error: 'interpreter.run_parallel' op @missing does not name a function of the module

// -----

func.func @f(%x: tensor<i32>) -> tensor<i32> {
  func.return %x : tensor<i32>
}
func.func @operands(%x: tensor<i32>) {
  %r:2 = "interpreter.run_parallel"(%x) {programs = [[@f], [@f]]} : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  func.return
}
// CHECK: run_parallel_invalid.mlir:37:3: error: 'interpreter.run_parallel' op operands (tensor<i32>) must be the programs' arguments one process after the other, (tensor<i32>, tensor<i32>)

// -----

func.func @f(%x: tensor<i32>) -> tensor<i32> {
  func.return %x : tensor<i32>
}
func.func @results(%x: tensor<i32>) {
  %r = "interpreter.run_parallel"(%x) {programs = [[@f]]} : (tensor<i32>) -> tensor<f32>
  func.return
}
// CHECK: run_parallel_invalid.mlir:48:3: error: 'interpreter.run_parallel' op results (tensor<f32>) must be the programs' results one process after the other, (tensor<i32>)

// -----

func.func @print_needs_a_tensor(%t: !stablehlo.token) {
  interpreter.print %t : !stablehlo.token
  func.return
}
// CHECK: run_parallel_invalid.mlir:56:3: error: 'interpreter.print' op: !stablehlo.token should be of base attribute tensor (not a type or attribute this op accepts)
