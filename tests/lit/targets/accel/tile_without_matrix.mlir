// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=20000 reserved-bytes=0}' | filecheck %s
// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=20000 reserved-bytes=0 matrix=false}' | filecheck %s --check-prefix=TILED
// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=20000 reserved-bytes=0 matrix=false},loop-to-accel{scratchpad-bytes=20000 reserved-bytes=0 matrix=false double-buffering=false}' | filecheck %s --check-prefix=NAIVE

// A matrix product whose buffers (20 KiB) do not fit is left whole when
// the matrix unit computes it (its blocking streams the operands), and
// tiled along its rows when it does not (the benchmarks' naive pipeline):
// B staged whole, two slots of A's and C's rows.
// CHECK-LABEL: loop.kernel @product
// CHECK-NOT:     accel.tile_size
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (32, 32)
// TILED-LABEL: loop.kernel @product
// TILED:         loop.for {{.*}} attributes {accel.tile_size = {{[0-9]+}} : i64, accel.tile_dimension = 0 : i64, accel.tiled_buffers = array<i64: 0, 2>

// The naive pipeline's code for it: B loaded whole; per slot, the tile's
// load waited for, then 16 columns of C a vfmadd per step of k (A's element
// splat, B's row of 16 loaded), stored and the store waited for.
// NAIVE-LABEL: accel.kernel "product", 3
// NAIVE:         accel.dma.ld
// NAIVE-NEXT:    accel.dma.wait 0
// NAIVE:         "accel.for"
// NAIVE:           accel.dma.ld {{.*}}, 0
// NAIVE-NEXT:      accel.dma.wait 0
// NAIVE-NEXT:      accel.dma.wait 2
// NAIVE:           "accel.for"({{.*}}) <{step = 16 : i32, hardware
// NAIVE:             "accel.for"({{.*}}) <{step = 1 : i32, hardware
// NAIVE:               %[[A:.*]] = accel.vsplat
// NAIVE:               %[[B:.*]] = accel.vld
// NAIVE-NEXT:          %[[C:.*]] = accel.vfmadd %[[A]], %[[B]], %{{.*}}
// NAIVE-NEXT:          accel.yield %[[C]]
// NAIVE:             accel.vst
// NAIVE:           accel.dma.st {{.*}}, 2
// NAIVE-NEXT:      accel.dma.wait 2
// NAIVE:           accel.dma.ld {{.*}}, 1
// NAIVE-NEXT:      accel.dma.wait 1
// NAIVE:           accel.dma.st {{.*}}, 3
// NAIVE-NEXT:      accel.dma.wait 3
// NAIVE-NOT:     mmac
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
