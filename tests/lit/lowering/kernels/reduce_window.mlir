// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file --verify-diagnostics | filecheck %s

// 2x2 sum pooling, stride 2: a parallel nest over the output around one
// loop.for per window dim, carrying the accumulator from the init value
// (loaded once, at the kernel's top); the reducer is inlined. Without
// padding or dilation no tap leaves the input: no test, no select. No temp
// buffer.

// CHECK-LABEL: loop.kernel @reduce_window_1(
// CHECK-SAME: %[[X:.*]]: memref<4x6xf32>, %[[INIT:.*]]: memref<f32>, %[[OUT:.*]]: memref<2x3xf32>)
// CHECK-NEXT:  %[[I0:.*]] = loop.load %[[INIT]][] : memref<f32>
// CHECK:       loop.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (2, 3) step (1, 1) {
// CHECK:         %[[R:.*]] = loop.for %{{.*}} = 0 to 2 step 1 iter_args(%[[A0:.*]] = %[[I0]]) -> (f32) {
// CHECK-NOT:       arith.cmpi
// CHECK:           %[[C:.*]] = loop.for %{{.*}} = 0 to 2 step 1 iter_args(%[[A1:.*]] = %[[A0]]) -> (f32) {
// CHECK-NOT:         arith.cmpi
// CHECK:             %[[V:.*]] = loop.load %[[X]][%{{.*}}, %{{.*}}] : memref<4x6xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[A1]], %[[V]] : f32
// CHECK-NEXT:        loop.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.yield %[[C]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.store %[[R]], %[[OUT]][%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  loop.return
// CHECK-LABEL: func.func @main(
// CHECK-NOT:   xi8>
// CHECK-NOT:   loop.view
// CHECK:       device.launch @reduce_window_1(
func.func @main(%x: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// A 3-wide max window padded by one on each side: a tap at position
// out + tap - 1 may fall below 0 or above 7, so both bounds are tested; the
// load is clamped in bounds and a tap in the padding reads the init value.

// CHECK-LABEL: loop.kernel @reduce_window_1(
// CHECK-SAME: %[[X:.*]]: memref<8xf32>, %[[INIT:.*]]: memref<f32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-NEXT:  %[[I0:.*]] = loop.load %[[INIT]][] : memref<f32>
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
// CHECK:       loop.parallel (%[[O:.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:    %[[R:.*]] = loop.for %[[T:.*]] = 0 to 3 step 1 iter_args(%[[ACC:.*]] = %[[I0]]) -> (f32) {
// CHECK-NEXT:      %[[P0:.*]] = arith.addi %[[O]], %[[T]] : index
// CHECK-NEXT:      %[[P:.*]] = arith.subi %[[P0]], %[[C1]] : index
// CHECK-NEXT:      %[[GE:.*]] = arith.cmpi sge, %[[P]], %[[C0]] : index
// CHECK-NEXT:      %[[LE:.*]] = arith.cmpi sle, %[[P]], %[[C7]] : index
// CHECK-NEXT:      %[[IN:.*]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK-NEXT:      %[[LO:.*]] = arith.maxsi %[[P]], %[[C0]] : index
// CHECK-NEXT:      %[[AT:.*]] = arith.minsi %[[LO]], %[[C7]] : index
// CHECK-NEXT:      %[[V:.*]] = loop.load %[[X]][%[[AT]]] : memref<8xf32>
// CHECK-NEXT:      %[[W:.*]] = arith.select %[[IN]], %[[V]], %[[I0]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[ACC]], %[[W]] : f32
// CHECK-NEXT:      loop.yield %[[M]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.store %[[R]], %[[OUT]][%[[O]]] : memref<8xf32>
// CHECK-NEXT:  }
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %ninf) <{window_dimensions = array<i64: 3>, padding = dense<[[1, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.maximum %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A cumulative sum (JAX's cumsum): a window over the whole prefix, padded
// in front. The reducer keeps the init value (0 + 0 = 0), so the padding
// leaves it be: one loop.for along the row carries the running sum and
// stores every step (lowering/prefix_scan.py), n steps instead of n^2.

// CHECK-LABEL: loop.kernel @reduce_window_1(
// CHECK-SAME: %[[X:.*]]: memref<8xi32>, %[[INIT:.*]]: memref<i32>, %[[OUT:.*]]: memref<8xi32>)
// CHECK-NEXT:  %[[I0:.*]] = loop.load %[[INIT]][] : memref<i32>
// CHECK-NEXT:  loop.parallel (%{{.*}}) = (0) to (1) step (1) {
// CHECK-NEXT:    loop.for %[[K:.*]] = 0 to 8 step 1 iter_args(%[[ACC:.*]] = %[[I0]]) -> (i32) {
// CHECK-NEXT:      %[[V:.*]] = loop.load %[[X]][%[[K]]] : memref<8xi32>
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[V]] : i32
// CHECK-NEXT:      loop.store %[[S]], %[[OUT]][%[[K]]] : memref<8xi32>
// CHECK-NEXT:      loop.yield %[[S]] : i32
func.func @main(%x: tensor<8xi32>) -> tensor<8xi32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 8>, padding = dense<[[7, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

// The same window with 1 as the init value: each padding tap adds 1, so
// output i is not output i - 1 plus x[i] and the window loop stays; only
// the low bound is tested.

// CHECK-LABEL: loop.kernel @reduce_window_1(
// CHECK:       loop.parallel (%[[O:.*]]) = (0) to (8) step (1) {
// CHECK-NEXT:    loop.for %{{.*}} = 0 to 8 step 1 iter_args(%{{.*}}) -> (i32) {
// CHECK:           arith.cmpi sge
// CHECK-NOT:       arith.cmpi sle
// CHECK:           arith.select
// CHECK-NEXT:      arith.addi
// CHECK:         loop.store
func.func @main(%x: tensor<8xi32>) -> tensor<8xi32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %one) <{window_dimensions = array<i64: 8>, padding = dense<[[7, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

// A window one short of the row is a sliding window, not a prefix: the
// window loop stays.

// CHECK-LABEL: loop.kernel @reduce_window_1(
// CHECK:       loop.parallel (%{{.*}}) = (0) to (8) step (1) {
// CHECK-NEXT:    loop.for %{{.*}} = 0 to 7 step 1 iter_args(%{{.*}}) -> (i32) {
func.func @main(%x: tensor<8xi32>) -> tensor<8xi32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 7>, padding = dense<[[6, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

// Base dilation 2: the input is read at position / 2 where position is even;
// odd positions are holes that read the init value.

// CHECK-LABEL: loop.kernel @reduce_window_1(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>, %[[INIT:.*]]: memref<f32>, %[[OUT:.*]]: memref<6xf32>)
// CHECK-NEXT:  %[[I0:.*]] = loop.load %[[INIT]][] : memref<f32>
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
// CHECK:       loop.parallel (%[[O:.*]]) = (0) to (6) step (1) {
// CHECK-NEXT:    loop.for %{{.*}} = 0 to 2 step 1
// CHECK:           %[[P:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %[[REM:.*]] = arith.remui %[[P]], %[[C2]] : index
// CHECK-NEXT:      %[[EVEN:.*]] = arith.cmpi eq, %[[REM]], %[[C0]] : index
// CHECK-NEXT:      %[[Q:.*]] = arith.divui %[[P]], %[[C2]] : index
// CHECK-NEXT:      %[[V:.*]] = loop.load %[[X]][%[[Q]]] : memref<4xf32>
// CHECK-NEXT:      arith.select %[[EVEN]], %[[V]], %[[I0]] : f32
func.func @main(%x: tensor<4xf32>) -> tensor<6xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 2>, base_dilations = array<i64: 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// Variadic (max with its index, as in max-pool's argmax): one loop.for
// carries both accumulators, the same tap is loaded from both inputs, and
// each result has its own store.

// CHECK-LABEL: loop.kernel @reduce_window_1(
// CHECK-SAME: %[[X:.*]]: memref<6xf32>, %[[IDX:.*]]: memref<6xi32>, %{{.*}}: memref<f32>, %{{.*}}: memref<i32>, %[[VOUT:.*]]: memref<3xf32>, %[[IOUT:.*]]: memref<3xi32>)
// CHECK:       loop.parallel (%[[O:.*]]) = (0) to (3) step (1) {
// CHECK:         %[[V:.*]], %[[K:.*]] = loop.for %{{.*}} = 0 to 2 step 1 iter_args(%[[VA:.*]] = %{{.*}}, %[[KA:.*]] = %{{.*}}) -> (f32, i32) {
// CHECK:           %[[XV:.*]] = loop.load %[[X]][%[[AT:.*]]] : memref<6xf32>
// CHECK-NEXT:      %[[XK:.*]] = loop.load %[[IDX]][%[[AT]]] : memref<6xi32>
// CHECK-NEXT:      %[[GE:.*]] = arith.cmpf oge, %[[VA]], %[[XV]] : f32
// CHECK-NEXT:      %[[NV:.*]] = arith.select %[[GE]], %[[VA]], %[[XV]] : f32
// CHECK-NEXT:      %[[NK:.*]] = arith.select %[[GE]], %[[KA]], %[[XK]] : i32
// CHECK-NEXT:      loop.yield %[[NV]], %[[NK]] : f32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.store %[[V]], %[[VOUT]][%[[O]]] : memref<3xf32>
// CHECK-NEXT:    loop.store %[[K]], %[[IOUT]][%[[O]]] : memref<3xi32>
// CHECK-NEXT:  }
func.func @main(%x: tensor<6xf32>, %i: tensor<6xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %i, %ninf, %zero) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %ge = stablehlo.compare GE, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %ge, %a, %c : tensor<i1>, tensor<f32>
    %k = stablehlo.select %ge, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }) : (tensor<6xf32>, tensor<6xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xi32>
}

// -----

// A reducer with an op that has no scalar translation: not lowered, and
// said so with that op's location.

// CHECK: hlo-to-loop cannot lower 1 op(s) of this module:
// CHECK-NEXT: reduce_window.mlir:[[# @LINE + 5]]:5: error: 'stablehlo.custom_call' has no scalar translation
func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.custom_call @my_add(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
