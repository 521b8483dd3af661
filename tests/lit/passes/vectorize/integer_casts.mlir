// RUN: xlir-opt %s -p 'vectorize{width=4}' | filecheck %s
// RUN: xlir-opt %s -p 'vectorize{width=4}' | xlir-opt | filecheck %s

// A column reduction whose epilogue converts its i8 result: `sitofp` has a
// vector form (xlir.dialects.arith, beside extsi, extui, trunci, uitofp,
// fptosi and fptoui),
// so the columns become vector copies (4, one a vector of 4 columns) whose
// conversions are valid `sitofp`s of a `vector<4xi8>` (xDSL's scalar-only `sitofp` once made an
// invalid one, found by the random program fuzzer as an i8 and-reduce
// converted to bf16). The second run checks the printed form verifies.
// CHECK-LABEL: loop.kernel @and_then_convert
// CHECK:         loop.for {{.*}} -> (vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi8>)
// CHECK:         arith.sitofp %{{.*}} : vector<4xi8> to vector<4xf32>
// CHECK:         loop.store %{{.*}} : memref<16xf32>, vector<4xf32>
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

// So has `uitofp`: the columns become vector copies converting i8 lanes.
// CHECK-LABEL: loop.kernel @and_then_convert_unsigned
// CHECK:         loop.for {{.*}} -> (vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi8>)
// CHECK:         arith.uitofp %{{.*}} : vector<4xi8> to vector<4xf32>
// CHECK:         loop.store %{{.*}} : memref<16xf32>, vector<4xf32>
// CHECK:         loop.return
loop.kernel @and_then_convert_unsigned(%x: memref<8x16xi8>, %out: memref<16xf32>) {
  %ones = arith.constant -1 : i8
  loop.parallel (%j) = (0) to (16) step (1) {
    %s = loop.for %i = 0 to 8 step 1 iter_args(%acc = %ones) -> (i8) {
      %v = loop.load %x[%i, %j] : memref<8x16xi8>
      %n = arith.andi %acc, %v : i8
      loop.yield %n : i8
    }
    %f = arith.uitofp %s : i8 to f32
    loop.store %f, %out[%j] : memref<16xf32>
  }
  loop.return
}
