// RUN: xlir-opt %s --split-input-file --parsing-diagnostics | filecheck %s
// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Literals that their types cannot hold: each an error at the literal, never
// a traceback.

func.func @hex_f32_too_wide() -> tensor<f32> {
  %0 = stablehlo.constant dense<0xFFFFFFFFFFFFFFFFFF> : tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK: literals_invalid.mlir:8:33: error: hexadecimal float literal 0xFFFFFFFFFFFFFFFFFF does not fit in f32: expected at most 8 hex digits (32 bits)

// -----

func.func @hex_f16_too_wide() -> tensor<f16> {
  %0 = stablehlo.constant dense<0x17C00> : tensor<f16>
  func.return %0 : tensor<f16>
}
// CHECK: literals_invalid.mlir:16:33: error: hexadecimal float literal 0x17C00 does not fit in f16: expected at most 4 hex digits (16 bits)

// -----

func.func @hex_bf16_too_wide() -> tensor<bf16> {
  %0 = stablehlo.constant dense<0x1FF80> : tensor<bf16>
  func.return %0 : tensor<bf16>
}
// CHECK: literals_invalid.mlir:24:33: error: hexadecimal float literal 0x1FF80 does not fit in bf16: expected at most 4 hex digits (16 bits)

// -----

func.func @hex_f64_too_wide() -> tensor<f64> {
  %0 = stablehlo.constant dense<0x17FF0000000000000> : tensor<f64>
  func.return %0 : tensor<f64>
}
// CHECK: literals_invalid.mlir:32:33: error: hexadecimal float literal 0x17FF0000000000000 does not fit in f64: expected at most 16 hex digits (64 bits)

// -----

func.func @hex_in_a_list_too_wide() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<[0x3F800000, 0x1FFFFFFFF]> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK: literals_invalid.mlir:40:46: error: hexadecimal float literal 0x1FFFFFFFF does not fit in f32: expected at most 8 hex digits (32 bits)

// -----

func.func @hex_float_with_sign() -> tensor<f32> {
  %0 = stablehlo.constant dense<-0x3F800000> : tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK: literals_invalid.mlir:48:33: error: a hexadecimal float literal gives the bits of the value and takes no sign: found -0x3F800000

// -----

func.func @int_below_i32() -> tensor<i32> {
  %0 = stablehlo.constant dense<-2147483649> : tensor<i32>
  func.return %0 : tensor<i32>
}
// CHECK: literals_invalid.mlir:56:27: error: Integer value -2147483649 is out of range for type i32 which supports values in the range [-2147483648, 4294967296)

// -----

func.func @dims_past_i64(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.transpose %x, dims = [18446744073709551616] : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: literals_invalid.mlir:64:40: error: integer literal 18446744073709551616 does not fit in i64: expected a value from -9223372036854775808 to 9223372036854775807

// -----

func.func @reduce_dimensions_past_i64(%x: tensor<4xf32>) -> tensor<f32> {
  %0 = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%x init: %0) applies stablehlo.add across dimensions = [18446744073709551616] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
// CHECK: literals_invalid.mlir:73:81: error: integer literal 18446744073709551616 does not fit in i64: expected a value from -9223372036854775808 to 9223372036854775807

// -----

module attributes {mhlo.num_replicas = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF : i32} {
}
// CHECK: literals_invalid.mlir:80:40: error: Integer value 22300745198530623141535718272648361505980415 is out of range for type i32 which supports values in the range [-2147483648, 4294967296)

// -----

func.func @empty_hex_blob() -> tensor<f32> {
  %0 = stablehlo.constant dense<"0x"> : tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK: literals_invalid.mlir:87:33: error: hex data of 0 bytes does not fit tensor<f32>: expected 4 bytes (one f32)

// -----

func.func @short_hex_blob() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<"0x0000803F000000"> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK: literals_invalid.mlir:95:33: error: hex data of 7 bytes does not fit tensor<2xf32>: expected 8 bytes (2 x f32) or 4 (one, repeated)

// -----

func.func @long_hex_blob() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<"0x0000803F0000803F0000803F"> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// CHECK: literals_invalid.mlir:103:33: error: hex data of 12 bytes does not fit tensor<2xf32>: expected 8 bytes (2 x f32) or 4 (one, repeated)

// -----

func.func @odd_hex_blob() -> tensor<f32> {
  %0 = stablehlo.constant dense<"0x0000803"> : tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK: literals_invalid.mlir:111:33: error: hex data of 3.5 bytes does not fit tensor<f32>: expected 4 bytes (one f32)

// -----

func.func @not_hex_blob() -> tensor<f32> {
  %0 = stablehlo.constant dense<"0xZZ"> : tensor<f32>
  func.return %0 : tensor<f32>
}
// CHECK: literals_invalid.mlir:119:33: error: expected hex digits after '0x', found 'ZZ'
