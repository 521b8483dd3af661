// RUN: xlir-opt %s -p scratch-in-arena --split-input-file | filecheck %s
// RUN: xlir-opt %s -p scratch-in-arena,loop-to-llvm,device-to-llvm --split-input-file | filecheck %s --check-prefix=ENTRY

// The scratch of each launch becomes a view of the arena past the plan's
// 100 bytes (at 128, 64-byte aligned): the two buffers of the first launch
// are live together and take bytes of their own (128 and 192), the second
// launch's, in a while loop's body, reuses the first's bytes (128), and the
// arena grows to 128 + 64 + 256 bytes. The returned buffer and the one freed
// in another block (in the loop, allocated outside) stay allocations.
// CHECK-LABEL: func.func @main(
// CHECK:         %[[ARENA:.*]] = device.alloc : memref<448xi8>
// CHECK-NEXT:    %[[T:.*]] = loop.view %[[ARENA]][0] : memref<448xi8> -> memref<4xf32>
// CHECK-NEXT:    %[[OUT:.*]] = device.alloc : memref<4xf32>
// CHECK-NEXT:    %[[A:.*]] = loop.view %[[ARENA]][128] : memref<448xi8> -> memref<16xf32>
// CHECK-NEXT:    %[[B:.*]] = loop.view %[[ARENA]][192] : memref<448xi8> -> memref<64xf32>
// CHECK-NEXT:    device.launch @work(%[[T]], %[[A]], %[[B]])
// CHECK-NOT:     device.free %[[A]]
// CHECK-NOT:     device.free %[[B]]
// CHECK:         %[[KEPT:.*]] = device.alloc : memref<8xf32>
// CHECK:         scf.while
// CHECK:         } do {
// CHECK-NEXT:      %[[C:.*]] = loop.view %[[ARENA]][128] : memref<448xi8> -> memref<16xf32>
// CHECK-NEXT:      %[[D:.*]] = loop.view %[[ARENA]][192] : memref<448xi8> -> memref<64xf32>
// CHECK-NEXT:      device.launch @work(%[[OUT]], %[[C]], %[[D]])
// CHECK-NEXT:      device.free %[[KEPT]] : memref<8xf32>
// CHECK-NEXT:      scf.yield
// CHECK:         device.free %[[ARENA]] : memref<448xi8>
// CHECK-NEXT:    func.return %[[OUT]]
// ENTRY:         xlir.temp_bytes = {main = 448 : i64}
// ENTRY-LABEL:   llvm.func @main(
// ENTRY-COUNT-1: llvm.call @malloc
// ENTRY-NOT:     llvm.call @malloc
builtin.module {
  loop.kernel @work(%x: memref<4xf32>, %a: memref<16xf32>, %b: memref<64xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %v = loop.load %x[%i] : memref<4xf32>
      loop.store %v, %a[%i] : memref<16xf32>
      loop.store %v, %b[%i] : memref<64xf32>
    }
    loop.return
  }
  func.func @main(%flag: memref<i1>) -> memref<4xf32> {
    %s = device.default_stream
    %arena = device.alloc : memref<100xi8>
    %t = loop.view %arena[0] : memref<100xi8> -> memref<4xf32>
    %out = device.alloc : memref<4xf32>
    %a = device.alloc : memref<16xf32>
    %b = device.alloc : memref<64xf32>
    device.launch @work(%t, %a, %b) on %s : memref<4xf32>, memref<16xf32>, memref<64xf32>
    device.free %a : memref<16xf32>
    device.free %b : memref<64xf32>
    %kept = device.alloc : memref<8xf32>
    scf.while () : () -> () {
      %go = device.read_scalar %flag[] on %s : memref<i1>
      scf.condition(%go)
    } do {
      %c = device.alloc : memref<16xf32>
      %d = device.alloc : memref<64xf32>
      device.launch @work(%out, %c, %d) on %s : memref<4xf32>, memref<16xf32>, memref<64xf32>
      device.free %c : memref<16xf32>
      device.free %d : memref<64xf32>
      device.free %kept : memref<8xf32>
      scf.yield
    }
    device.free %arena : memref<100xi8>
    func.return %out : memref<4xf32>
  }
}

// -----

// Without an arena, the scratch gets one: allocated first, freed before the
// return. A function without scratch is left as it is.
// CHECK-LABEL: func.func @scratch_only(
// CHECK-NEXT:    %[[ARENA:.*]] = device.alloc : memref<256xi8>
// CHECK-NEXT:    %{{.*}} = device.default_stream
// CHECK-NEXT:    %[[A:.*]] = loop.view %[[ARENA]][0] : memref<256xi8> -> memref<64xf32>
// CHECK-NEXT:    device.launch @fill(%{{.*}}, %[[A]])
// CHECK-NEXT:    device.free %[[ARENA]] : memref<256xi8>
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @none(
// CHECK-NEXT:    device.default_stream
// CHECK-NEXT:    device.launch @fill
// CHECK-NEXT:    func.return
// ENTRY:         xlir.temp_bytes = {scratch_only = 256 : i64, none = 0 : i64}
builtin.module {
  loop.kernel @fill(%x: memref<4xf32>, %a: memref<64xf32>) {
    loop.parallel (%i) = (0) to (4) step (1) {
      %v = loop.load %x[%i] : memref<4xf32>
      loop.store %v, %a[%i] : memref<64xf32>
    }
    loop.return
  }
  func.func @scratch_only(%x: memref<4xf32>) {
    %s = device.default_stream
    %a = device.alloc : memref<64xf32>
    device.launch @fill(%x, %a) on %s : memref<4xf32>, memref<64xf32>
    device.free %a : memref<64xf32>
    func.return
  }
  func.func @none(%x: memref<4xf32>, %a: memref<64xf32>) {
    %s = device.default_stream
    device.launch @fill(%x, %a) on %s : memref<4xf32>, memref<64xf32>
    func.return
  }
}
