// RUN: xlir-opt %s -p map-to-gpu --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'map-to-gpu{row-reductions=false}' --split-input-file | filecheck %s --check-prefix=NO-ROWS
// RUN: xlir-opt %s -p 'map-to-gpu{max-threads-with-loops=128}' --split-input-file | filecheck %s --check-prefix=WIDE
// RUN: not xlir-opt %s -p 'map-to-gpu{warp-size=0}' 2>&1 | filecheck %s --check-prefix=BAD-WARP
// RUN: not xlir-opt %s -p 'map-to-gpu{max-threads-per-block=16}' 2>&1 | filecheck %s --check-prefix=BAD-WARP
// BAD-WARP: error: map-to-gpu: warp-size {{.*}} and max-threads-per-block {{.*}} must be positive, with at least one warp per block

// Elementwise, 1000 elements: unrolled by 4 (1000 % 4 == 0), 250 threads of
// one block (fewer than 1024 / 4), each doing 4 consecutive elements, in a
// grid-stride loop (once per thread on this launch; right on any grid).
// CHECK-LABEL: loop.kernel @scale
// CHECK-SAME:    attributes {gpu_launch = array<i64: 1, 250, 0>}
// CHECK:         %[[GRID:.*]] = "gpu.grid_dim"() <{dimension = #gpu<dim x>}>
// CHECK:         %[[SIZE0:.*]] = "gpu.block_dim"() <{dimension = #gpu<dim x>}>
// CHECK:         %[[STRIDE:.*]] = arith.muli %[[GRID]], %[[SIZE0]] : index
// CHECK:         %[[BLOCK:.*]] = "gpu.block_id"() <{dimension = #gpu<dim x>}>
// CHECK:         %[[SIZE:.*]] = "gpu.block_dim"() <{dimension = #gpu<dim x>}>
// CHECK:         %[[THREAD:.*]] = "gpu.thread_id"() <{dimension = #gpu<dim x>}>
// CHECK:         %[[FIRST:.*]] = arith.muli %[[BLOCK]], %[[SIZE]] : index
// CHECK:         %[[GLOBAL:.*]] = arith.addi %[[FIRST]], %[[THREAD]] : index
// CHECK:         loop.for %[[T:.*]] = %[[GLOBAL]] to 250 step %[[STRIDE]] {
// CHECK:           %[[E:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK:           loop.load %{{.*}}[%[[E]]]
// CHECK-COUNT-3:   arith.addi %[[E]], %{{.*}} : index
// CHECK-NOT:     loop.parallel
// CHECK:         loop.return
loop.kernel @scale(%x: memref<1000xf32>, %y: memref<1000xf32>) {
  %two = arith.constant 2.0 : f32
  loop.parallel (%i) = (0) to (1000) step (1) {
    %v = loop.load %x[%i] : memref<1000xf32>
    %w = arith.mulf %v, %two : f32
    loop.store %w, %y[%i] : memref<1000xf32>
  }
  loop.return
}

// -----

// 63 elements of two dimensions (7 x 9): no unroll divides, 63 threads; the
// indices come back from the thread's number, row-major.
// CHECK-LABEL: loop.kernel @odd
// CHECK-SAME:    attributes {gpu_launch = array<i64: 1, 63, 0>}
// CHECK:         loop.for
// CHECK:           arith.divui %{{.*}}, %{{.*}} : index
// CHECK:           arith.remui %{{.*}}, %{{.*}} : index
// CHECK:           loop.store
loop.kernel @odd(%x: memref<7x9xi32>) {
  %one = arith.constant 1 : i32
  loop.parallel (%i, %j) = (0, 0) to (7, 9) step (1, 1) {
    loop.store %one, %x[%i, %j] : memref<7x9xi32>
  }
  loop.return
}

// -----

// A row reduction, 64 rows of 128: one block of 128 threads (4 warps) per
// row, strided partial sums, shuffles within each warp, the 4 warps' sums
// through shared memory, and thread 0 stores.
// CHECK-LABEL: loop.kernel @row_sums
// CHECK-SAME:    attributes {gpu_launch = array<i64: 64, 128, 16>}
// CHECK:         %[[ROW:.*]] = "gpu.block_id"
// CHECK:         %[[THREAD:.*]] = "gpu.thread_id"
// CHECK:         loop.for %[[K:.*]] = %[[THREAD]] to 128 step 128 iter_args
// CHECK:           loop.load %{{.*}}[%[[ROW]], %[[K]]]
// CHECK:         simt.shuffle_xor %{{.*}}, 16
// CHECK:         simt.shuffle_xor %{{.*}}, 1
// CHECK:         %[[SHARED:.*]] = simt.shared_memory : memref<4xf32>
// CHECK:         scf.if
// CHECK:           loop.store %{{.*}}, %[[SHARED]]
// CHECK:         "gpu.barrier"()
// CHECK:         loop.load %[[SHARED]]
// CHECK:         simt.shuffle_xor %{{.*}}, 2
// CHECK:         simt.shuffle_xor %{{.*}}, 1
// CHECK:         scf.if
// CHECK:           loop.store %{{.*}}, %{{.*}}[%[[ROW]]] : memref<64xf32>
// NO-ROWS-LABEL: loop.kernel @row_sums
// NO-ROWS-SAME:    attributes {gpu_launch = array<i64: 1, 64, 0>}
// NO-ROWS-NOT:     simt.shuffle_xor
loop.kernel @row_sums(%x: memref<64x128xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (64) step (1) {
    %s = loop.for %j = 0 to 128 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<64x128xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<64xf32>
  }
  loop.return
}

// -----

// A sum starting from 1.0 is not a row reduction (each thread would add it):
// the row runs in one thread.
// CHECK-LABEL: loop.kernel @offset_sums
// CHECK-SAME:    attributes {gpu_launch = array<i64: 1, 64, 0>}
// CHECK-NOT:     simt.shuffle_xor
loop.kernel @offset_sums(%x: memref<64x128xf32>, %out: memref<64xf32>) {
  %one = arith.constant 1.0 : f32
  loop.parallel (%i) = (0) to (64) step (1) {
    %s = loop.for %j = 0 to 128 step 1 iter_args(%acc = %one) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<64x128xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<64xf32>
  }
  loop.return
}

// -----

// Two outer loops, the second reading what the first wrote: one block,
// whose threads share each loop in turn, a barrier before and after each
// (blocks of a grid do not wait for each other; a block's threads do).
// CHECK-LABEL: loop.kernel @two_phases
// CHECK-SAME:    attributes {gpu_launch = array<i64: 1, 32, 0>}
// CHECK:         %[[THREAD:.*]] = "gpu.thread_id"() <{dimension = #gpu<dim x>}>
// CHECK:         "gpu.barrier"()
// CHECK-NEXT:    loop.for %[[I:.*]] = %[[THREAD]] to 16 step 32 {
// CHECK-NEXT:      loop.store %{{.*}}, %{{.*}}[%[[I]]] : memref<16xf32>
// CHECK:         "gpu.barrier"()
// CHECK:         "gpu.barrier"()
// CHECK-NEXT:    loop.for %[[J:.*]] = %[[THREAD]] to 16 step 32 {
// CHECK-NEXT:      loop.load %{{.*}}[%[[J]]] : memref<16xf32>
// CHECK:         "gpu.barrier"()
// CHECK-NOT:     loop.parallel
// CHECK:         loop.return
loop.kernel @two_phases(%x: memref<16xf32>, %y: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (16) step (1) {
    loop.store %zero, %x[%i] : memref<16xf32>
  }
  loop.parallel (%i) = (0) to (16) step (1) {
    %v = loop.load %x[%i] : memref<16xf32>
    loop.store %v, %y[%i] : memref<16xf32>
  }
  loop.return
}

// -----

// A load before the loop of a buffer the loop writes must see the value
// from before every iteration: every thread of one block loads it before
// the barrier that starts the loop.
// CHECK-LABEL: loop.kernel @reads_what_it_writes
// CHECK-SAME:    attributes {gpu_launch = array<i64: 1, 32, 0>}
// CHECK:         %[[FIRST:.*]] = loop.load
// CHECK-NEXT:    "gpu.barrier"()
// CHECK-NEXT:    loop.for
// CHECK-NEXT:      loop.store %[[FIRST]]
// CHECK:         "gpu.barrier"()
loop.kernel @reads_what_it_writes(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %first = loop.load %x[%c0] : memref<8xf32>
  loop.parallel (%i) = (0) to (8) step (1) {
    loop.store %first, %x[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// A store outside any loop, then a loop: thread 0 of block 0 runs the
// kernel as it is (on any grid).
// CHECK-LABEL: loop.kernel @stores_outside_a_loop
// CHECK-SAME:    attributes {gpu_launch = array<i64: 1, 1, 0>}
// CHECK:         %[[BLOCK:.*]] = "gpu.block_id"
// CHECK:         %[[THREAD:.*]] = "gpu.thread_id"
// CHECK:         %[[EITHER:.*]] = arith.ori %[[BLOCK]], %[[THREAD]] : index
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[EITHER]], %{{.*}} : index
// CHECK:         scf.if %[[FIRST]] {
// CHECK:           loop.store
// CHECK:           loop.parallel
loop.kernel @stores_outside_a_loop(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  loop.store %one, %x[%c0] : memref<8xf32>
  loop.parallel (%i) = (1) to (8) step (1) {
    %v = loop.load %x[%c0] : memref<8xf32>
    loop.store %v, %x[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// A whole array reduced to one value (a nest of loops in a loop of no
// dimension): one block of 1024 threads folds it as one run of 4096
// elements, row-major, then shuffles and shared memory as for a row.
// CHECK-LABEL: loop.kernel @total
// CHECK-SAME:    attributes {gpu_launch = array<i64: 1, 1024, 128>}
// CHECK:         %[[THREAD:.*]] = "gpu.thread_id"
// CHECK:         loop.for %[[E:.*]] = %[[THREAD]] to 4096 step 1024 iter_args
// CHECK:           %[[I:.*]] = arith.divui %[[E]], %{{.*}} : index
// CHECK:           %[[J:.*]] = arith.remui %[[E]], %{{.*}} : index
// CHECK:           loop.load %{{.*}}[%[[I]], %[[J]]] : memref<64x64xf32>
// CHECK:         simt.shared_memory : memref<32xf32>
// CHECK:         "gpu.barrier"()
loop.kernel @total(%x: memref<64x64xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel () = () to () step () {
    %s = loop.for %i = 0 to 64 step 1 iter_args(%a = %zero) -> (f32) {
      %t = loop.for %j = 0 to 64 step 1 iter_args(%b = %a) -> (f32) {
        %v = loop.load %x[%i, %j] : memref<64x64xf32>
        %n = arith.addf %b, %v : f32
        loop.yield %n : f32
      }
      loop.yield %t : f32
    }
    loop.store %s, %out[] : memref<f32>
  }
  loop.return
}

// -----

// A softmax row: its exponentials written by an inner loop.parallel, then
// summed. The inner loop's iterations are spread over the block's threads
// between barriers, as the sum reads what other threads wrote.
// CHECK-LABEL: loop.kernel @exp_sums
// CHECK-SAME:    attributes {gpu_launch = array<i64: 8, 128, 16>}
// CHECK:         %[[ROW:.*]] = "gpu.block_id"
// CHECK:         %[[THREAD:.*]] = "gpu.thread_id"
// CHECK:         "gpu.barrier"()
// CHECK-NEXT:    loop.for %[[K:.*]] = %[[THREAD]] to 128 step 128 {
// CHECK:           loop.store %{{.*}}, %{{.*}}[%[[ROW]], %[[K]]]
// CHECK:         "gpu.barrier"()
// CHECK-NEXT:    loop.for %{{.*}} = %[[THREAD]] to 128 step 128 iter_args
// CHECK:         simt.shuffle_xor
loop.kernel @exp_sums(%x: memref<8x128xf32>, %e: memref<8x128xf32>, %out: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    loop.parallel (%j) = (0) to (128) step (1) {
      %v = loop.load %x[%i, %j] : memref<8x128xf32>
      %w = math.exp %v : f32
      loop.store %w, %e[%i, %j] : memref<8x128xf32>
    }
    %s = loop.for %j = 0 to 128 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %e[%i, %j] : memref<8x128xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%i] : memref<8xf32>
  }
  loop.return
}

// -----

// A column's sum and minimum (two values: not a row reduction): each thread
// folds one column (coalesced across the warp); blocks of
// max-threads-with-loops (64) threads spread the 512 columns over 8 blocks
// rather than one block of 512.
// CHECK-LABEL: loop.kernel @column_sums
// CHECK-SAME:    attributes {gpu_launch = array<i64: 8, 64, 0>}
// CHECK:         loop.for %[[C:.*]] = %{{.*}} to 512 step %{{.*}} {
// CHECK:           loop.for %[[R:.*]] = 0 to 256 step 1 iter_args
// CHECK:             loop.load %{{.*}}[%[[R]], %[[C]]] : memref<256x512xf32>
// WIDE-LABEL: loop.kernel @column_sums
// WIDE-SAME:    attributes {gpu_launch = array<i64: 4, 128, 0>}
loop.kernel @column_sums(%x: memref<256x512xf32>, %sums: memref<512xf32>, %mins: memref<512xf32>) {
  %zero = arith.constant 0.0 : f32
  %inf = arith.constant 0x7f800000 : f32
  loop.parallel (%c) = (0) to (512) step (1) {
    %s, %m = loop.for %r = 0 to 256 step 1 iter_args(%acc = %zero, %low = %inf) -> (f32, f32) {
      %v = loop.load %x[%r, %c] : memref<256x512xf32>
      %n = arith.addf %acc, %v : f32
      %l = arith.minimumf %low, %v : f32
      loop.yield %n, %l : f32, f32
    }
    loop.store %s, %sums[%c] : memref<512xf32>
    loop.store %m, %mins[%c] : memref<512xf32>
  }
  loop.return
}

// -----

// Loops of no iteration (a zero-sized dimension): nothing to spread over a
// block, so no barriers either: the serial shape.
// CHECK-LABEL: loop.kernel @empty_phases
// CHECK-SAME:    attributes {gpu_launch = array<i64: 1, 1, 0>}
// CHECK-NOT:     "gpu.barrier"
loop.kernel @empty_phases(%x: memref<2x0xf32>, %y: memref<2x0xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (2, 0) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<2x0xf32>
    loop.store %v, %y[%i, %j] : memref<2x0xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (2, 0) step (1, 1) {
    %v = loop.load %y[%i, %j] : memref<2x0xf32>
    loop.store %v, %x[%i, %j] : memref<2x0xf32>
  }
  loop.return
}
