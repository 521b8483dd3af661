// RUN: xlir-opt %s -p unroll-last-dimension --split-input-file | filecheck %s

// An NHWC image's 3 channels written out: the loop over pixels is innermost,
// each channel's body at a constant index, in the channels' order; the
// nest's attributes are kept.
// CHECK-LABEL: loop.kernel @channels
// CHECK:         loop.parallel (%[[N:.*]], %[[W:.*]]) = (0, 0) to (2, 64) step (1, 1) attributes {threads = 2 : i64} {
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[X0:.*]] = loop.load %a[%[[N]], %[[W]], %[[C0]]]
// CHECK-NEXT:      %[[Y0:.*]] = arith.uitofp %[[X0]] : i8 to f32
// CHECK-NEXT:      loop.store %[[Y0]], %b[%[[N]], %[[W]], %[[C0]]]
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[X1:.*]] = loop.load %a[%[[N]], %[[W]], %[[C1]]]
// CHECK:           %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[X2:.*]] = loop.load %a[%[[N]], %[[W]], %[[C2]]]
// CHECK:           loop.store %{{.*}}, %b[%[[N]], %[[W]], %[[C2]]]
// CHECK-NEXT:    }
// CHECK-NOT:     loop.parallel
loop.kernel @channels(%a: memref<2x64x3xi8>, %b: memref<2x64x3xf32>) {
  loop.parallel (%n, %w, %c) = (0, 0, 0) to (2, 64, 3) step (1, 1, 1) attributes {threads = 2 : i64} {
    %x = loop.load %a[%n, %w, %c] : memref<2x64x3xi8>
    %y = arith.uitofp %x : i8 to f32
    loop.store %y, %b[%n, %w, %c] : memref<2x64x3xf32>
  }
  loop.return
}

// -----

// A last dimension of 4 starting at 2 by 2: the copies at 2, 4, 6, 8.
// CHECK-LABEL: loop.kernel @offset_step
// CHECK:         loop.parallel (%{{.*}}) = (0) to (16) step (1) {
// CHECK-COUNT-4:   arith.constant {{2|4|6|8}} : index
// CHECK-NOT:       arith.constant
loop.kernel @offset_step(%a: memref<16x9xf32>) {
  loop.parallel (%i, %j) = (0, 2) to (16, 10) step (1, 2) {
    %x = loop.load %a[%i, %j] : memref<16x9xf32>
    loop.store %x, %a[%i, %j] : memref<16x9xf32>
  }
  loop.return
}

// -----

// Left alone: a last dimension of 5 (over max-trips), an outer one of 4
// (under min-outer), a body with a loop or with vectors, a nest of one
// dimension, dynamic bounds.
// CHECK-LABEL: loop.kernel @left_alone
// CHECK:         to (16, 5)
// CHECK:         to (4, 3)
// CHECK:         to (16, 3)
// CHECK:         loop.for
// CHECK:         to (16, 2)
// CHECK:         vector<4xf32>
// CHECK:         to (3)
// CHECK:         to (%n, 3)
loop.kernel @left_alone(%a: memref<16x5xf32>, %v: memref<16x8xf32>, %n: index) {
  loop.parallel (%i, %j) = (0, 0) to (16, 5) step (1, 1) {
    %x = loop.load %a[%i, %j] : memref<16x5xf32>
    loop.store %x, %a[%i, %j] : memref<16x5xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (4, 3) step (1, 1) {
    %x = loop.load %a[%i, %j] : memref<16x5xf32>
    loop.store %x, %a[%i, %j] : memref<16x5xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (16, 3) step (1, 1) {
    loop.for %k = 0 to 2 step 1 {
      %x = loop.load %a[%i, %k] : memref<16x5xf32>
      loop.store %x, %a[%i, %j] : memref<16x5xf32>
    }
  }
  loop.parallel (%i, %j) = (0, 0) to (16, 2) step (1, 1) {
    %x = loop.load %v[%i, %j] : memref<16x8xf32>, vector<4xf32>
    loop.store %x, %v[%i, %j] : memref<16x8xf32>, vector<4xf32>
  }
  loop.parallel (%j) = (0) to (3) step (1) {
    %x = loop.load %a[%j, %j] : memref<16x5xf32>
    loop.store %x, %a[%j, %j] : memref<16x5xf32>
  }
  loop.parallel (%i, %j) = (0, 0) to (%n, 3) step (1, 1) {
    %x = loop.load %a[%i, %j] : memref<16x5xf32>
    loop.store %x, %a[%i, %j] : memref<16x5xf32>
  }
  loop.return
}

// -----

// max-ops counts the ops written out: 3 copies of 3 ops is over 8.
// RUN: xlir-opt %s -p 'unroll-last-dimension{max-ops=8}' --split-input-file | filecheck %s --check-prefix=OPS
// OPS-LABEL: loop.kernel @over_budget
// OPS:         to (16, 3)
loop.kernel @over_budget(%a: memref<16x3xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (16, 3) step (1, 1) {
    %x = loop.load %a[%i, %j] : memref<16x3xf32>
    %y = arith.addf %x, %x : f32
    loop.store %y, %a[%i, %j] : memref<16x3xf32>
  }
  loop.return
}
