// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every op of the device dialect, in a host function that also uses scf for
// host control flow.

loop.kernel @scale(%in: memref<64xf32>, %out: memref<64xf32>) {
  loop.return
}
loop.kernel @step(%state: memref<64xf32>, %pred: memref<i1>, %n: index) {
  loop.return
}
loop.kernel @no_args() {
  loop.return
}

// CHECK-LABEL: func.func @streams_and_events(%x: memref<64xf32>) -> memref<64xf32> {
// CHECK-NEXT:    %s = device.default_stream
// CHECK-NEXT:    %side = device.stream_create
// CHECK-NEXT:    %e = device.event_create
// CHECK-NEXT:    %y = device.alloc : memref<64xf32>
// CHECK-NEXT:    device.launch @scale(%x, %y) on %s : memref<64xf32>, memref<64xf32>
// CHECK-NEXT:    device.record %e on %s
// CHECK-NEXT:    device.wait %e on %side
// CHECK-NEXT:    device.launch @no_args() on %side
// CHECK-NEXT:    device.synchronize %side
// CHECK-NEXT:    device.event_destroy %e
// CHECK-NEXT:    device.stream_destroy %side
// CHECK-NEXT:    func.return %y : memref<64xf32>
// GENERIC:       %s = "device.default_stream"() : () -> !device.stream
// GENERIC-NEXT:  %side = "device.stream_create"() : () -> !device.stream
// GENERIC-NEXT:  %e = "device.event_create"() : () -> !device.event
// GENERIC-NEXT:  %y = "device.alloc"() : () -> memref<64xf32>
// GENERIC-NEXT:  "device.launch"(%x, %y, %s) <{kernel = @scale}> : (memref<64xf32>, memref<64xf32>, !device.stream) -> ()
// GENERIC-NEXT:  "device.record"(%e, %s) : (!device.event, !device.stream) -> ()
// GENERIC-NEXT:  "device.wait"(%e, %side) : (!device.event, !device.stream) -> ()
// GENERIC-NEXT:  "device.launch"(%side) <{kernel = @no_args}> : (!device.stream) -> ()
// GENERIC-NEXT:  "device.synchronize"(%side) : (!device.stream) -> ()
// GENERIC-NEXT:  "device.event_destroy"(%e) : (!device.event) -> ()
// GENERIC-NEXT:  "device.stream_destroy"(%side) : (!device.stream) -> ()
func.func @streams_and_events(%x: memref<64xf32>) -> memref<64xf32> {
  %s = device.default_stream
  %side = device.stream_create
  %e = device.event_create
  %y = device.alloc : memref<64xf32>
  device.launch @scale(%x, %y) on %s : memref<64xf32>, memref<64xf32>
  device.record %e on %s
  device.wait %e on %side
  device.launch @no_args() on %side
  device.synchronize %side
  device.event_destroy %e
  device.stream_destroy %side
  func.return %y : memref<64xf32>
}

// CHECK-LABEL: func.func @copies(%host: memref<4x4xf32>, %dev: memref<16xf32>) {
// CHECK-NEXT:    %s = device.default_stream
// CHECK-NEXT:    %a = device.alloc : memref<4x4xf32>
// CHECK-NEXT:    %b = device.alloc {note = "scratch"} : memref<4x4xf32>
// CHECK-NEXT:    device.copy host_to_device %host, %a on %s : memref<4x4xf32>, memref<4x4xf32>
// CHECK-NEXT:    device.copy device_to_device %a, %b on %s : memref<4x4xf32>, memref<4x4xf32>
// CHECK-NEXT:    device.copy device_to_host %b, %host on %s : memref<4x4xf32>, memref<4x4xf32>
// CHECK-NEXT:    device.synchronize %s
// CHECK-NEXT:    device.free %a : memref<4x4xf32>
// CHECK-NEXT:    device.free %b : memref<4x4xf32>
// GENERIC:       "device.copy"(%host, %a, %s) <{direction = #device<direction host_to_device>}> : (memref<4x4xf32>, memref<4x4xf32>, !device.stream) -> ()
// GENERIC:       "device.free"(%a) : (memref<4x4xf32>) -> ()
func.func @copies(%host: memref<4x4xf32>, %dev: memref<16xf32>) {
  %s = device.default_stream
  %a = device.alloc : memref<4x4xf32>
  %b = device.alloc {note = "scratch"} : memref<4x4xf32>
  device.copy host_to_device %host, %a on %s : memref<4x4xf32>, memref<4x4xf32>
  device.copy device_to_device %a, %b on %s : memref<4x4xf32>, memref<4x4xf32>
  device.copy device_to_host %b, %host on %s : memref<4x4xf32>, memref<4x4xf32>
  device.synchronize %s
  device.free %a : memref<4x4xf32>
  device.free %b : memref<4x4xf32>
  func.return
}

// A stablehlo.while whose predicate a kernel computes: the host reads it back
// with device.read_scalar and loops with scf.while.
// CHECK-LABEL: func.func @host_while(%state: memref<64xf32>, %n: index) {
// CHECK-NEXT:    %s = device.default_stream
// CHECK-NEXT:    %pred = device.alloc : memref<i1>
// CHECK-NEXT:    scf.while () : () -> () {
// CHECK-NEXT:      device.launch @step(%state, %pred, %n) on %s : memref<64xf32>, memref<i1>, index
// CHECK-NEXT:      %go = device.read_scalar %pred[] on %s : memref<i1>
// CHECK-NEXT:      scf.condition(%go)
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %third = device.read_scalar %state[%c3] on %s : memref<64xf32>
// GENERIC:       %go = "device.read_scalar"(%pred, %s) : (memref<i1>, !device.stream) -> i1
// GENERIC:       %third = "device.read_scalar"(%state, %c3, %s) : (memref<64xf32>, index, !device.stream) -> f32
func.func @host_while(%state: memref<64xf32>, %n: index) {
  %s = device.default_stream
  %pred = device.alloc : memref<i1>
  scf.while () : () -> () {
    device.launch @step(%state, %pred, %n) on %s : memref<64xf32>, memref<i1>, index
    %go = device.read_scalar %pred[] on %s : memref<i1>
    scf.condition(%go)
  } do {
    scf.yield
  }
  %c3 = arith.constant 3 : index
  %third = device.read_scalar %state[%c3] on %s : memref<64xf32>
  device.free %pred : memref<i1>
  func.return
}
