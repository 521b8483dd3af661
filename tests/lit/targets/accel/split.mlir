// RUN: xlir-opt %s -p 'accel-tile{scratchpad-bytes=3072 reserved-bytes=0}' | filecheck %s

// A kernel that does not fit and runs two nests one after another is
// split into one kernel per nest, launched in turn on its stream, so each
// tiles on its own; a piece keeps the scalar ops before its nest that it
// uses (here the second nest's offset, loaded after the first nest ran).
// CHECK-LABEL: loop.kernel @copy_then_shift_0
// CHECK-NOT:     loop.load %off
// CHECK:         loop.for {{.*}}accel.tile_size
// CHECK:       loop.return
// CHECK-LABEL: loop.kernel @copy_then_shift_1
// CHECK:         %[[OFF:.*]] = loop.load %off[] : memref<index>
// CHECK:         loop.for {{.*}}accel.tile_size
// CHECK:       loop.return
// CHECK-NOT:   loop.kernel @copy_then_shift(
// CHECK-LABEL: func.func @main
// CHECK:         device.launch @copy_then_shift_0(%{{.*}}, %{{.*}}, %{{.*}}) on %[[S:.*]] :
// CHECK-NEXT:    device.launch @copy_then_shift_1(%{{.*}}, %{{.*}}, %{{.*}}) on %[[S]] :
loop.kernel @copy_then_shift(%x: memref<32x32xf32>, %y: memref<32x32xf32>, %off: memref<index>) {
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<32x32xf32>
    loop.store %v, %y[%i, %j] : memref<32x32xf32>
  }
  %o = loop.load %off[] : memref<index>
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %v = loop.load %y[%i, %j] : memref<32x32xf32>
    %f = arith.index_cast %o : index to i32
    %g = arith.sitofp %f : i32 to f32
    %w = arith.addf %v, %g : f32
    loop.store %w, %x[%i, %j] : memref<32x32xf32>
  }
  loop.return
}
func.func @main(%x: memref<32x32xf32>, %off: memref<index>) -> memref<32x32xf32> {
  %s = device.default_stream
  %y = device.alloc : memref<32x32xf32>
  device.launch @copy_then_shift(%x, %y, %off) on %s : memref<32x32xf32>, memref<32x32xf32>, memref<index>
  device.synchronize %s
  func.return %y : memref<32x32xf32>
}
