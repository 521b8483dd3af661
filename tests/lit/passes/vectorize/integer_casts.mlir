// RUN: xlir-opt %s -p 'vectorize{width=4}' | filecheck %s

// A column reduction whose epilogue converts its i8 result: xDSL's integer
// casts (`sitofp`, `extsi`, `extui`, `trunci`) take scalars only, so the
// columns are jammed as scalar copies (once an invalid `sitofp` of a
// `vector<4xi8>`, found by the random program fuzzer as an i8 and-reduce
// converted to bf16).
// CHECK-LABEL: loop.kernel @and_then_convert
// CHECK-NOT:     vector<
// CHECK:         arith.sitofp %{{.*}} : i8 to f32
// CHECK:         loop.return
loop.kernel @and_then_convert(%x: memref<8x16xi8>, %out: memref<16xf32>) {
  %ones = arith.constant -1 : i8
  loop.parallel (%j) = (0) to (16) step (1) {
    %s = loop.for %i = 0 to 8 step 1 iter_args(%acc = %ones) -> (i8) {
      %v = loop.load %x[%i, %j] : memref<8x16xi8>
      %n = arith.andi %acc, %v : i8
      loop.yield %n : i8
    }
    %f = arith.sitofp %s : i8 to f32
    loop.store %f, %out[%j] : memref<16xf32>
  }
  loop.return
}
