// RUN: xlir-opt %s -p decompose | filecheck %s

// IR already at the loop level (scalars and memrefs, no chlo) goes through
// unchanged: only chlo ops are looked at, so a scalar operand is no error.

// CHECK-LABEL: loop.kernel @scalars
// CHECK:         %[[E:.*]] = math.exp %{{.*}} : f32
// CHECK-NEXT:    arith.subf %[[E]], %{{.*}} : f32
loop.kernel @scalars(%x: memref<4xf32>, %y: memref<4xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf32>
    %e = math.exp %v : f32
    %d = arith.subf %e, %v : f32
    loop.store %d, %y[%i] : memref<4xf32>
  }
  loop.return
}
