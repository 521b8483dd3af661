// Misuse of the runtime in a host schedule is a diagnostic at the op, from
// the generic device-schedule executor (targets/device_schedule.py).

// RUN: not xlir-run %s --target interpreter --function freed 2>&1 | filecheck %s --check-prefix=FREED
// RUN: not xlir-run %s --target interpreter --function unrecorded 2>&1 | filecheck %s --check-prefix=UNRECORDED

loop.kernel @fill(%x: memref<4xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %one = arith.constant 1.0 : f32
    loop.store %one, %x[%i] : memref<4xf32>
  }
  loop.return
}
func.func @freed() -> memref<4xf32> {
  %s = device.default_stream
  %b = device.alloc : memref<4xf32>
  %c = device.alloc : memref<4xf32>
  device.free %b : memref<4xf32>
  // FREED: device_schedule_misuse.mlir:[[# @LINE + 1]]:3: error: launch of @fill: argument 0 is a device buffer that has been freed
  device.launch @fill(%b) on %s : memref<4xf32>
  func.return %c : memref<4xf32>
}

func.func @unrecorded() -> memref<4xf32> {
  %s = device.default_stream
  %e = device.event_create
  %c = device.alloc : memref<4xf32>
  // UNRECORDED: device_schedule_misuse.mlir:[[# @LINE + 1]]:3: error: wait on an event that was never recorded
  device.wait %e on %s
  func.return %c : memref<4xf32>
}
