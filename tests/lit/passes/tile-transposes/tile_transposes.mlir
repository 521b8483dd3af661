// RUN: xlir-opt %s -p 'tile-transposes{vector-bits=512}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'tile-transposes' --split-input-file | filecheck %s --check-prefix=SSE
// RUN: xlir-opt %s -p 'tile-transposes{vector-bits=512 min-bytes=0}' --split-input-file | filecheck %s --check-prefix=ALL

// A 1024 x 1024 f32 transpose: a column spans 1024 rows of 4 KiB (4 MiB >=
// 1 MiB), so both dimensions are tiled: the store's (j) by the 64-bit lanes
// of a register (8 of 512 bits; at least 4, with the default 128), the
// load's (i) by a register of its elements (16 f32; 4), the inner loop one
// tile.
// CHECK-LABEL: loop.kernel @square
// CHECK-NEXT:    loop.parallel (%[[TI:.*]], %[[TJ:.*]]) = (0, 0) to (1024, 1024) step (16, 8) {
// CHECK-NEXT:      loop.parallel (%[[EI:.*]], %[[EJ:.*]]) = (0, 0) to (16, 8) step (1, 1) {
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[TI]], %[[EI]] : index
// CHECK-NEXT:        %[[J:.*]] = arith.addi %[[TJ]], %[[EJ]] : index
// CHECK-NEXT:        %[[V:.*]] = loop.load %{{.*}}[%[[J]], %[[I]]]
// CHECK-NEXT:        loop.store %[[V]], %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// SSE-LABEL: loop.kernel @square
// SSE-NEXT:    loop.parallel ({{.*}}) = (0, 0) to (1024, 1024) step (4, 4) {
// SSE-NEXT:      loop.parallel ({{.*}}) = (0, 0) to (4, 4) step (1, 1) {
loop.kernel @square(%x: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (1024, 1024) step (1, 1) {
    %v = loop.load %x[%j, %i] : memref<1024x1024xf32>
    loop.store %v, %out[%i, %j] : memref<1024x1024xf32>
  }
  loop.return
}

// -----

// Odd extents: the last tiles are partial (tile's min(size, rest)); u8
// tiles are 64 bytes along the load's dimension (a column: 1101 rows of 999
// bytes).
// CHECK-LABEL: loop.kernel @odd_bytes
// CHECK-NEXT:    loop.parallel (%[[TI:.*]], %[[TJ:.*]]) = (0, 0) to (999, 1101) step (64, 8) {
// CHECK:           arith.minsi
// CHECK:           arith.minsi
// CHECK:           loop.parallel ({{.*}}) = (0, 0) to (%{{.*}}, %{{.*}}) step (1, 1) {
loop.kernel @odd_bytes(%x: memref<1101x999xi8>, %out: memref<999x1101xi8>) {
  loop.parallel (%i, %j) = (0, 0) to (999, 1101) step (1, 1) {
    %v = loop.load %x[%j, %i] : memref<1101x999xi8>
    loop.store %v, %out[%i, %j] : memref<999x1101xi8>
  }
  loop.return
}

// -----

// A fusion: an elementwise op of a transposed operand and a plain one, the
// batch dimension tiled by 1 (the outer loop walks it, the inner one is a
// tile of the two transposed dimensions only).
// CHECK-LABEL: loop.kernel @fused_batch
// CHECK-NEXT:    loop.parallel ({{.*}}) = (0, 0, 0) to (4, 512, 512) step (1, 16, 8) {
// CHECK-NEXT:      loop.parallel ({{.*}}) = (0, 0, 0) to (1, 16, 8) step (1, 1, 1) {
// CHECK:             arith.addf
loop.kernel @fused_batch(%x: memref<4x512x512xf32>, %y: memref<4x512x512xf32>, %out: memref<4x512x512xf32>) {
  loop.parallel (%b, %i, %j) = (0, 0, 0) to (4, 512, 512) step (1, 1, 1) {
    %v = loop.load %x[%b, %j, %i] : memref<4x512x512xf32>
    %w = loop.load %y[%b, %i, %j] : memref<4x512x512xf32>
    %s = arith.addf %v, %w : f32
    loop.store %s, %out[%b, %i, %j] : memref<4x512x512xf32>
  }
  loop.return
}

// -----

// A small column (64 rows of 256 bytes: 16 KiB) stays in cache as it is:
// left alone, unless min-bytes=0 asks for every transpose.
// CHECK-LABEL: loop.kernel @small
// CHECK-NEXT:    loop.parallel ({{.*}}) = (0, 0) to (64, 64) step (1, 1) {
// CHECK-NEXT:      loop.load
// ALL-LABEL: loop.kernel @small
// ALL-NEXT:    loop.parallel ({{.*}}) = (0, 0) to (64, 64) step (16, 8) {
loop.kernel @small(%x: memref<64x64xf32>, %out: memref<64x64xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (64, 64) step (1, 1) {
    %v = loop.load %x[%j, %i] : memref<64x64xf32>
    loop.store %v, %out[%i, %j] : memref<64x64xf32>
  }
  loop.return
}

// -----

// Not transposes, at any size: a copy, a batch transpose that keeps the
// last dimension (rows of 64 contiguous elements), a broadcast of a column.
// ALL-LABEL: loop.kernel @copy
// ALL-NEXT:    loop.parallel ({{.*}}) = (0, 0) to (1024, 1024) step (1, 1) {
// ALL-LABEL: loop.kernel @keeps_last
// ALL-NEXT:    loop.parallel ({{.*}}) = (0, 0, 0) to (512, 512, 64) step (1, 1, 1) {
// ALL-LABEL: loop.kernel @broadcast
// ALL-NEXT:    loop.parallel ({{.*}}) = (0, 0) to (1024, 1024) step (1, 1) {
loop.kernel @copy(%x: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (1024, 1024) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<1024x1024xf32>
    loop.store %v, %out[%i, %j] : memref<1024x1024xf32>
  }
  loop.return
}
loop.kernel @keeps_last(%x: memref<512x512x64xf32>, %out: memref<512x512x64xf32>) {
  loop.parallel (%i, %j, %k) = (0, 0, 0) to (512, 512, 64) step (1, 1, 1) {
    %v = loop.load %x[%j, %i, %k] : memref<512x512x64xf32>
    loop.store %v, %out[%i, %j, %k] : memref<512x512x64xf32>
  }
  loop.return
}
loop.kernel @broadcast(%x: memref<1024xf32>, %out: memref<1024x1024xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (1024, 1024) step (1, 1) {
    %v = loop.load %x[%i] : memref<1024xf32>
    loop.store %v, %out[%i, %j] : memref<1024x1024xf32>
  }
  loop.return
}

// -----

// Left to the passes that own them: a nest with a reduction loop, a nest of
// vector loads, and a column whose index is not the store's index itself
// (a reshape's arithmetic: its stride is unknown).
// ALL-LABEL: loop.kernel @reduction
// ALL-NEXT:    loop.parallel ({{.*}}) = (0, 0) to (1024, 1024) step (1, 1) {
// ALL-LABEL: loop.kernel @vectors
// ALL-NEXT:    loop.parallel ({{.*}}) = (0, 0) to (1024, 1024) step (1, 4) {
// ALL-LABEL: loop.kernel @scaled_index
// ALL-NEXT:    loop.parallel ({{.*}}) = (0, 0) to (512, 1024) step (1, 1) {
loop.kernel @reduction(%x: memref<1024x1024x8xf32>, %out: memref<1024x1024xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (1024, 1024) step (1, 1) {
    %zero = arith.constant 0.0 : f32
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%j, %i, %k] : memref<1024x1024x8xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i, %j] : memref<1024x1024xf32>
  }
  loop.return
}
loop.kernel @vectors(%x: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (1024, 1024) step (1, 4) {
    %v = loop.load %x[%i, %j] : memref<1024x1024xf32>, vector<4xf32>
    loop.store %v, %out[%i, %j] : memref<1024x1024xf32>, vector<4xf32>
  }
  loop.return
}
loop.kernel @scaled_index(%x: memref<2048x512xf32>, %out: memref<512x1024xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (512, 1024) step (1, 1) {
    %c2 = arith.constant 2 : index
    %r = arith.muli %j, %c2 : index
    %v = loop.load %x[%r, %i] : memref<2048x512xf32>
    loop.store %v, %out[%i, %j] : memref<512x1024xf32>
  }
  loop.return
}
