// RUN: xlir-opt %s --split-input-file --parsing-diagnostics | filecheck %s
// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Texts the mutation fuzzer (xlir/testing) reduced from damaged corpus files:
// each an error at file:line:col, never a traceback nor an unlocated message.

// A type the op's syntax does not accept (xDSL checks it while parsing).
func.func @float_op_on_integers(%v: i64, %w: i64) -> i64 {
  %d = arith.subf %v, %w : i64
  func.return %d : i64
}
// CHECK: mutants_invalid.mlir:9:3: error: 'arith.subf' op: Unexpected attribute i64 (not a type or attribute this op accepts)

// -----

func.func @float_op_on_index(%u: index) -> index {
  %m = arith.mulf %u, %u : index
  func.return %m : index
}
// CHECK: mutants_invalid.mlir:17:3: error: 'arith.mulf' op: Unexpected attribute index (not a type or attribute this op accepts)

// -----

func.func @integer_op_on_floats(%k: tensor<f32>) -> tensor<f32> {
  %n = arith.subi %k, %k : tensor<f32>
  func.return %n : tensor<f32>
}
// CHECK: mutants_invalid.mlir:25:3: error: 'arith.subi' op: Unexpected attribute f32 (not a type or attribute this op accepts)

// -----

// Integer types: at most MLIR's 16777215 bits; elements xDSL stores in
// bytes (dense arrays and literals): integers and floats of at most 64 bits.
func.func @too_wide_type() attributes {a = array<i99999999999999999999999: 1, 1>} {
  func.return
}
// CHECK: mutants_invalid.mlir:34:50: error: integer type i99999999999999999999999 is too wide: at most 16777215 bits

// -----

func.func @wide_array_elements() attributes {a = array<i65: -9223372036854775808>} {
  func.return
}
// CHECK: mutants_invalid.mlir:41:56: error: elements of type i65 cannot be stored: xlir stores integers of 1 to 64 bits and floats of at most 64

// -----

func.func @wide_literal_elements() -> tensor<2xi128> {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi128>
  func.return %0 : tensor<2xi128>
}
// CHECK: mutants_invalid.mlir:49:43: error: elements of type i128 cannot be stored: xlir stores integers of 1 to 64 bits and floats of at most 64

// -----

func.func @wide_float_elements() -> tensor<2xf80> {
  %0 = stablehlo.constant dense<1.5> : tensor<2xf80>
  func.return %0 : tensor<2xf80>
}
// CHECK: mutants_invalid.mlir:57:40: error: elements of type f80 cannot be stored: xlir stores integers of 1 to 64 bits and floats of at most 64

// -----

// A complex element is a (real, imaginary) pair.
func.func @complex_from_integer() -> tensor<complex<f32>> {
  %0 = stablehlo.constant dense<0> : tensor<complex<f32>>
  func.return %0 : tensor<complex<f32>>
}
// CHECK: mutants_invalid.mlir:66:33: error: expected a complex literal (real, imaginary) for complex<f32>, found 0

// -----

// A splat of more elements than xlir accepts (xDSL expands splats).
func.func @huge_splat() -> tensor<2147483648xf32> {
  %0 = stablehlo.constant dense<-0.0> : tensor<2147483648xf32>
  func.return %0 : tensor<2147483648xf32>
}
// CHECK: mutants_invalid.mlir:75:41: error: a splat literal of 2147483648 elements is too large: xlir accepts at most 16777216

// -----

// A block branched to before its definition, then defined twice.
llvm.func @block_defined_twice(%c: i1) {
  llvm.cond_br %c, ^bb1, ^bb2
^bb2:
  llvm.return
^bb2:
  llvm.return
^bb1:
  llvm.return
}
// CHECK: mutants_invalid.mlir:87:1: error: re-declaration of block 'bb2'

// -----

func.func @zero_width_elements() attributes {a = array<i0: 0, 0>} {
  func.return
}
// CHECK: mutants_invalid.mlir:96:56: error: elements of type i0 cannot be stored: xlir stores integers of 1 to 64 bits and floats of at most 64

// -----

// A complex literal element not closed after its two parts (xDSL asserts).
func.func @complex_not_closed() -> tensor<2xcomplex<f64>> {
  %c = stablehlo.constant dense<[(2.0, 0.0, (0.0, 0.0)]> : tensor<2xcomplex<f64>>
  func.return %c : tensor<2xcomplex<f64>>
}
// CHECK: mutants_invalid.mlir:105:34: error: expected ')' closing a complex literal (real, imaginary)

// -----

// Parts a complex of integers cannot hold (struct's error in xDSL).
func.func @complex_parts_out_of_range() -> tensor<1xcomplex<ui8>> {
  %c = stablehlo.constant dense<[(0.5, 300.0)]> : tensor<1xcomplex<ui8>>
  func.return %c : tensor<1xcomplex<ui8>>
}
// CHECK: mutants_invalid.mlir:114:27: error: a value of this literal does not fit its element type

// -----

// A hex literal where a complex element needs a (real, imaginary) pair.
func.func @complex_from_hex() -> tensor<complex<f32>> {
  %c = stablehlo.constant dense<0xFFFFFFFFFFFFFFFFFF> : tensor<complex<f32>>
  func.return %c : tensor<complex<f32>>
}
// CHECK: mutants_invalid.mlir:123:33: error: expected a complex literal (real, imaginary) for complex<f32>

// -----

// A float attribute of a type xDSL cannot store (a mutant's epsilon).
func.func @wide_float_attribute() attributes {a = 1.0e-3 : f128} {
  func.return
}
// CHECK: mutants_invalid.mlir:131:51: error: elements of type f128 cannot be stored: xlir stores integers of 1 to 64 bits and floats of at most 64

// -----

// A global's literal of a type xDSL cannot store (fuzzer mutant seed 985674):
// its memref type comes before the literal.
loop.global @twice : memref<4xf128> = dense<1.0>
// CHECK: mutants_invalid.mlir:140:44: error: elements of type f128 cannot be stored: xlir stores integers of 1 to 64 bits and floats of at most 64

// -----

// A global's splat of more elements than xlir accepts (fuzzer mutant seed
// 43405553): its memref type comes before the literal, which xDSL expanded.
loop.global @twice : memref<1000000000xf32> = dense<1.0>
// CHECK: mutants_invalid.mlir:147:53: error: a splat literal of 1000000000 elements is too large: xlir accepts at most 16777216

// -----

// The same as a blob of one element, which xDSL repeats.
loop.global @blob : memref<1000000000xf32> = dense<"0x0000803F">
// CHECK: mutants_invalid.mlir:153:52: error: a splat literal of 1000000000 elements is too large: xlir accepts at most 16777216

// -----

// A blob of one element in a constant's own type.
func.func @huge_blob() -> tensor<1000000000xf32> {
  %0 = stablehlo.constant dense<"0x0000803F"> : tensor<1000000000xf32>
  func.return %0 : tensor<1000000000xf32>
}
// CHECK: mutants_invalid.mlir:160:33: error: a splat literal of 1000000000 elements is too large: xlir accepts at most 16777216

// -----

// A string literal not in hex (fuzzer mutant seed 44516737): xDSL skipped
// its first two characters, read the rest as the blob of one element, and
// repeated it a billion times.
loop.global @not_hex : memref<1000000000xf32> = dense<"1x0000803F">
// CHECK: mutants_invalid.mlir:170:55: error: a dense literal given as a string must be hex bytes, "0x..."; got "1x0000803F"

// -----

// The same in a constant: a small one was read as 1.0.
func.func @not_hex() -> tensor<4xf32> {
  %0 = stablehlo.constant dense<"1x0000803F"> : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: mutants_invalid.mlir:177:33: error: a dense literal given as a string must be hex bytes, "0x..."; got "1x0000803F"
