// RUN: xlir-opt %s -p loop-to-llvm,device-to-llvm | filecheck %s

// The host function becomes the native entry `void f(void **args, void
// **results, void *temp)`: parameters and results are loaded from their
// pointer arrays, the arena is `temp`, launches are calls, streams vanish,
// a while loop is a test block and a body block, and a returned buffer that
// is not its result's own memory is copied there. An entry with branches is
// optimized; one without (@straight) is left as it is (`optimize_none`).

// CHECK-LABEL: llvm.func @main(
// CHECK-SAME:  %[[ARGS:[0-9]+]]: !llvm.ptr, %[[RESULTS:[0-9]+]]: !llvm.ptr, %[[TEMP:[0-9]+]]: !llvm.ptr) {
// CHECK:         %[[P0:.*]] = llvm.getelementptr inbounds %[[ARGS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[X:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[R0:.*]] = llvm.getelementptr inbounds %[[RESULTS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[OUT:.*]] = llvm.load %[[R0]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[V:.*]] = llvm.getelementptr inbounds %[[TEMP]][64] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:         llvm.call @negate(%[[X]], %[[V]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK:         llvm.br ^[[TEST:.*]]
// CHECK:       ^[[TEST]]:
// CHECK:         %[[FLAG:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i1
// CHECK:         llvm.cond_br %[[FLAG]], ^[[BODY:.*]], ^[[EXIT:bb[0-9]+]]
// CHECK:       ^[[BODY]]:
// CHECK-NEXT:    llvm.call @negate(%[[V]], %[[OUT]])
// CHECK-NEXT:    llvm.br ^[[TEST]]
// CHECK:       ^[[EXIT]]:
// CHECK:         %[[R1:.*]] = llvm.getelementptr inbounds %[[RESULTS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[DEST:.*]] = llvm.load %[[R1]] : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.call_intrinsic "llvm.memcpy.p0.p0.i64"(%[[DEST]], %[[X]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i1) -> ()
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @straight(
// CHECK-SAME:    attributes {no_inline, optimize_none}
// CHECK:         llvm.call @negate
// CHECK-NEXT:    llvm.return
builtin.module {
  loop.kernel @negate(%a: memref<4xf32>, %b: memref<4xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %x = loop.load %a[%i] : memref<4xf32>
      %y = arith.negf %x : f32
      loop.store %y, %b[%i] : memref<4xf32>
    }
    loop.return
  }
  func.func @main(%x: memref<4xf32>, %flag: memref<i1>) -> (memref<4xf32>, memref<4xf32>) {
    %s = device.default_stream
    %arena = device.alloc : memref<128xi8>
    %out = device.alloc : memref<4xf32>
    %v = loop.view %arena[64] : memref<128xi8> -> memref<4xf32>
    device.launch @negate(%x, %v) on %s : memref<4xf32>, memref<4xf32>
    scf.while () : () -> () {
      %c = device.read_scalar %flag[] on %s : memref<i1>
      scf.condition(%c)
    } do {
      device.launch @negate(%v, %out) on %s : memref<4xf32>, memref<4xf32>
      scf.yield
    }
    device.synchronize %s
    device.free %arena : memref<128xi8>
    func.return %out, %x : memref<4xf32>, memref<4xf32>
  }
  func.func @straight(%x: memref<4xf32>) -> memref<4xf32> {
    %s = device.default_stream
    %out = device.alloc : memref<4xf32>
    device.launch @negate(%x, %out) on %s : memref<4xf32>, memref<4xf32>
    device.synchronize %s
    func.return %out : memref<4xf32>
  }
}
