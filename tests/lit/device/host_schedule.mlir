// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s

// The loop and device dialects round-trip a whole host schedule: softmax over
// rows (../shared/corpus/small/softmax_rows.mlir) in the hand-written form the
// `hlo-to-loop` contract first took (docs/loop-level.md shows what it makes
// today), for three fusions and a 512-byte temp arena:
//
//   fusion.1 (input)  row max                     -> temp [0, 256)
//   fusion.2 (input)  exp(x - max), its row sums  -> out 0, temp [256, 512)
//   fusion.3 (loop)   exp / sum                   -> out 0 (in place)
//
// One kernel per fusion; its arguments are the fusion's operands, then its
// results' buffers. docs/loop-level.md walks through it.

// CHECK-LABEL: loop.kernel @fusion_1(%x: memref<64x128xf32>, %max: memref<64xf32>) {
// CHECK-NEXT:    %neg_inf = arith.constant 0xff800000 : f32
// CHECK-NEXT:    loop.parallel (%i) = (0) to (64) step (1) {
// CHECK-NEXT:      %row_max = loop.for %j = 0 to 128 step 1 iter_args(%acc = %neg_inf) -> (f32) {
// CHECK-NEXT:        %v = loop.load %x[%i, %j] : memref<64x128xf32>
// CHECK-NEXT:        %next = arith.maximumf %acc, %v : f32
// CHECK-NEXT:        loop.yield %next : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %row_max, %max[%i] : memref<64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// CHECK-NEXT:  }
loop.kernel @fusion_1(%x: memref<64x128xf32>, %max: memref<64xf32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  loop.parallel (%i) = (0) to (64) step (1) {
    %row_max = loop.for %j = 0 to 128 step 1 iter_args(%acc = %neg_inf) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<64x128xf32>
      %next = arith.maximumf %acc, %v : f32
      loop.yield %next : f32
    }
    loop.store %row_max, %max[%i] : memref<64xf32>
  }
  loop.return
}

// A multi-output fusion: the exponentials go to the output buffer, their row
// sums to the arena; one pass over each row computes both.
// CHECK-LABEL: loop.kernel @fusion_2(%max: memref<64xf32>, %x: memref<64x128xf32>, %exp: memref<64x128xf32>, %sum: memref<64xf32>) {
// CHECK-NEXT:    %neg_inf = arith.constant 0xff800000 : f32
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    loop.parallel (%i) = (0) to (64) step (1) {
// CHECK-NEXT:      %row_max = loop.load %max[%i] : memref<64xf32>
// CHECK-NEXT:      %m = arith.maximumf %neg_inf, %row_max : f32
// CHECK-NEXT:      %row_sum = loop.for %j = 0 to 128 step 1 iter_args(%acc = %zero) -> (f32) {
// CHECK-NEXT:        %v = loop.load %x[%i, %j] : memref<64x128xf32>
// CHECK-NEXT:        %d = arith.subf %v, %m : f32
// CHECK-NEXT:        %e = math.exp %d : f32
// CHECK-NEXT:        loop.store %e, %exp[%i, %j] : memref<64x128xf32>
// CHECK-NEXT:        %next = arith.addf %acc, %e : f32
// CHECK-NEXT:        loop.yield %next : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %row_sum, %sum[%i] : memref<64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// CHECK-NEXT:  }
loop.kernel @fusion_2(%max: memref<64xf32>, %x: memref<64x128xf32>, %exp: memref<64x128xf32>, %sum: memref<64xf32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (64) step (1) {
    %row_max = loop.load %max[%i] : memref<64xf32>
    %m = arith.maximumf %neg_inf, %row_max : f32
    %row_sum = loop.for %j = 0 to 128 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<64x128xf32>
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      loop.store %e, %exp[%i, %j] : memref<64x128xf32>
      %next = arith.addf %acc, %e : f32
      loop.yield %next : f32
    }
    loop.store %row_sum, %sum[%i] : memref<64xf32>
  }
  loop.return
}

// Elementwise, in place: %exp and %out are the same buffer (output 0), which
// the plan allows because each iteration reads the element it writes.
// CHECK-LABEL: loop.kernel @fusion_3(%sum: memref<64xf32>, %exp: memref<64x128xf32>, %out: memref<64x128xf32>) {
// CHECK-NEXT:    loop.parallel (%i, %j) = (0, 0) to (64, 128) step (1, 1) {
// CHECK-NEXT:      %s = loop.load %sum[%i] : memref<64xf32>
// CHECK-NEXT:      %e = loop.load %exp[%i, %j] : memref<64x128xf32>
// CHECK-NEXT:      %q = arith.divf %e, %s : f32
// CHECK-NEXT:      loop.store %q, %out[%i, %j] : memref<64x128xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// CHECK-NEXT:  }
loop.kernel @fusion_3(%sum: memref<64xf32>, %exp: memref<64x128xf32>, %out: memref<64x128xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (64, 128) step (1, 1) {
    %s = loop.load %sum[%i] : memref<64xf32>
    %e = loop.load %exp[%i, %j] : memref<64x128xf32>
    %q = arith.divf %e, %s : f32
    loop.store %q, %out[%i, %j] : memref<64x128xf32>
  }
  loop.return
}

// The host: the arena and the output are device memory it allocates, temps
// are views into the arena at the plan's offsets, launches run in order on
// the default stream, and the arena is freed once they are done.
// CHECK-LABEL: func.func public @main(%arg0: memref<64x128xf32>) -> (memref<64x128xf32> {jax.result_info = "result"}) {
// CHECK-NEXT:    %stream = device.default_stream
// CHECK-NEXT:    %arena = device.alloc : memref<512xi8>
// CHECK-NEXT:    %out0 = device.alloc : memref<64x128xf32>
// CHECK-NEXT:    %max = loop.view %arena[0] : memref<512xi8> -> memref<64xf32>
// CHECK-NEXT:    %sum = loop.view %arena[256] : memref<512xi8> -> memref<64xf32>
// CHECK-NEXT:    device.launch @fusion_1(%arg0, %max) on %stream : memref<64x128xf32>, memref<64xf32>
// CHECK-NEXT:    device.launch @fusion_2(%max, %arg0, %out0, %sum) on %stream : memref<64xf32>, memref<64x128xf32>, memref<64x128xf32>, memref<64xf32>
// CHECK-NEXT:    device.launch @fusion_3(%sum, %out0, %out0) on %stream : memref<64xf32>, memref<64x128xf32>, memref<64x128xf32>
// CHECK-NEXT:    device.synchronize %stream
// CHECK-NEXT:    device.free %arena : memref<512xi8>
// CHECK-NEXT:    func.return %out0 : memref<64x128xf32>
// CHECK-NEXT:  }
func.func public @main(%arg0: memref<64x128xf32>) -> (memref<64x128xf32> {jax.result_info = "result"}) {
  %stream = device.default_stream
  %arena = device.alloc : memref<512xi8>
  %out0 = device.alloc : memref<64x128xf32>
  %max = loop.view %arena[0] : memref<512xi8> -> memref<64xf32>
  %sum = loop.view %arena[256] : memref<512xi8> -> memref<64xf32>
  device.launch @fusion_1(%arg0, %max) on %stream : memref<64x128xf32>, memref<64xf32>
  device.launch @fusion_2(%max, %arg0, %out0, %sum) on %stream : memref<64xf32>, memref<64x128xf32>, memref<64x128xf32>, memref<64xf32>
  device.launch @fusion_3(%sum, %out0, %out0) on %stream : memref<64xf32>, memref<64x128xf32>, memref<64x128xf32>
  device.synchronize %stream
  device.free %arena : memref<512xi8>
  func.return %out0 : memref<64x128xf32>
}
