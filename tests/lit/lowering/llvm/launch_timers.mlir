// RUN: xlir-opt %s -p 'loop-to-llvm,device-to-llvm{time-launches=true}' | filecheck %s
// RUN: xlir-opt %s -p loop-to-llvm,device-to-llvm | filecheck %s --check-prefix=PLAIN

// `device-to-llvm{time-launches=true}` (behind `xlir-run --profile`): each
// launch is wrapped in calls of the target's timers with its site number
// (the launch in the loop is one site however often it runs), and the
// module records each site's kernel and the bytes of its distinct buffers
// (@scale passes %v twice: 16 bytes, not 32). Without the option a launch
// is a plain call and nothing is recorded.

// CHECK:       builtin.module attributes {xlir.launch_sites = [{kernel = "negate", bytes = 32 : i64}, {kernel = "scale", bytes = 16 : i64}], xlir.temp_bytes = {main = 0 : i64}}
// CHECK-DAG:   llvm.func @xlir.launch_begin(i64)
// CHECK-DAG:   llvm.func @xlir.launch_end(i64)
// CHECK-LABEL: llvm.func @main(
// CHECK-DAG:     %[[SITE1:.*]] = llvm.mlir.constant(1) : i64
// CHECK-DAG:     %[[SITE0:.*]] = llvm.mlir.constant(0) : i64
// CHECK:         llvm.call @xlir.launch_begin(%[[SITE0]]) : (i64) -> ()
// CHECK-NEXT:    llvm.call @negate(
// CHECK-NEXT:    llvm.call @xlir.launch_end(%[[SITE0]]) : (i64) -> ()
// CHECK:       ^{{.*}}:
// CHECK:         llvm.call @xlir.launch_begin(%[[SITE1]]) : (i64) -> ()
// CHECK-NEXT:    llvm.call @scale(
// CHECK-NEXT:    llvm.call @xlir.launch_end(%[[SITE1]]) : (i64) -> ()

// PLAIN-NOT:   xlir.launch
// PLAIN:       llvm.call @negate(
// PLAIN-NOT:   xlir.launch
builtin.module {
  loop.kernel @negate(%a: memref<4xf32>, %b: memref<4xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %x = loop.load %a[%i] : memref<4xf32>
      %y = arith.negf %x : f32
      loop.store %y, %b[%i] : memref<4xf32>
    }
    loop.return
  }
  loop.kernel @scale(%a: memref<4xf32>, %b: memref<4xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %x = loop.load %a[%i] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      loop.store %y, %b[%i] : memref<4xf32>
    }
    loop.return
  }
  func.func @main(%x: memref<4xf32>, %flag: memref<i1>) -> memref<4xf32> {
    %s = device.default_stream
    %v = device.alloc : memref<4xf32>
    device.launch @negate(%x, %v) on %s : memref<4xf32>, memref<4xf32>
    scf.while () : () -> () {
      %c = device.read_scalar %flag[] on %s : memref<i1>
      scf.condition(%c)
    } do {
      device.launch @scale(%v, %v) on %s : memref<4xf32>, memref<4xf32>
      scf.yield
    }
    device.synchronize %s
    func.return %v : memref<4xf32>
  }
}
