// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=20000 reserved-bytes=0}' | filecheck %s
// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=20000 reserved-bytes=0 matrix=false}' | filecheck %s --check-prefix=TILED

// A matrix product whose buffers (20 KiB) do not fit is left whole when
// the matrix unit computes it (its blocking streams the operands), and
// tiled along its rows when it does not (the benchmarks' naive pipeline):
// B staged whole, two slots of A's and C's rows.
// CHECK-LABEL: loop.kernel @product
// CHECK-NOT:     accel.tile_size
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (32, 32)
// TILED-LABEL: loop.kernel @product
// TILED:         loop.for {{.*}} attributes {accel.tile_size = {{[0-9]+}} : i64, accel.tile_dimension = 0 : i64, accel.tiled_buffers = array<i64: 0, 2>
loop.kernel @product(%a: memref<32x64xf32>, %b: memref<64x32xf32>, %c: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %s = loop.for %k = 0 to 64 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<32x64xf32>
      %y = loop.load %b[%k, %j] : memref<64x32xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<32x32xf32>
  }
  loop.return
}
