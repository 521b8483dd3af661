// RUN: xlir-opt %s --split-input-file -p merge-kernels | filecheck %s

// Two copies of one kernel, written with other value names and at other
// locations: the second is dropped and both launches call the first. The
// third kernel differs in one constant and stays.
// CHECK-LABEL: loop.kernel @scale(
// CHECK:         arith.constant 2.000000e+00 : f32
// CHECK-NOT:   loop.kernel @scale_again
// CHECK-LABEL: loop.kernel @triple(
// CHECK:         arith.constant 3.000000e+00 : f32
// CHECK-LABEL: func.func @main
// CHECK:         device.launch @scale(%{{.*}}, %[[A:.*]]) on
// CHECK-NEXT:    device.launch @scale(%[[A]], %{{.*}}) on
// CHECK-NEXT:    device.launch @triple(
builtin.module {
  loop.kernel @scale(%x: memref<16xf32>, %y: memref<16xf32>) {
    %two = arith.constant 2.0 : f32
    loop.parallel (%i) = (0) to (16) step (1) {
      %v = loop.load %x[%i] : memref<16xf32>
      %w = arith.mulf %v, %two : f32
      loop.store %w, %y[%i] : memref<16xf32>
    }
    loop.return
  }
  loop.kernel @scale_again(%in: memref<16xf32>, %out: memref<16xf32>) {
    %c = arith.constant 2.0 : f32
    loop.parallel (%k) = (0) to (16) step (1) {
      %a = loop.load %in[%k] : memref<16xf32> loc("other.py":3:4)
      %b = arith.mulf %a, %c : f32 loc("other.py":3:8)
      loop.store %b, %out[%k] : memref<16xf32>
    }
    loop.return
  }
  loop.kernel @triple(%x: memref<16xf32>, %y: memref<16xf32>) {
    %three = arith.constant 3.0 : f32
    loop.parallel (%i) = (0) to (16) step (1) {
      %v = loop.load %x[%i] : memref<16xf32>
      %w = arith.mulf %v, %three : f32
      loop.store %w, %y[%i] : memref<16xf32>
    }
    loop.return
  }
  func.func @main(%x: memref<16xf32>) -> memref<16xf32> {
    %s = device.default_stream
    %a = device.alloc : memref<16xf32>
    %b = device.alloc : memref<16xf32>
    %c = device.alloc : memref<16xf32>
    device.launch @scale(%x, %a) on %s : memref<16xf32>, memref<16xf32>
    device.launch @scale_again(%a, %b) on %s : memref<16xf32>, memref<16xf32>
    device.launch @triple(%b, %c) on %s : memref<16xf32>, memref<16xf32>
    device.synchronize %s
    func.return %c : memref<16xf32>
  }
}

// -----

// Kernels that differ only where the form looks past the op names: the
// argument types (f32 and f64 buffers), an operand's order (x - y, y - x), a
// result type (a truncation to i32 or to i16) and an op's attributes (the
// threads `parallelize` marked). None is merged.
// CHECK-LABEL: loop.kernel @copy32(
// CHECK-LABEL: loop.kernel @copy64(
// CHECK-LABEL: loop.kernel @sub(
// CHECK-LABEL: loop.kernel @sub_swapped(
// CHECK-LABEL: loop.kernel @cast32(
// CHECK-LABEL: loop.kernel @cast16(
// CHECK-LABEL: loop.kernel @threaded(
// CHECK-LABEL: func.func @main
// CHECK:         device.launch @copy32(
// CHECK-NEXT:    device.launch @copy64(
// CHECK-NEXT:    device.launch @sub(
// CHECK-NEXT:    device.launch @sub_swapped(
// CHECK-NEXT:    device.launch @cast32(
// CHECK-NEXT:    device.launch @cast16(
// CHECK-NEXT:    device.launch @threaded(
builtin.module {
  loop.kernel @copy32(%x: memref<8xf32>, %y: memref<8xf32>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %v = loop.load %x[%i] : memref<8xf32>
      loop.store %v, %y[%i] : memref<8xf32>
    }
    loop.return
  }
  loop.kernel @copy64(%x: memref<8xf64>, %y: memref<8xf64>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %v = loop.load %x[%i] : memref<8xf64>
      loop.store %v, %y[%i] : memref<8xf64>
    }
    loop.return
  }
  loop.kernel @sub(%x: memref<8xf32>, %y: memref<8xf32>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %v = loop.load %x[%i] : memref<8xf32>
      %w = loop.load %y[%i] : memref<8xf32>
      %d = arith.subf %v, %w : f32
      loop.store %d, %y[%i] : memref<8xf32>
    }
    loop.return
  }
  loop.kernel @sub_swapped(%x: memref<8xf32>, %y: memref<8xf32>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %v = loop.load %x[%i] : memref<8xf32>
      %w = loop.load %y[%i] : memref<8xf32>
      %d = arith.subf %w, %v : f32
      loop.store %d, %y[%i] : memref<8xf32>
    }
    loop.return
  }
  loop.kernel @cast32(%x: memref<8xi64>, %y: memref<8xi64>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %v = loop.load %x[%i] : memref<8xi64>
      %c = arith.trunci %v : i64 to i32
      %e = arith.extsi %c : i32 to i64
      loop.store %e, %y[%i] : memref<8xi64>
    }
    loop.return
  }
  loop.kernel @cast16(%x: memref<8xi64>, %y: memref<8xi64>) {
    loop.parallel (%i) = (0) to (8) step (1) {
      %v = loop.load %x[%i] : memref<8xi64>
      %c = arith.trunci %v : i64 to i16
      %e = arith.extsi %c : i16 to i64
      loop.store %e, %y[%i] : memref<8xi64>
    }
    loop.return
  }
  loop.kernel @threaded(%x: memref<8xf32>, %y: memref<8xf32>) {
    loop.parallel (%i) = (0) to (8) step (1) attributes {threads = 2 : i64} {
      %v = loop.load %x[%i] : memref<8xf32>
      loop.store %v, %y[%i] : memref<8xf32>
    }
    loop.return
  }
  func.func @main(%x: memref<8xf32>, %x64: memref<8xf64>) -> memref<8xf32> {
    %s = device.default_stream
    %y = device.alloc : memref<8xf32>
    %y64 = device.alloc : memref<8xf64>
    %n = device.alloc : memref<8xi64>
    %m = device.alloc : memref<8xi64>
    device.launch @copy32(%x, %y) on %s : memref<8xf32>, memref<8xf32>
    device.launch @copy64(%x64, %y64) on %s : memref<8xf64>, memref<8xf64>
    device.launch @sub(%x, %y) on %s : memref<8xf32>, memref<8xf32>
    device.launch @sub_swapped(%x, %y) on %s : memref<8xf32>, memref<8xf32>
    device.launch @cast32(%n, %m) on %s : memref<8xi64>, memref<8xi64>
    device.launch @cast16(%n, %m) on %s : memref<8xi64>, memref<8xi64>
    device.launch @threaded(%x, %y) on %s : memref<8xf32>, memref<8xf32>
    device.synchronize %s
    func.return %y : memref<8xf32>
  }
}
