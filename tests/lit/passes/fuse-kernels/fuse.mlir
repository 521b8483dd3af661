// RUN: xlir-opt %s --split-input-file -p fuse-kernels | filecheck %s

// Softmax's shape: a row max, then a nest that reads only its own row of
// the maxima. One kernel (the first's name) with one loop over the rows;
// the second kernel's column dimension becomes an inner loop.parallel, and
// the buffer both pass is one argument.
// CHECK-LABEL: loop.kernel @row_max(
// CHECK-SAME:    %[[X:[^:]*]]: memref<4x8xf32>, %[[M:[^:]*]]: memref<4xf32>, %[[Y:[^:]*]]: memref<4x8xf32>)
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (4) step (1) {
// CHECK:           loop.for
// CHECK:           loop.store %{{.*}}, %[[M]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:      loop.parallel (%[[J:.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:        %{{.*}} = loop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %{{.*}} = loop.load %[[M]][%[[I]]] : memref<4xf32>
// CHECK:             loop.store %{{.*}}, %[[Y]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// CHECK-NOT:   loop.kernel @shift
// CHECK:       device.launch @row_max(%{{.*}}, %{{.*}}, %{{.*}}) on %{{.*}} : memref<4x8xf32>, memref<4xf32>, memref<4x8xf32>
// CHECK-NOT:   device.launch
// CHECK:       device.synchronize
builtin.module {
  loop.kernel @row_max(%x: memref<4x8xf32>, %m: memref<4xf32>) {
    %low = arith.constant 0xFF800000 : f32
    loop.parallel (%i) = (0) to (4) step (1) {
      %s = loop.for %j = 0 to 8 step 1 iter_args(%acc = %low) -> (f32) {
        %v = loop.load %x[%i, %j] : memref<4x8xf32>
        %n = arith.maximumf %acc, %v : f32
        loop.yield %n : f32
      }
      loop.store %s, %m[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @shift(%m: memref<4xf32>, %x: memref<4x8xf32>, %y: memref<4x8xf32>) {
    loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
      %v = loop.load %x[%i, %j] : memref<4x8xf32>
      %w = loop.load %m[%i] : memref<4xf32>
      %d = arith.subf %v, %w : f32
      loop.store %d, %y[%i, %j] : memref<4x8xf32>
    }
    loop.return
  }
  func.func @main(%x: memref<4x8xf32>) -> memref<4x8xf32> {
    %s = device.default_stream
    %m = device.alloc : memref<4xf32>
    %y = device.alloc : memref<4x8xf32>
    device.launch @row_max(%x, %m) on %s : memref<4x8xf32>, memref<4xf32>
    device.launch @shift(%m, %x, %y) on %s : memref<4xf32>, memref<4x8xf32>, memref<4x8xf32>
    device.synchronize %s
    func.return %y : memref<4x8xf32>
  }
}

// -----

// Three kernels in a row, the middle one reading the first's result through
// another view of the same bytes (the plan's tensor<4x1xf32> where
// tensor<4xf32> was): one row of either is 4 bytes at the same offset. All
// three become one kernel.
// CHECK-LABEL: loop.kernel @sum(
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (4) step (1) {
// CHECK:           loop.for
// CHECK:           loop.parallel (%{{.*}}) = (0) to (1) step (1) {
// CHECK:           loop.parallel (%{{.*}}) = (0) to (8) step (1) {
// CHECK:         loop.return
// CHECK-NOT:   loop.kernel
// CHECK:       device.launch @sum(
// CHECK-NOT:   device.launch
builtin.module {
  loop.kernel @sum(%x: memref<4x8xf32>, %t: memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    loop.parallel (%i) = (0) to (4) step (1) {
      %s = loop.for %j = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
        %v = loop.load %x[%i, %j] : memref<4x8xf32>
        %n = arith.addf %acc, %v : f32
        loop.yield %n : f32
      }
      loop.store %s, %t[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @mean(%t: memref<4xf32>, %u: memref<4x1xf32>) {
    %n = arith.constant 8.0 : f32
    loop.parallel (%i, %k) = (0, 0) to (4, 1) step (1, 1) {
      %v = loop.load %t[%i] : memref<4xf32>
      %d = arith.divf %v, %n : f32
      loop.store %d, %u[%i, %k] : memref<4x1xf32>
    }
    loop.return
  }
  loop.kernel @center(%x: memref<4x8xf32>, %u: memref<4x1xf32>, %y: memref<4x8xf32>) {
    %c0 = arith.constant 0 : index
    loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
      %v = loop.load %x[%i, %j] : memref<4x8xf32>
      %w = loop.load %u[%i, %c0] : memref<4x1xf32>
      %d = arith.subf %v, %w : f32
      loop.store %d, %y[%i, %j] : memref<4x8xf32>
    }
    loop.return
  }
  func.func @main(%x: memref<4x8xf32>) -> memref<4x8xf32> {
    %s = device.default_stream
    %arena = device.alloc : memref<16xi8>
    %t = loop.view %arena[0] : memref<16xi8> -> memref<4xf32>
    %u = loop.view %arena[0] : memref<16xi8> -> memref<4x1xf32>
    %y = device.alloc : memref<4x8xf32>
    device.launch @sum(%x, %t) on %s : memref<4x8xf32>, memref<4xf32>
    device.launch @mean(%t, %u) on %s : memref<4xf32>, memref<4x1xf32>
    device.launch @center(%x, %u, %y) on %s : memref<4x8xf32>, memref<4x1xf32>, memref<4x8xf32>
    device.synchronize %s
    func.return %y : memref<4x8xf32>
  }
}

// -----

// Not fused: the second kernel reads rows of the first's result other than
// its own (a reversal), a third kernel has other rows (3 against 4), and a
// fourth follows a host op that is not a buffer definition.
// CHECK-LABEL: loop.kernel @first(
// CHECK-LABEL: loop.kernel @reversed(
// CHECK-LABEL: loop.kernel @three_rows(
// CHECK-LABEL: loop.kernel @after_copy(
// CHECK:       device.launch @first(
// CHECK-NEXT:  device.launch @reversed(
// CHECK-NEXT:  device.launch @three_rows(
// CHECK-NEXT:  device.copy
// CHECK-NEXT:  device.launch @after_copy(
builtin.module {
  loop.kernel @first(%x: memref<4xf32>, %y: memref<4xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %v = loop.load %x[%i] : memref<4xf32>
      loop.store %v, %y[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @reversed(%y: memref<4xf32>, %z: memref<4xf32>) {
    %c3 = arith.constant 3 : index
    loop.parallel (%i) = (0) to (4) step (1) {
      %r = arith.subi %c3, %i : index
      %v = loop.load %y[%r] : memref<4xf32>
      loop.store %v, %z[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @three_rows(%z: memref<4xf32>, %w: memref<4xf32>) {
    loop.parallel (%i) = (0) to (3) step (1) {
      %v = loop.load %z[%i] : memref<4xf32>
      loop.store %v, %w[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @after_copy(%w: memref<4xf32>, %o: memref<4xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %v = loop.load %w[%i] : memref<4xf32>
      loop.store %v, %o[%i] : memref<4xf32>
    }
    loop.return
  }
  func.func @main(%x: memref<4xf32>, %h: memref<4xf32>) -> memref<4xf32> {
    %s = device.default_stream
    %y = device.alloc : memref<4xf32>
    %z = device.alloc : memref<4xf32>
    %w = device.alloc : memref<4xf32>
    %o = device.alloc : memref<4xf32>
    device.launch @first(%x, %y) on %s : memref<4xf32>, memref<4xf32>
    device.launch @reversed(%y, %z) on %s : memref<4xf32>, memref<4xf32>
    device.launch @three_rows(%z, %w) on %s : memref<4xf32>, memref<4xf32>
    device.copy device_to_device %h, %w on %s : memref<4xf32>, memref<4xf32>
    device.launch @after_copy(%w, %o) on %s : memref<4xf32>, memref<4xf32>
    device.synchronize %s
    func.return %o : memref<4xf32>
  }
}

// -----

// Not fused: a kernel launched twice; a second kernel whose first ops load
// what the first kernel writes (before the row loop, they would read it
// before it is written); a contraction, which register-tile needs whole;
// and views that overlap without being the same rows (offsets 0 and 4).
// CHECK-LABEL: loop.kernel @twice(
// CHECK-LABEL: loop.kernel @write_scalar(
// CHECK-LABEL: loop.kernel @reads_early(
// CHECK-LABEL: loop.kernel @matmul(
// CHECK-LABEL: loop.kernel @scale(
// CHECK-LABEL: loop.kernel @fill(
// CHECK-LABEL: loop.kernel @shifted(
// CHECK-COUNT-8: device.launch
builtin.module {
  loop.kernel @twice(%x: memref<4xf32>, %y: memref<4xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %v = loop.load %x[%i] : memref<4xf32>
      loop.store %v, %y[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @write_scalar(%x: memref<4xf32>, %y: memref<4xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %v = loop.load %x[%i] : memref<4xf32>
      loop.store %v, %y[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @reads_early(%y: memref<4xf32>, %z: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %first = loop.load %y[%c0] : memref<4xf32>
    loop.parallel (%i) = (0) to (4) step (1) {
      %v = loop.load %y[%i] : memref<4xf32>
      %d = arith.subf %v, %first : f32
      loop.store %d, %z[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @matmul(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
    %zero = arith.constant 0.0 : f32
    loop.parallel (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
      %s = loop.for %k = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
        %x = loop.load %a[%i, %k] : memref<4x4xf32>
        %y = loop.load %b[%k, %j] : memref<4x4xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        loop.yield %n : f32
      }
      loop.store %s, %c[%i, %j] : memref<4x4xf32>
    }
    loop.return
  }
  loop.kernel @scale(%c: memref<4x4xf32>, %d: memref<4x4xf32>) {
    loop.parallel (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
      %v = loop.load %c[%i, %j] : memref<4x4xf32>
      %w = arith.addf %v, %v : f32
      loop.store %w, %d[%i, %j] : memref<4x4xf32>
    }
    loop.return
  }
  loop.kernel @fill(%e: memref<2x2xf32>, %p: memref<2x2xf32>) {
    loop.parallel (%i, %j) = (0, 0) to (2, 2) step (1, 1) {
      %v = loop.load %e[%i, %j] : memref<2x2xf32>
      loop.store %v, %p[%i, %j] : memref<2x2xf32>
    }
    loop.return
  }
  loop.kernel @shifted(%q: memref<2x2xf32>, %o: memref<2x2xf32>) {
    loop.parallel (%i, %j) = (0, 0) to (2, 2) step (1, 1) {
      %v = loop.load %q[%i, %j] : memref<2x2xf32>
      loop.store %v, %o[%i, %j] : memref<2x2xf32>
    }
    loop.return
  }
  func.func @main(%x: memref<4xf32>, %a: memref<4x4xf32>, %b: memref<4x4xf32>, %e: memref<2x2xf32>, %o: memref<2x2xf32>) -> (memref<4xf32>, memref<4x4xf32>) {
    %s = device.default_stream
    %y = device.alloc : memref<4xf32>
    %z = device.alloc : memref<4xf32>
    %c = device.alloc : memref<4x4xf32>
    %d = device.alloc : memref<4x4xf32>
    %arena = device.alloc : memref<20xi8>
    %v0 = loop.view %arena[0] : memref<20xi8> -> memref<2x2xf32>
    %v4 = loop.view %arena[4] : memref<20xi8> -> memref<2x2xf32>
    device.launch @twice(%x, %y) on %s : memref<4xf32>, memref<4xf32>
    device.launch @twice(%y, %z) on %s : memref<4xf32>, memref<4xf32>
    device.launch @write_scalar(%x, %y) on %s : memref<4xf32>, memref<4xf32>
    device.launch @reads_early(%y, %z) on %s : memref<4xf32>, memref<4xf32>
    device.launch @matmul(%a, %b, %c) on %s : memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>
    device.launch @scale(%c, %d) on %s : memref<4x4xf32>, memref<4x4xf32>
    device.launch @fill(%e, %v0) on %s : memref<2x2xf32>, memref<2x2xf32>
    device.launch @shifted(%v4, %o) on %s : memref<2x2xf32>, memref<2x2xf32>
    device.synchronize %s
    func.return %z, %d : memref<4xf32>, memref<4x4xf32>
  }
}

// -----

// Two elementwise kernels over the same rows and columns, the second
// reading the first's result at its own element: the second's elements join
// the first's inner nest (one loop over the columns, the first's body first).
// A third kernel, over the same columns, reads the second's result in
// reverse column order: its elements stay in a nest of their own after the
// merged one.
// CHECK-LABEL: loop.kernel @scale(
// CHECK-SAME:    %[[X:[^:]*]]: memref<4x8xf32>, %[[Y:[^:]*]]: memref<4x8xf32>, %[[Z:[^:]*]]: memref<4x8xf32>, %[[W:[^:]*]]: memref<4x8xf32>)
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:      loop.parallel (%[[J:.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:        %[[V:.*]] = loop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[D:.*]] = arith.addf %[[V]], %[[V]] : f32
// CHECK-NEXT:        loop.store %[[D]], %[[Y]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[U:.*]] = loop.load %[[Y]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[U]], %[[U]] : f32
// CHECK-NEXT:        loop.store %[[M]], %[[Z]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.parallel (%[[K:.*]]) = (0) to (8) step (1) {
// CHECK:             loop.load %[[Z]][%[[I]], %{{.*}}] : memref<4x8xf32>
// CHECK:             loop.store %{{.*}}, %[[W]][%[[I]], %[[K]]] : memref<4x8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:   loop.kernel @square
// CHECK-NOT:   loop.kernel @next
builtin.module {
  loop.kernel @scale(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
    loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
      %v = loop.load %x[%i, %j] : memref<4x8xf32>
      %d = arith.addf %v, %v : f32
      loop.store %d, %y[%i, %j] : memref<4x8xf32>
    }
    loop.return
  }
  loop.kernel @square(%y: memref<4x8xf32>, %z: memref<4x8xf32>) {
    loop.parallel (%i, %j) = (0, 0) to (4, 8) step (1, 1) {
      %u = loop.load %y[%i, %j] : memref<4x8xf32>
      %m = arith.mulf %u, %u : f32
      loop.store %m, %z[%i, %j] : memref<4x8xf32>
    }
    loop.return
  }
  loop.kernel @next(%z: memref<4x8xf32>, %w: memref<4x8xf32>) {
    %seven = arith.constant 7 : index
    loop.parallel (%i, %k) = (0, 0) to (4, 8) step (1, 1) {
      %n = arith.subi %seven, %k : index
      %a = loop.load %z[%i, %n] : memref<4x8xf32>
      loop.store %a, %w[%i, %k] : memref<4x8xf32>
    }
    loop.return
  }
  func.func @main(%x: memref<4x8xf32>) -> memref<4x8xf32> {
    %s = device.default_stream
    %y = device.alloc : memref<4x8xf32>
    %z = device.alloc : memref<4x8xf32>
    %w = device.alloc : memref<4x8xf32>
    device.launch @scale(%x, %y) on %s : memref<4x8xf32>, memref<4x8xf32>
    device.launch @square(%y, %z) on %s : memref<4x8xf32>, memref<4x8xf32>
    device.launch @next(%z, %w) on %s : memref<4x8xf32>, memref<4x8xf32>
    device.synchronize %s
    func.return %w : memref<4x8xf32>
  }
}
