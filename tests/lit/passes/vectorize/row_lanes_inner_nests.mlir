// RUN: xlir-opt %s -p 'vectorize{width=8}' --split-input-file | filecheck %s

// A layer norm's rows: a row sum into a scratch buffer, the row's mean read
// back, then an inner nest that writes the row minus its mean. The sum's
// step is cheap, so the rows become the 8 lanes of one vector copy (its
// tiles loaded transposed) and the sums are stored as one vector; the inner
// nest runs once for the tile's rows as scalar code, the row's offset its
// outer dimension, loading the sum again at its row (the only launch passes
// distinct buffers); the lanes' own load and divide, now unused, are gone
// (the divisor's broadcast is left to LLVM).
// CHECK-LABEL: loop.kernel @centre_rows
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (16) step (8) attributes {jam = array<i64: 8>} {
// CHECK:           %[[S:.*]] = loop.for %{{.*}} = 0 to 24 step 8 iter_args(%{{.*}}) -> (vector<8xf32>) {
// CHECK-COUNT-24:    vector.shuffle
// CHECK:           loop.store %[[S]], %sum[%[[I]]] : memref<16xf32>, vector<8xf32>
// CHECK-NOT:       loop.load
// CHECK:           loop.parallel (%[[DI:.*]], %[[K:.*]]) = (0, 0) to (8, 24) step (1, 1) {
// CHECK-NEXT:        %[[ROW:.*]] = arith.addi %[[I]], %[[DI]] : index
// CHECK-NEXT:        %[[T:.*]] = loop.load %sum[%[[ROW]]] : memref<16xf32>
// CHECK-NEXT:        %[[M:.*]] = arith.divf %[[T]], %n : f32
// CHECK-NEXT:        %[[W:.*]] = loop.load %x[%[[ROW]], %[[K]]] : memref<16x24xf32>
// CHECK-NEXT:        %[[D:.*]] = arith.subf %[[W]], %[[M]] : f32
// CHECK-NEXT:        loop.store %[[D]], %y[%[[ROW]], %[[K]]] : memref<16x24xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
loop.kernel @centre_rows(%x: memref<16x24xf32>, %sum: memref<16xf32>, %y: memref<16x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 24.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %j = 0 to 24 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<16x24xf32>
      %a = arith.addf %acc, %v : f32
      loop.yield %a : f32
    }
    loop.store %s, %sum[%i] : memref<16xf32>
    %t = loop.load %sum[%i] : memref<16xf32>
    %m = arith.divf %t, %n : f32
    loop.parallel (%k) = (0) to (24) step (1) {
      %w = loop.load %x[%i, %k] : memref<16x24xf32>
      %d = arith.subf %w, %m : f32
      loop.store %d, %y[%i, %k] : memref<16x24xf32>
    }
  }
  loop.return
}
func.func @launch_centre_rows(%x: memref<16x24xf32>) -> memref<16x24xf32> {
  %stream = device.default_stream
  %sum = device.alloc : memref<16xf32>
  %y = device.alloc : memref<16x24xf32>
  device.launch @centre_rows(%x, %sum, %y) on %stream : memref<16x24xf32>, memref<16xf32>, memref<16x24xf32>
  device.synchronize %stream
  device.free %sum : memref<16xf32>
  func.return %y : memref<16x24xf32>
}

// -----

// The same without a launch: the output may be the scratch buffer, so the
// sum cannot be loaded again inside the inner nest, which then cannot run
// once for the lanes: the rows stay 8 scalar rows, each with its own clone
// of the inner nest.
// CHECK-LABEL: loop.kernel @centre_rows_may_alias
// CHECK:         loop.parallel (%{{.*}}) = (0) to (16) step (8) attributes {jam = array<i64: 8>} {
// CHECK-NOT:       vector
// CHECK:           loop.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-8:   loop.parallel (%{{.*}}) = (0) to (24) step (1) {
// CHECK-NOT:       vector
// CHECK:         loop.return
loop.kernel @centre_rows_may_alias(%x: memref<16x24xf32>, %sum: memref<16xf32>, %y: memref<16x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 24.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %j = 0 to 24 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<16x24xf32>
      %a = arith.addf %acc, %v : f32
      loop.yield %a : f32
    }
    loop.store %s, %sum[%i] : memref<16xf32>
    %t = loop.load %sum[%i] : memref<16xf32>
    %m = arith.divf %t, %n : f32
    loop.parallel (%k) = (0) to (24) step (1) {
      %w = loop.load %x[%i, %k] : memref<16x24xf32>
      %d = arith.subf %w, %m : f32
      loop.store %d, %y[%i, %k] : memref<16x24xf32>
    }
  }
  loop.return
}

// -----

// The inner nest takes the row's sum from the loop itself, not from memory:
// it cannot compute it again per row, so the rows stay 8 scalar rows, each
// with its own clone of the inner nest.
// CHECK-LABEL: loop.kernel @sum_in_register
// CHECK:         loop.parallel (%{{.*}}) = (0) to (16) step (8) attributes {jam = array<i64: 8>} {
// CHECK-NOT:       vector
// CHECK:           loop.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-8:   loop.parallel (%{{.*}}) = (0) to (24) step (1) {
// CHECK-NOT:       vector
// CHECK:         loop.return
loop.kernel @sum_in_register(%x: memref<16x24xf32>, %y: memref<16x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 24.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    %s = loop.for %j = 0 to 24 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<16x24xf32>
      %a = arith.addf %acc, %v : f32
      loop.yield %a : f32
    }
    %m = arith.divf %s, %n : f32
    loop.parallel (%k) = (0) to (24) step (1) {
      %w = loop.load %x[%i, %k] : memref<16x24xf32>
      %d = arith.subf %w, %m : f32
      loop.store %d, %y[%i, %k] : memref<16x24xf32>
    }
  }
  loop.return
}
func.func @launch_sum_in_register(%x: memref<16x24xf32>) -> memref<16x24xf32> {
  %stream = device.default_stream
  %y = device.alloc : memref<16x24xf32>
  device.launch @sum_in_register(%x, %y) on %stream : memref<16x24xf32>, memref<16x24xf32>
  device.synchronize %stream
  func.return %y : memref<16x24xf32>
}
