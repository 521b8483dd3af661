// RUN: xlir-opt %s -p 'gemm-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'gemm-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | xlir-opt --split-input-file | filecheck %s

// A bf16 dot as `widen-floats` leaves it: each bf16 load widened to f32 in
// the sum (its bits shifted to an f32's top half), the sum rounded to the
// bf16 C by the epilogue. Each operand is widened into an f32 copy by a nest
// before the calls, the routine stores the sums to an f32 buffer of C's
// shape, and the epilogue after each call reads them and stores to C.
// CHECK-LABEL: loop.kernel @bf16_dot(
// CHECK-SAME:    %[[A:[^:]*]]: memref<256x8xbf16>, %[[B:[^:]*]]: memref<8x256xbf16>, %[[C:[^:]*]]: memref<256x256xbf16>, %[[AF:[^:]*]]: memref<256x8xf32>, %[[BF:[^:]*]]: memref<8x256xf32>, %[[S:[^:]*]]: memref<256x256xf32>, %[[P:[^:]*]]: memref<32x8x8xf32>)
// CHECK:         loop.parallel (%[[I:.*]], %[[K:.*]]) = (0, 0) to (256, 8) step (1, 1) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %[[A]][%[[I]], %[[K]]] : memref<256x8xbf16>
// CHECK-NEXT:      %[[XB:.*]] = arith.bitcast %[[X]] : bf16 to i16
// CHECK-NEXT:      %[[XE:.*]] = arith.extui %[[XB]] : i16 to i32
// CHECK-NEXT:      %[[XC:.*]] = arith.constant 16 : i32
// CHECK-NEXT:      %[[XS:.*]] = arith.shli %[[XE]], %[[XC]] : i32
// CHECK-NEXT:      %[[XF:.*]] = arith.bitcast %[[XS]] : i32 to f32
// CHECK-NEXT:      loop.store %[[XF]], %[[AF]][%[[I]], %[[K]]] : memref<256x8xf32>
// CHECK:         loop.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (8, 256) step (1, 1) {
// CHECK:           loop.store %{{.*}}, %[[BF]][%{{.*}}, %{{.*}}] : memref<8x256xf32>
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (256) step (8) attributes {threads = 2 : i64} {
// CHECK:           loop.call @xlir.gemm_f32_4x4(%[[AF]], %[[BF]], %[[S]], %[[P]],
// CHECK:           loop.parallel (%[[R:.*]], %[[D:.*]]) = (0, 0) to (256, 8) step (1, 1) {
// CHECK-NEXT:        %[[COL:.*]] = arith.addi %[[J]], %[[D]] : index
// CHECK-NEXT:        %[[SUM:.*]] = loop.load %[[S]][%[[R]], %[[COL]]] : memref<256x256xf32>
// CHECK-NEXT:        %[[ROUNDED:.*]] = arith.truncf %[[SUM]] : f32 to bf16
// CHECK-NEXT:        loop.store %[[ROUNDED]], %[[C]][%[[R]], %[[COL]]] : memref<256x256xbf16>
// CHECK-LABEL: func.func @main(
// CHECK:         device.launch @bf16_dot(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
loop.kernel @bf16_dot(%a: memref<256x8xbf16>, %b: memref<8x256xbf16>, %c: memref<256x256xbf16>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (256, 256) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<256x8xbf16>
      %y = loop.load %b[%k, %j] : memref<8x256xbf16>
      %xb = arith.bitcast %x : bf16 to i16
      %xe = arith.extui %xb : i16 to i32
      %sixteen = arith.constant 16 : i32
      %xs = arith.shli %xe, %sixteen : i32
      %xf = arith.bitcast %xs : i32 to f32
      %yb = arith.bitcast %y : bf16 to i16
      %ye = arith.extui %yb : i16 to i32
      %ys = arith.shli %ye, %sixteen : i32
      %yf = arith.bitcast %ys : i32 to f32
      %p = arith.mulf %xf, %yf : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %r = arith.truncf %s : f32 to bf16
    loop.store %r, %c[%i, %j] : memref<256x256xbf16>
  }
  loop.return
}
func.func @main(%a: memref<256x8xbf16>, %b: memref<8x256xbf16>) -> memref<256x256xbf16> {
  %stream = device.default_stream
  %c = device.alloc : memref<256x256xbf16>
  device.launch @bf16_dot(%a, %b, %c) on %stream : memref<256x8xbf16>, memref<8x256xbf16>, memref<256x256xbf16>
  device.synchronize %stream
  func.return %c : memref<256x256xbf16>
}

// -----

// A shift by 8, not a bf16's widening: the sum is not of the bf16 values
// widened exactly, so the nest stays inline.
// CHECK-LABEL: loop.kernel @not_widened(
// CHECK-NOT:     loop.call
// CHECK:         loop.for
loop.kernel @not_widened(%a: memref<256x8xbf16>, %b: memref<8x256xbf16>, %c: memref<256x256xbf16>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (256, 256) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<256x8xbf16>
      %y = loop.load %b[%k, %j] : memref<8x256xbf16>
      %xb = arith.bitcast %x : bf16 to i16
      %xe = arith.extui %xb : i16 to i32
      %sixteen = arith.constant 8 : i32
      %xs = arith.shli %xe, %sixteen : i32
      %xf = arith.bitcast %xs : i32 to f32
      %yb = arith.bitcast %y : bf16 to i16
      %ye = arith.extui %yb : i16 to i32
      %ys = arith.shli %ye, %sixteen : i32
      %yf = arith.bitcast %ys : i32 to f32
      %p = arith.mulf %xf, %yf : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %r = arith.truncf %s : f32 to bf16
    loop.store %r, %c[%i, %j] : memref<256x256xbf16>
  }
  loop.return
}
func.func @main(%a: memref<256x8xbf16>, %b: memref<8x256xbf16>) -> memref<256x256xbf16> {
  %stream = device.default_stream
  %c = device.alloc : memref<256x256xbf16>
  device.launch @not_widened(%a, %b, %c) on %stream : memref<256x8xbf16>, memref<8x256xbf16>, memref<256x256xbf16>
  device.synchronize %stream
  func.return %c : memref<256x256xbf16>
}

// -----

// 16384 columns: the f32 sums would take 16 MiB, more than `_widening_pays`
// allows, so the nest stays inline.
// CHECK-LABEL: loop.kernel @large_sums(
// CHECK-NOT:     loop.call
// CHECK:         loop.for
loop.kernel @large_sums(%a: memref<256x8xbf16>, %b: memref<8x16384xbf16>, %c: memref<256x16384xbf16>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (256, 16384) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<256x8xbf16>
      %y = loop.load %b[%k, %j] : memref<8x16384xbf16>
      %xb = arith.bitcast %x : bf16 to i16
      %xe = arith.extui %xb : i16 to i32
      %sixteen = arith.constant 16 : i32
      %xs = arith.shli %xe, %sixteen : i32
      %xf = arith.bitcast %xs : i32 to f32
      %yb = arith.bitcast %y : bf16 to i16
      %ye = arith.extui %yb : i16 to i32
      %ys = arith.shli %ye, %sixteen : i32
      %yf = arith.bitcast %ys : i32 to f32
      %p = arith.mulf %xf, %yf : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %r = arith.truncf %s : f32 to bf16
    loop.store %r, %c[%i, %j] : memref<256x16384xbf16>
  }
  loop.return
}
func.func @main(%a: memref<256x8xbf16>, %b: memref<8x16384xbf16>) -> memref<256x16384xbf16> {
  %stream = device.default_stream
  %c = device.alloc : memref<256x16384xbf16>
  device.launch @large_sums(%a, %b, %c) on %stream : memref<256x8xbf16>, memref<8x16384xbf16>, memref<256x16384xbf16>
  device.synchronize %stream
  func.return %c : memref<256x16384xbf16>
}
