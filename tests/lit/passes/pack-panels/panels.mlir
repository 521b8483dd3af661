// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=8 lanes=4},pack-panels{min-bytes=0}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=8 lanes=4},pack-panels{min-bytes=0}' --split-input-file | xlir-opt --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'register-tile{mr=2 nr=8 lanes=4},pack-panels' --split-input-file | filecheck %s --check-prefix=SMALL
// RUN: not xlir-opt %s -p 'pack-panels{min-bytes=-1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: pack-panels: min-bytes must be non-negative, got -1

// A 4x8x16 matmul in 2x8 register tiles: the panels of 8 columns are the
// outer loop; each copies its panel of B (8 rows of 8 columns, as vectors
// of 4) into its slice of a scratch argument, then runs the row tiles on
// it. The host allocates the scratch around the launch. Below the default
// min-bytes (512 bytes of B here) nothing changes.
// CHECK-LABEL: loop.kernel @matmul(
// CHECK-SAME:    %[[A:[^:]*]]: memref<4x8xf32>, %[[B:[^:]*]]: memref<8x16xf32>, %[[C:[^:]*]]: memref<4x16xf32>, %[[P:[^:]*]]: memref<2x8x8xf32>)
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (16) step (8) attributes {jam = array<i64: 8>} {
// CHECK-NEXT:      %[[W:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[JP:.*]] = arith.divui %[[J]], %[[W]] : index
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      loop.for %[[X:.*]] = 0 to 8 step 1 {
// CHECK-NEXT:        %[[V0:.*]] = loop.load %[[B]][%[[X]], %[[J]]] : memref<8x16xf32>, vector<4xf32>
// CHECK-NEXT:        loop.store %[[V0]], %[[P]][%[[JP]], %[[X]], %[[C0]]] : memref<2x8x8xf32>, vector<4xf32>
// CHECK-NEXT:        %[[J4:.*]] = arith.addi %[[J]], %[[C4]] : index
// CHECK-NEXT:        %[[V1:.*]] = loop.load %[[B]][%[[X]], %[[J4]]] : memref<8x16xf32>, vector<4xf32>
// CHECK-NEXT:        loop.store %[[V1]], %[[P]][%[[JP]], %[[X]], %[[C4]]] : memref<2x8x8xf32>, vector<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.parallel (%[[I:.*]]) = (0) to (4) step (2) attributes {jam = array<i64: 2>} {
// CHECK:             loop.for %[[K:.*]] = 0 to 8 step 1
// CHECK:               loop.load %[[A]][%[[I]], %[[K]]] : memref<4x8xf32>
// CHECK:               loop.load %[[P]][%[[JP]], %[[K]], %[[C0]]] : memref<2x8x8xf32>, vector<4xf32>
// CHECK:               loop.load %[[P]][%[[JP]], %[[K]], %[[C4]]] : memref<2x8x8xf32>, vector<4xf32>
// CHECK-NOT:           loop.load %[[B]]
// CHECK:             loop.store %{{.*}}, %[[C]][%[[I]], %[[J]]] : memref<4x16xf32>, vector<4xf32>
// CHECK-LABEL: func.func @main(
// CHECK:         %[[S:.*]] = device.alloc : memref<2x8x8xf32>
// CHECK-NEXT:    device.launch @matmul(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
// CHECK-NEXT:    device.free %[[S]] : memref<2x8x8xf32>
// SMALL-LABEL: loop.kernel @matmul(
// SMALL-SAME:    %{{[^:]*}}: memref<4x16xf32>)
// SMALL:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (4, 16) step (2, 8)
loop.kernel @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<4x16xf32>
  }
  loop.return
}
func.func @main(%a: memref<4x8xf32>, %b: memref<8x16xf32>) -> memref<4x16xf32> {
  %stream = device.default_stream
  %c = device.alloc : memref<4x16xf32>
  device.launch @matmul(%a, %b, %c) on %stream : memref<4x8xf32>, memref<8x16xf32>, memref<4x16xf32>
  device.synchronize %stream
  func.return %c : memref<4x16xf32>
}

// -----

// A batched dot reads B at the batch index: its panels would hold every
// batch and the batches' A would stream through once per panel, so it is
// left alone (the batch should stay the outer loop).
// CHECK-LABEL: loop.kernel @batched(
// CHECK-SAME:    %{{[^:]*}}: memref<2x4x16xf32>)
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (2, 4, 16) step (1, 2, 8)
loop.kernel @batched(%a: memref<2x4x8xf32>, %b: memref<2x8x16xf32>, %c: memref<2x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%n, %i, %j) = (0, 0, 0) to (2, 4, 16) step (1, 1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%n, %i, %k] : memref<2x4x8xf32>
      %y = loop.load %b[%n, %k, %j] : memref<2x8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n2 = arith.addf %acc, %p : f32
      loop.yield %n2 : f32
    }
    loop.store %s, %c[%n, %i, %j] : memref<2x4x16xf32>
  }
  loop.return
}

// -----

// One row tile: no panel would be read twice, so nothing is packed.
// CHECK-LABEL: loop.kernel @one_row_tile(
// CHECK-SAME:    %{{[^:]*}}: memref<2x16xf32>)
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (2, 16) step (2, 8)
loop.kernel @one_row_tile(%a: memref<2x8xf32>, %b: memref<8x16xf32>, %c: memref<2x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (2, 16) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<2x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x16xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<2x16xf32>
  }
  loop.return
}
