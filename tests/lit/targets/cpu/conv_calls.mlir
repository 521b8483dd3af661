// RUN: xlir-opt %s -p 'conv-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'conv-calls{mr=4 lanes=4 threads=2 min-work=0}' --split-input-file | xlir-opt --split-input-file | filecheck %s
// RUN: xlir-opt %s -p 'conv-calls{mr=4 lanes=4}' --split-input-file | filecheck %s --check-prefix=FEW
// RUN: xlir-opt %s -p 'conv-calls{mr=4 lanes=4 threads=1 min-work=0}' --split-input-file | filecheck %s --check-prefix=FEW
// RUN: xlir-opt %s -p 'register-tile{mr=4 nr=8 lanes=4}' --split-input-file | filecheck %s --check-prefix=INLINE
// RUN: not xlir-opt %s -p 'conv-calls{threads=-1}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: conv-calls: mr, lanes, threads and min-work must be non-negative, got mr=0 lanes=0 threads=-1 min-work=1048576

// A 3x3 NHWC convolution of 4 channels into 16 (its input padded
// beforehand): one call of the pack entry fills the scratch (the 36 taps
// as i64, then two panels of 8 columns; arguments: B, the scratch; N, K;
// the term's sizes (kh, kw) past the channel; A's strides of a channel, a
// kernel row and column; B's), then per group of 256 rows (of 2 x 16 x 16:
// two groups, a threaded loop) one call of the entry, which runs over the
// panels (arguments: A, C, the scratch; the group's first row, rows and
// index; the row's sizes (y, x) past the image; A's strides of an image,
// an output row and column; C's row stride; N, K; the chunk, 0: 36 terms
// are one; the window, 0: A read in place, and the padding's eleven sizes,
// unused). Without `conv-calls` the nest is register-tiled as before
// (INLINE); below min-work, or with threads=1, the groups are not threaded
// (FEW).
// CHECK-LABEL: loop.kernel @conv(
// CHECK-SAME:    %[[A:[^:]*]]: memref<2x18x18x4xf32>, %[[B:[^:]*]]: memref<3x3x4x16xf32>, %[[C:[^:]*]]: memref<2x16x16x16xf32>, %[[P:[^:]*]]: memref<648xf32>)
// CHECK-NEXT:    arith.constant 0.0
// CHECK-NEXT:    %[[N:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[K:.*]] = arith.constant 36 : index
// CHECK-NEXT:    %[[K1:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[K0:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[AK2:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[AK1:.*]] = arith.constant 72 : index
// CHECK-NEXT:    %[[AK0:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[BK2:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[BK1:.*]] = arith.constant 192 : index
// CHECK-NEXT:    %[[BK0:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[BC:.*]] = arith.constant 1 : index
// CHECK-NEXT:    loop.call @xlir.gemm_f32_4x4.conv_pack(%[[B]], %[[P]], %[[N]], %[[K]], %[[K1]], %[[K0]], %[[AK2]], %[[AK1]], %[[AK0]], %[[BK2]], %[[BK1]], %[[BK0]], %[[BC]])
// CHECK-NEXT:    loop.parallel (%[[G:.*]]) = (0) to (2) step (1) attributes {threads = 2 : i64} {
// CHECK-NEXT:      %[[GR:.*]] = arith.constant 256 : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.muli %[[G]], %[[GR]] : index
// CHECK-NEXT:      %[[M:.*]] = arith.constant 512 : index
// CHECK-NEXT:      %[[LEFT:.*]] = arith.subi %[[M]], %[[FIRST]] : index
// CHECK-NEXT:      %[[GR2:.*]] = arith.constant 256 : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.minui %[[LEFT]], %[[GR2]] : index
// CHECK-NEXT:      %[[M1:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[M0:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[AM2:.*]] = arith.constant 1296 : index
// CHECK-NEXT:      %[[AM1:.*]] = arith.constant 72 : index
// CHECK-NEXT:      %[[AM0:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[CR:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[N2:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[K2:.*]] = arith.constant 36 : index
// CHECK-NEXT:      %[[CHUNK:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[W:.*]] = arith.constant 0 : index
// CHECK-COUNT-11:  arith.constant 0 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4.conv(%[[A]], %[[C]], %[[P]], %[[FIRST]], %[[COUNT]], %[[G]], %[[M1]], %[[M0]], %[[AM2]], %[[AM1]], %[[AM0]], %[[CR]], %[[N2]], %[[K2]], %[[CHUNK]], %[[W]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,)]*}})
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// CHECK-LABEL: func.func @main(
// CHECK:         %[[S:.*]] = device.alloc : memref<648xf32>
// CHECK-NEXT:    device.launch @conv(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
// CHECK-NEXT:    device.free %[[S]]
// FEW-LABEL: loop.kernel @conv(
// FEW:         loop.parallel (%{{.*}}) = (0) to (2) step (1) {
// FEW:           loop.call @xlir.gemm_f32_4x4.conv(
// INLINE-LABEL: loop.kernel @conv(
// INLINE-NOT:   loop.call
// INLINE:       attributes {jam = array<i64: 1, 1, 4, 8>}
loop.kernel @conv(%in: memref<2x18x18x4xf32>, %w: memref<3x3x4x16xf32>, %out: memref<2x16x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%b, %y, %x, %o) = (0, 0, 0, 0) to (2, 16, 16, 16) step (1, 1, 1, 1) {
    %s = loop.for %c = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
      %t = loop.for %kh = 0 to 3 step 1 iter_args(%acc1 = %acc) -> (f32) {
        %row = arith.addi %y, %kh : index
        %u = loop.for %kw = 0 to 3 step 1 iter_args(%acc2 = %acc1) -> (f32) {
          %col = arith.addi %x, %kw : index
          %v = loop.load %in[%b, %row, %col, %c] : memref<2x18x18x4xf32>
          %q = loop.load %w[%kh, %kw, %c, %o] : memref<3x3x4x16xf32>
          %p = arith.mulf %v, %q : f32
          %n = arith.addf %acc2, %p : f32
          loop.yield %n : f32
        }
        loop.yield %u : f32
      }
      loop.yield %t : f32
    }
    loop.store %s, %out[%b, %y, %x, %o] : memref<2x16x16x16xf32>
  }
  loop.return
}
func.func @main(%in: memref<2x18x18x4xf32>, %w: memref<3x3x4x16xf32>) -> memref<2x16x16x16xf32> {
  %s = device.default_stream
  %out = device.alloc : memref<2x16x16x16xf32>
  device.launch @conv(%in, %w, %out) on %s : memref<2x18x18x4xf32>, memref<3x3x4x16xf32>, memref<2x16x16x16xf32>
  device.synchronize %s
  func.return %out : memref<2x16x16x16xf32>
}

// -----

// A 1-D convolution, rhs dilated by 4 and strided by 2, of 200 channels:
// its 400 terms are summed by `block-sums` in a chunk of 128 channels (256
// terms) and the 144 left, which the entry's chunk argument says. Rows
// (the images and output positions) and terms (channels, taps) have two
// levels, the outer one of size 1 and stride 0.
// CHECK-LABEL: loop.kernel @dilated(
// CHECK:         %[[K:.*]] = arith.constant 400 : index
// CHECK-NEXT:    %[[K1:.*]] = arith.constant 200 : index
// CHECK-NEXT:    %[[K0:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[AK2:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[AK1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[AK0:.*]] = arith.constant 800 : index
// CHECK:         loop.call @xlir.gemm_f32_4x4.conv_pack(
// CHECK:           %[[M1:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[M0:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[AM2:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[AM1:.*]] = arith.constant 60000 : index
// CHECK-NEXT:      %[[AM0:.*]] = arith.constant 400 : index
// CHECK:           %[[CHUNK:.*]] = arith.constant 256 : index
// CHECK-NEXT:      %[[W:.*]] = arith.constant 0 : index
// CHECK:           loop.call @xlir.gemm_f32_4x4.conv({{.*}}, %[[CHUNK]], %[[W]],
loop.kernel @dilated(%in: memref<2x300x200xf32>, %w: memref<2x200x16xf32>, %out: memref<2x128x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2 : index
  %four = arith.constant 4 : index
  loop.parallel (%b, %x, %o) = (0, 0, 0) to (2, 128, 16) step (1, 1, 1) {
    %strided = arith.muli %x, %two : index
    %s = loop.for %c = 0 to 200 step 1 iter_args(%acc = %zero) -> (f32) {
      %u = loop.for %kw = 0 to 2 step 1 iter_args(%acc1 = %acc) -> (f32) {
        %dilated = arith.muli %kw, %four : index
        %col = arith.addi %strided, %dilated : index
        %v = loop.load %in[%b, %col, %c] : memref<2x300x200xf32>
        %q = loop.load %w[%kw, %c, %o] : memref<2x200x16xf32>
        %p = arith.mulf %q, %v : f32
        %n = arith.addf %p, %acc1 : f32
        loop.yield %n : f32
      }
      loop.yield %u : f32
    }
    loop.store %s, %out[%b, %x, %o] : memref<2x128x16xf32>
  }
  loop.return
}

// -----

// Left inline: a depthwise convolution (its input read at the output
// channel), a sum with an epilogue, a kernel that reads its output, f64,
// an index clamp the bounds do not decide, and a 12x12 kernel whose sum
// `block-sums` splits per channel (an outer iteration of 144 terms).
// CHECK-LABEL: loop.kernel @depthwise(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @epilogue(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @reads_output(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @f64(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @clamped(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @long_kernel(
// CHECK-NOT:     loop.call
loop.kernel @depthwise(%in: memref<2x10x32xf32>, %w: memref<3x32xf32>, %out: memref<2x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%b, %x, %o) = (0, 0, 0) to (2, 8, 32) step (1, 1, 1) {
    %s = loop.for %kw = 0 to 3 step 1 iter_args(%acc = %zero) -> (f32) {
      %col = arith.addi %x, %kw : index
      %v = loop.load %in[%b, %col, %o] : memref<2x10x32xf32>
      %q = loop.load %w[%kw, %o] : memref<3x32xf32>
      %p = arith.mulf %v, %q : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[%b, %x, %o] : memref<2x8x32xf32>
  }
  loop.return
}
loop.kernel @epilogue(%in: memref<2x10x8xf32>, %w: memref<3x8x32xf32>, %out: memref<2x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%b, %x, %o) = (0, 0, 0) to (2, 8, 32) step (1, 1, 1) {
    %s = loop.for %c = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %u = loop.for %kw = 0 to 3 step 1 iter_args(%acc1 = %acc) -> (f32) {
        %col = arith.addi %x, %kw : index
        %v = loop.load %in[%b, %col, %c] : memref<2x10x8xf32>
        %q = loop.load %w[%kw, %c, %o] : memref<3x8x32xf32>
        %p = arith.mulf %v, %q : f32
        %n = arith.addf %acc1, %p : f32
        loop.yield %n : f32
      }
      loop.yield %u : f32
    }
    %r = arith.maximumf %s, %zero : f32
    loop.store %r, %out[%b, %x, %o] : memref<2x8x32xf32>
  }
  loop.return
}
loop.kernel @reads_output(%in: memref<2x10x8xf32>, %w: memref<3x8x32xf32>, %out: memref<2x8x32xf32>, %copy: memref<2x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%b, %x, %o) = (0, 0, 0) to (2, 8, 32) step (1, 1, 1) {
    %s = loop.for %c = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %u = loop.for %kw = 0 to 3 step 1 iter_args(%acc1 = %acc) -> (f32) {
        %col = arith.addi %x, %kw : index
        %v = loop.load %in[%b, %col, %c] : memref<2x10x8xf32>
        %q = loop.load %w[%kw, %c, %o] : memref<3x8x32xf32>
        %p = arith.mulf %v, %q : f32
        %n = arith.addf %acc1, %p : f32
        loop.yield %n : f32
      }
      loop.yield %u : f32
    }
    loop.store %s, %out[%b, %x, %o] : memref<2x8x32xf32>
  }
  loop.parallel (%b, %x, %o) = (0, 0, 0) to (2, 8, 32) step (1, 1, 1) {
    %v = loop.load %out[%b, %x, %o] : memref<2x8x32xf32>
    loop.store %v, %copy[%b, %x, %o] : memref<2x8x32xf32>
  }
  loop.return
}
loop.kernel @f64(%in: memref<2x10x8xf64>, %w: memref<3x8x32xf64>, %out: memref<2x8x32xf64>) {
  %zero = arith.constant 0.0 : f64
  loop.parallel (%b, %x, %o) = (0, 0, 0) to (2, 8, 32) step (1, 1, 1) {
    %s = loop.for %c = 0 to 8 step 1 iter_args(%acc = %zero) -> (f64) {
      %u = loop.for %kw = 0 to 3 step 1 iter_args(%acc1 = %acc) -> (f64) {
        %col = arith.addi %x, %kw : index
        %v = loop.load %in[%b, %col, %c] : memref<2x10x8xf64>
        %q = loop.load %w[%kw, %c, %o] : memref<3x8x32xf64>
        %p = arith.mulf %v, %q : f64
        %n = arith.addf %acc1, %p : f64
        loop.yield %n : f64
      }
      loop.yield %u : f64
    }
    loop.store %s, %out[%b, %x, %o] : memref<2x8x32xf64>
  }
  loop.return
}
loop.kernel @clamped(%in: memref<2x8x8xf32>, %w: memref<3x8x32xf32>, %out: memref<2x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %last = arith.constant 7 : index
  loop.parallel (%b, %x, %o) = (0, 0, 0) to (2, 8, 32) step (1, 1, 1) {
    %s = loop.for %c = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %u = loop.for %kw = 0 to 3 step 1 iter_args(%acc1 = %acc) -> (f32) {
        %tap = arith.addi %x, %kw : index
        %col = arith.minsi %tap, %last : index
        %v = loop.load %in[%b, %col, %c] : memref<2x8x8xf32>
        %q = loop.load %w[%kw, %c, %o] : memref<3x8x32xf32>
        %p = arith.mulf %v, %q : f32
        %n = arith.addf %acc1, %p : f32
        loop.yield %n : f32
      }
      loop.yield %u : f32
    }
    loop.store %s, %out[%b, %x, %o] : memref<2x8x32xf32>
  }
  loop.return
}
loop.kernel @long_kernel(%in: memref<1x20x20x2xf32>, %w: memref<12x12x2x32xf32>, %out: memref<1x9x9x32xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%b, %y, %x, %o) = (0, 0, 0, 0) to (1, 9, 9, 32) step (1, 1, 1, 1) {
    %s = loop.for %c = 0 to 2 step 1 iter_args(%acc = %zero) -> (f32) {
      %t = loop.for %kh = 0 to 12 step 1 iter_args(%acc1 = %acc) -> (f32) {
        %row = arith.addi %y, %kh : index
        %u = loop.for %kw = 0 to 12 step 1 iter_args(%acc2 = %acc1) -> (f32) {
          %col = arith.addi %x, %kw : index
          %v = loop.load %in[%b, %row, %col, %c] : memref<1x20x20x2xf32>
          %q = loop.load %w[%kh, %kw, %c, %o] : memref<12x12x2x32xf32>
          %p = arith.mulf %v, %q : f32
          %n = arith.addf %acc2, %p : f32
          loop.yield %n : f32
        }
        loop.yield %u : f32
      }
      loop.yield %t : f32
    }
    loop.store %s, %out[%b, %y, %x, %o] : memref<1x9x9x32xf32>
  }
  loop.return
}

// -----

// Not convolutions, and no crash on their shapes: a nest whose body is only
// its yield, a nest storing to a 0-d buffer, and a sum loop whose inner
// loop carries no value.
// CHECK-LABEL: loop.kernel @empty_nest(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @scalar_output(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @uncarried_inner(
// CHECK-NOT:     loop.call
loop.kernel @empty_nest(%out: memref<4xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
  }
  loop.return
}
loop.kernel @scalar_output(%x: memref<8xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel () = () to () step () {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%k] : memref<8xf32>
      %p = arith.mulf %v, %v : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %out[] : memref<f32>
  }
  loop.return
}
loop.kernel @uncarried_inner(%x: memref<4x8xf32>, %out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (4) step (1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {
      loop.for %j = 0 to 2 step 1 {
        %v = loop.load %x[%i, %k] : memref<4x8xf32>
        loop.store %v, %out[%i] : memref<4xf32>
      }
      loop.yield %acc : f32
    }
    loop.store %s, %out[%i] : memref<4xf32>
  }
  loop.return
}

// -----

// The convolution of the first case with its padding a test
// (`hlo-to-loop`'s form, padding 1 on each side of y and x): the entry
// takes the unpadded input and reads it padded. The strides are the padded
// array's, as above; the window (1296 floats: the 18 padded rows of 72 a
// group of 256 rows reads) is given per group past the taps and panels
// (648 + 2 x 1296 floats of scratch), and the padding's sizes are the pad
// entry's (`o1, o2, o3`: 2 images of 18 rows of 72, `i0..i3`: 1, 2, 16, 64,
// `l0..l3`: 0, 0, 1, 4).
// CHECK-LABEL: loop.kernel @padded(
// CHECK-SAME:    %[[A:[^:]*]]: memref<2x16x16x4xf32>, %{{[^:]*}}: memref<3x3x4x16xf32>, %[[C:[^:]*]]: memref<2x16x16x16xf32>, %[[P:[^:]*]]: memref<3240xf32>)
// CHECK:         %[[AK1:.*]] = arith.constant 72 : index
// CHECK-NEXT:    %[[AK0:.*]] = arith.constant 4 : index
// CHECK:         loop.call @xlir.gemm_f32_4x4.conv_pack(
// CHECK:           %[[AM2:.*]] = arith.constant 1296 : index
// CHECK-NEXT:      %[[AM1:.*]] = arith.constant 72 : index
// CHECK-NEXT:      %[[AM0:.*]] = arith.constant 4 : index
// CHECK:           %[[CHUNK:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[W:.*]] = arith.constant 1296 : index
// CHECK-NEXT:      %[[O1:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[O2:.*]] = arith.constant 18 : index
// CHECK-NEXT:      %[[O3:.*]] = arith.constant 72 : index
// CHECK-NEXT:      %[[I0:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[I1:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[I2:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[I3:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[L0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[L1:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[L2:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[L3:.*]] = arith.constant 4 : index
// CHECK-NEXT:      loop.call @xlir.gemm_f32_4x4.conv(%[[A]], %[[C]], %[[P]], {{.*}}, %[[CHUNK]], %[[W]], %[[O1]], %[[O2]], %[[O3]], %[[I0]], %[[I1]], %[[I2]], %[[I3]], %[[L0]], %[[L1]], %[[L2]], %[[L3]])
// INLINE-LABEL: loop.kernel @padded(
// INLINE-NOT:   loop.call
loop.kernel @padded(%in: memref<2x16x16x4xf32>, %w: memref<3x3x4x16xf32>, %out: memref<2x16x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  loop.parallel (%b, %y, %x, %o) = (0, 0, 0, 0) to (2, 16, 16, 16) step (1, 1, 1, 1) {
    %s = loop.for %c = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
      %t = loop.for %kh = 0 to 3 step 1 iter_args(%acc1 = %acc) -> (f32) {
        %r = arith.addi %y, %kh : index
        %row = arith.subi %r, %c1 : index
        %row_low = arith.cmpi sge, %row, %c0 : index
        %row_high = arith.cmpi sle, %row, %c15 : index
        %row_in = arith.andi %row_low, %row_high : i1
        %row_up = arith.maxsi %row, %c0 : index
        %row_at = arith.minsi %row_up, %c15 : index
        %u = loop.for %kw = 0 to 3 step 1 iter_args(%acc2 = %acc1) -> (f32) {
          %k = arith.addi %x, %kw : index
          %col = arith.subi %k, %c1 : index
          %col_low = arith.cmpi sge, %col, %c0 : index
          %in_low = arith.andi %row_in, %col_low : i1
          %col_high = arith.cmpi sle, %col, %c15 : index
          %inside = arith.andi %in_low, %col_high : i1
          %col_up = arith.maxsi %col, %c0 : index
          %col_at = arith.minsi %col_up, %c15 : index
          %v = loop.load %in[%b, %row_at, %col_at, %c] : memref<2x16x16x4xf32>
          %z = arith.select %inside, %v, %zero : f32
          %q = loop.load %w[%kh, %kw, %c, %o] : memref<3x3x4x16xf32>
          %p = arith.mulf %z, %q : f32
          %n = arith.addf %acc2, %p : f32
          loop.yield %n : f32
        }
        loop.yield %u : f32
      }
      loop.yield %t : f32
    }
    loop.store %s, %out[%b, %y, %x, %o] : memref<2x16x16x16xf32>
  }
  loop.return
}

// -----

// Left inline: a padded read whose select gives another value than +0.0
// outside, and one whose test leaves out a side its clamp has.
// CHECK-LABEL: loop.kernel @padded_by_one(
// CHECK-NOT:     loop.call
// CHECK-LABEL: loop.kernel @untested_side(
// CHECK-NOT:     loop.call
loop.kernel @padded_by_one(%in: memref<2x16x4xf32>, %w: memref<3x4x16xf32>, %out: memref<2x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  loop.parallel (%b, %x, %o) = (0, 0, 0) to (2, 16, 16) step (1, 1, 1) {
    %s = loop.for %c = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
      %u = loop.for %kw = 0 to 3 step 1 iter_args(%acc1 = %acc) -> (f32) {
        %k = arith.addi %x, %kw : index
        %col = arith.subi %k, %c1 : index
        %low = arith.cmpi sge, %col, %c0 : index
        %high = arith.cmpi sle, %col, %c15 : index
        %inside = arith.andi %low, %high : i1
        %up = arith.maxsi %col, %c0 : index
        %at = arith.minsi %up, %c15 : index
        %v = loop.load %in[%b, %at, %c] : memref<2x16x4xf32>
        %z = arith.select %inside, %v, %one : f32
        %q = loop.load %w[%kw, %c, %o] : memref<3x4x16xf32>
        %p = arith.mulf %z, %q : f32
        %n = arith.addf %acc1, %p : f32
        loop.yield %n : f32
      }
      loop.yield %u : f32
    }
    loop.store %s, %out[%b, %x, %o] : memref<2x16x16xf32>
  }
  loop.return
}
loop.kernel @untested_side(%in: memref<2x16x4xf32>, %w: memref<3x4x16xf32>, %out: memref<2x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  loop.parallel (%b, %x, %o) = (0, 0, 0) to (2, 16, 16) step (1, 1, 1) {
    %s = loop.for %c = 0 to 4 step 1 iter_args(%acc = %zero) -> (f32) {
      %u = loop.for %kw = 0 to 3 step 1 iter_args(%acc1 = %acc) -> (f32) {
        %k = arith.addi %x, %kw : index
        %col = arith.subi %k, %c1 : index
        %low = arith.cmpi sge, %col, %c0 : index
        %up = arith.maxsi %col, %c0 : index
        %at = arith.minsi %up, %c15 : index
        %v = loop.load %in[%b, %at, %c] : memref<2x16x4xf32>
        %z = arith.select %low, %v, %zero : f32
        %q = loop.load %w[%kw, %c, %o] : memref<3x4x16xf32>
        %p = arith.mulf %z, %q : f32
        %n = arith.addf %acc1, %p : f32
        loop.yield %n : f32
      }
      loop.yield %u : f32
    }
    loop.store %s, %out[%b, %x, %o] : memref<2x16x16xf32>
  }
  loop.return
}
