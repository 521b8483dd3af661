// RUN: xlir-opt %s -p 'gemm-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'gemm-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | xlir-opt --split-input-file | filecheck %s

// A bf16 dot as `widen-floats` leaves it: each bf16 load widened to f32 in
// the sum (its bits shifted to an f32's top half), the sum rounded to the
// bf16 C by the epilogue (its integer code for `arith.truncf`: to nearest,
// ties to even, a NaN quieted). The routine's bf16 entry that stores C rounded
// reads the bf16 operands (it widens them as it reads them: no widened
// copy) and rounds the sums as the epilogue does: no sums buffer, no
// epilogue nest.
// CHECK-LABEL: loop.kernel @bf16_dot(
// CHECK-SAME:    %[[A:[^:]*]]: memref<256x8xbf16>, %[[B:[^:]*]]: memref<8x256xbf16>, %[[C:[^:]*]]: memref<256x256xbf16>, %[[P:[^:]*]]: memref<32x8x8xf32>)
// CHECK-NOT:     loop.store
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (256) step (8) attributes {threads = 2 : i64} {
// CHECK:           loop.call @xlir.gemm_f32_4x4.bf16.to_bf16(%[[A]], %[[B]], %[[C]], %[[P]],
// CHECK-NOT:       loop.parallel
// CHECK-NOT:       loop.store
// CHECK:         loop.return
// CHECK-LABEL: func.func @main(
// CHECK:         device.launch @bf16_dot(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
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
    %bits = arith.bitcast %s : f32 to i32
    %mask = arith.constant 2147483647 : i32
    %magnitude = arith.andi %bits, %mask : i32
    %c0 = arith.constant 0 : i32
    %negative = arith.cmpi slt, %bits, %c0 : i32
    %infinity = arith.constant 2139095040 : i32
    %nan = arith.cmpi ugt, %magnitude, %infinity : i32
    %c16 = arith.constant 16 : i32
    %top = arith.shrui %bits, %c16 : i32
    %c64 = arith.constant 64 : i32
    %quiet = arith.ori %top, %c64 : i32
    %top2 = arith.shrui %bits, %c16 : i32
    %c1 = arith.constant 1 : i32
    %lsb = arith.andi %top2, %c1 : i32
    %c15 = arith.constant 15 : i32
    %half = arith.shli %c1, %c15 : i32
    %half_less = arith.subi %half, %c1 : i32
    %up = arith.addi %bits, %half_less : i32
    %even = arith.addi %up, %lsb : i32
    %nearest = arith.shrui %even, %c16 : i32
    %rounded = arith.select %nan, %quiet, %nearest : i32
    %narrow = arith.trunci %rounded : i32 to i16
    %r = arith.bitcast %narrow : i16 to bf16
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

// An epilogue that does more than round (a relu on the f32 sum): the bf16
// entry stores the f32 sums to a buffer of C's shape, and the epilogue
// after each call reads them, and rounds and stores to C (over the panel's
// 8 columns from 0, offset inside: N is whole panels).
// CHECK-LABEL: loop.kernel @bf16_relu(
// CHECK-SAME:    %[[A:[^:]*]]: memref<256x8xbf16>, %[[B:[^:]*]]: memref<8x256xbf16>, %[[C:[^:]*]]: memref<256x256xbf16>, %[[S:[^:]*]]: memref<256x256xf32>, %[[P:[^:]*]]: memref<32x8x8xf32>)
// CHECK-NOT:     loop.store
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (256) step (8) attributes {threads = 2 : i64} {
// CHECK:           loop.call @xlir.gemm_f32_4x4.bf16(%[[A]], %[[B]], %[[S]], %[[P]],
// CHECK-NOT:       arith.minui
// CHECK:           loop.parallel (%[[R:.*]], %[[D:.*]]) = (0, 0) to (256, 8) step (1, 1) {
// CHECK-NEXT:        %[[COL:.*]] = arith.addi %[[J]], %[[D]] : index
// CHECK-NEXT:        %[[SUM:.*]] = loop.load %[[S]][%[[R]], %[[COL]]] : memref<256x256xf32>
// CHECK-NEXT:        %[[RELU:.*]] = arith.maximumf %[[SUM]], %{{.*}} : f32
// CHECK-NEXT:        %[[ROUNDED:.*]] = arith.truncf %[[RELU]] : f32 to bf16
// CHECK-NEXT:        loop.store %[[ROUNDED]], %[[C]][%[[R]], %[[COL]]] : memref<256x256xbf16>
// CHECK-LABEL: func.func @main(
// CHECK:         device.launch @bf16_relu(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
loop.kernel @bf16_relu(%a: memref<256x8xbf16>, %b: memref<8x256xbf16>, %c: memref<256x256xbf16>) {
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
    %relu = arith.maximumf %s, %zero : f32
    %r = arith.truncf %relu : f32 to bf16
    loop.store %r, %c[%i, %j] : memref<256x256xbf16>
  }
  loop.return
}
func.func @main(%a: memref<256x8xbf16>, %b: memref<8x256xbf16>) -> memref<256x256xbf16> {
  %stream = device.default_stream
  %c = device.alloc : memref<256x256xbf16>
  device.launch @bf16_relu(%a, %b, %c) on %stream : memref<256x8xbf16>, memref<8x256xbf16>, memref<256x256xbf16>
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

// 16384 columns and a relu: the f32 sums would take 16 MiB, more than
// `_sums_pay` allows, so the nest stays inline.
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
    %relu = arith.maximumf %s, %zero : f32
    %r = arith.truncf %relu : f32 to bf16
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

// -----

// A 4096 x 1024 bf16 A: its f32 copy would have taken 16 MiB, but the bf16
// entry reads it as it is, and the f32 C needs no buffer of sums: the dot
// calls the routine.
// CHECK-LABEL: loop.kernel @large_operand(
// CHECK-SAME:    %[[A:[^:]*]]: memref<4096x1024xbf16>, %[[B:[^:]*]]: memref<1024x64xbf16>, %[[C:[^:]*]]: memref<4096x64xf32>, %[[P:[^:]*]]: memref<8x1024x8xf32>)
// CHECK:         loop.call @xlir.gemm_f32_4x4.bf16(%[[A]], %[[B]], %[[C]], %[[P]],
// CHECK-NOT:     loop.for
loop.kernel @large_operand(%a: memref<4096x1024xbf16>, %b: memref<1024x64xbf16>, %c: memref<4096x64xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (4096, 64) step (1, 1) {
    %s = loop.for %k = 0 to 1024 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<4096x1024xbf16>
      %y = loop.load %b[%k, %j] : memref<1024x64xbf16>
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
    loop.store %s, %c[%i, %j] : memref<4096x64xf32>
  }
  loop.return
}
func.func @main(%a: memref<4096x1024xbf16>, %b: memref<1024x64xbf16>) -> memref<4096x64xf32> {
  %stream = device.default_stream
  %c = device.alloc : memref<4096x64xf32>
  device.launch @large_operand(%a, %b, %c) on %stream : memref<4096x1024xbf16>, memref<1024x64xbf16>, memref<4096x64xf32>
  device.synchronize %stream
  func.return %c : memref<4096x64xf32>
}

// -----

// An f32 A times a bf16 B: the routine reads A and B of one element type,
// so the nest stays inline.
// CHECK-LABEL: loop.kernel @mixed_operands(
// CHECK-NOT:     loop.call
// CHECK:         loop.for
loop.kernel @mixed_operands(%a: memref<256x8xf32>, %b: memref<8x256xbf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (256, 256) step (1, 1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<256x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x256xbf16>
      %yb = arith.bitcast %y : bf16 to i16
      %ye = arith.extui %yb : i16 to i32
      %sixteen = arith.constant 16 : i32
      %ys = arith.shli %ye, %sixteen : i32
      %yf = arith.bitcast %ys : i32 to f32
      %p = arith.mulf %x, %yf : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<256x256xf32>
  }
  loop.return
}
func.func @main(%a: memref<256x8xf32>, %b: memref<8x256xbf16>) -> memref<256x256xf32> {
  %stream = device.default_stream
  %c = device.alloc : memref<256x256xf32>
  device.launch @mixed_operands(%a, %b, %c) on %stream : memref<256x8xf32>, memref<8x256xbf16>, memref<256x256xf32>
  device.synchronize %stream
  func.return %c : memref<256x256xf32>
}

// -----

// The epilogue's rounding adds a quarter of an ulp less one, not half: not
// the rounding of `arith.truncf`, so the routine stores f32 sums and the
// epilogue runs on them.
// CHECK-LABEL: loop.kernel @half_ulp_off(
// CHECK-NOT:     loop.call @xlir.gemm_f32_4x4.bf16.to_bf16
// CHECK:         loop.call @xlir.gemm_f32_4x4.bf16(
// CHECK:           arith.constant 14 : i32
loop.kernel @half_ulp_off(%a: memref<256x8xbf16>, %b: memref<8x256xbf16>, %c: memref<256x256xbf16>) {
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
    %bits = arith.bitcast %s : f32 to i32
    %mask = arith.constant 2147483647 : i32
    %magnitude = arith.andi %bits, %mask : i32
    %c0 = arith.constant 0 : i32
    %negative = arith.cmpi slt, %bits, %c0 : i32
    %infinity = arith.constant 2139095040 : i32
    %nan = arith.cmpi ugt, %magnitude, %infinity : i32
    %c16 = arith.constant 16 : i32
    %top = arith.shrui %bits, %c16 : i32
    %c64 = arith.constant 64 : i32
    %quiet = arith.ori %top, %c64 : i32
    %top2 = arith.shrui %bits, %c16 : i32
    %c1 = arith.constant 1 : i32
    %lsb = arith.andi %top2, %c1 : i32
    %c15 = arith.constant 14 : i32
    %half = arith.shli %c1, %c15 : i32
    %half_less = arith.subi %half, %c1 : i32
    %up = arith.addi %bits, %half_less : i32
    %even = arith.addi %up, %lsb : i32
    %nearest = arith.shrui %even, %c16 : i32
    %rounded = arith.select %nan, %quiet, %nearest : i32
    %narrow = arith.trunci %rounded : i32 to i16
    %r = arith.bitcast %narrow : i16 to bf16
    loop.store %r, %c[%i, %j] : memref<256x256xbf16>
  }
  loop.return
}
func.func @main(%a: memref<256x8xbf16>, %b: memref<8x256xbf16>) -> memref<256x256xbf16> {
  %stream = device.default_stream
  %c = device.alloc : memref<256x256xbf16>
  device.launch @half_ulp_off(%a, %b, %c) on %stream : memref<256x8xbf16>, memref<8x256xbf16>, memref<256x256xbf16>
  device.synchronize %stream
  func.return %c : memref<256x256xbf16>
}


