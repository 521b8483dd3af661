// A host schedule of two streams ordered by an event, an arena and a view of
// it: the interpreter runs it through the generic device-schedule executor
// (targets/device_schedule.py) with its loop kernels, the cpu compiles it into
// its native entry; both give the same outputs.

// RUN: xlir-run %s --target interpreter | filecheck %s
// RUN: xlir-run %s --target cpu | filecheck %s

// CHECK: out0: tensor<4xf32> = [ 3.  6.  9. 12.]
// CHECK: out1: tensor<4xf32> = [0. 3. 6. 9.]

loop.kernel @iota(%x: memref<4xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %n = arith.index_cast %i : index to i64
    %f = arith.sitofp %n : i64 to f32
    loop.store %f, %x[%i] : memref<4xf32>
  }
  loop.return
}
loop.kernel @add_one(%x: memref<4xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf32>
    %one = arith.constant 1.0 : f32
    %w = arith.addf %v, %one : f32
    loop.store %w, %x[%i] : memref<4xf32>
  }
  loop.return
}
loop.kernel @scale(%x: memref<4xf32>, %y: memref<4xf32>, %k: f32) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %v = loop.load %x[%i] : memref<4xf32>
    %w = arith.mulf %v, %k : f32
    loop.store %w, %y[%i] : memref<4xf32>
  }
  loop.return
}
func.func @main() -> (memref<4xf32>, memref<4xf32>) {
  %s = device.default_stream
  %t = device.stream_create
  %e = device.event_create
  %arena = device.alloc : memref<64xi8>
  %x = loop.view %arena[0] : memref<64xi8> -> memref<4xf32>
  %a = loop.view %arena[16] : memref<64xi8> -> memref<4xf32>
  %b = device.alloc : memref<4xf32>
  %c = device.alloc : memref<4xf32>
  device.launch @iota(%x) on %s : memref<4xf32>
  device.copy device_to_device %x, %a on %s : memref<4xf32>, memref<4xf32>
  device.launch @add_one(%a) on %s : memref<4xf32>
  device.record %e on %s
  device.wait %e on %t
  %k = arith.constant 3.0 : f32
  device.launch @scale(%a, %b, %k) on %t : memref<4xf32>, memref<4xf32>, f32
  device.launch @scale(%x, %c, %k) on %s : memref<4xf32>, memref<4xf32>, f32
  device.synchronize %t
  device.synchronize %s
  device.stream_destroy %t
  device.event_destroy %e
  device.free %arena : memref<64xi8>
  func.return %b, %c : memref<4xf32>, memref<4xf32>
}
