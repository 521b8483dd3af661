// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file --verify-diagnostics | filecheck %s

// An unfused reduce over a row: a parallel nest over the kept dim around a
// loop.for over the reduced one, carrying the accumulator from the init
// value (loaded once, at the kernel's top); the reducer is inlined and the
// result stored once per row. Nothing else is allocated: no temp buffer.

// CHECK-LABEL: loop.kernel @reduce_1(
// CHECK-SAME: %[[X:.*]]: memref<4x8xf32>, %[[INIT:.*]]: memref<f32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-NEXT:  %[[I0:.*]] = loop.load %[[INIT]][] : memref<f32>
// CHECK-NEXT:  loop.parallel (%[[I:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:    %[[SUM:.*]] = loop.for %[[J:.*]] = 0 to 8 step 1 iter_args(%[[ACC:.*]] = %[[I0]]) -> (f32) {
// CHECK-NEXT:      %[[V:.*]] = loop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT:      loop.yield %[[NEXT]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.store %[[SUM]], %[[OUT]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  loop.return
// CHECK-LABEL: func.func @main(
// CHECK-NOT:   xi8>
// CHECK-NOT:   loop.view
// CHECK:       device.launch @reduce_1(
func.func @main(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Two reduced dims, not adjacent: one loop.for per reduced dim, the inner
// one carrying the outer's accumulator; the load puts the kept index in the
// middle. A signed integer maximum is arith.maxsi.

// CHECK-LABEL: loop.kernel @reduce_1(
// CHECK-SAME: %[[X:.*]]: memref<2x3x4xi32>, %[[INIT:.*]]: memref<i32>, %[[OUT:.*]]: memref<3xi32>)
// CHECK-NEXT:  %[[I0:.*]] = loop.load %[[INIT]][] : memref<i32>
// CHECK-NEXT:  loop.parallel (%[[K:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:    %[[R:.*]] = loop.for %[[A:.*]] = 0 to 2 step 1 iter_args(%[[OUTER:.*]] = %[[I0]]) -> (i32) {
// CHECK-NEXT:      %[[IN:.*]] = loop.for %[[B:.*]] = 0 to 4 step 1 iter_args(%[[ACC:.*]] = %[[OUTER]]) -> (i32) {
// CHECK-NEXT:        %[[V:.*]] = loop.load %[[X]][%[[A]], %[[K]], %[[B]]] : memref<2x3x4xi32>
// CHECK-NEXT:        %[[M:.*]] = arith.maxsi %[[ACC]], %[[V]] : i32
// CHECK-NEXT:        loop.yield %[[M]] : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.yield %[[IN]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.store %[[R]], %[[OUT]][%[[K]]] : memref<3xi32>
// CHECK-NEXT:  }
func.func @main(%x: tensor<2x3x4xi32>, %init: tensor<i32>) -> tensor<3xi32> {
  %r = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}

// -----

// Every dim reduced: the parallel nest has no dims (one iteration) and the
// scalar result is stored at [].

// CHECK-LABEL: loop.kernel @reduce_1(
// CHECK:       loop.parallel () = () to () step () {
// CHECK-NEXT:    %[[P:.*]] = loop.for %{{.*}} = 0 to 8 step 1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:           arith.mulf %[[ACC]], %{{.*}} : f32
// CHECK:         }
// CHECK-NEXT:    loop.store %[[P]], %{{.*}}[] : memref<f32>
// CHECK-NEXT:  }
func.func @main(%x: tensor<8xf32>) -> tensor<f32> {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %one) applies stablehlo.multiply across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Variadic, argmax-style: one loop.for carries both accumulators (value and
// index); the reducer's compares and selects are inlined on the pair, ties
// going to the smaller index, and each result is stored to its own buffer.

// CHECK-LABEL: loop.kernel @reduce_1(
// CHECK-SAME: %[[X:.*]]: memref<4x8xf32>, %[[IDX:.*]]: memref<4x8xi32>, %[[XI:.*]]: memref<f32>, %[[II:.*]]: memref<i32>, %[[VOUT:.*]]: memref<4xf32>, %[[IOUT:.*]]: memref<4xi32>)
// CHECK-NEXT:  %[[V0:.*]] = loop.load %[[XI]][] : memref<f32>
// CHECK-NEXT:  %[[K0:.*]] = loop.load %[[II]][] : memref<i32>
// CHECK-NEXT:  loop.parallel (%[[I:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:    %[[BEST:.*]], %[[AT:.*]] = loop.for %[[J:.*]] = 0 to 8 step 1 iter_args(%[[V:.*]] = %[[V0]], %[[K:.*]] = %[[K0]]) -> (f32, i32) {
// CHECK-NEXT:      %[[X1:.*]] = loop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      %[[K1:.*]] = loop.load %[[IDX]][%[[I]], %[[J]]] : memref<4x8xi32>
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[V]], %[[X1]] : f32
// CHECK-NEXT:      %[[EQ:.*]] = arith.cmpf oeq, %[[V]], %[[X1]] : f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[K]], %[[K1]] : i32
// CHECK-NEXT:      %[[TIE:.*]] = arith.andi %[[EQ]], %[[LT]] : i1
// CHECK-NEXT:      %[[KEEP:.*]] = arith.ori %[[GT]], %[[TIE]] : i1
// CHECK-NEXT:      %[[V2:.*]] = arith.select %[[KEEP]], %[[V]], %[[X1]] : f32
// CHECK-NEXT:      %[[K2:.*]] = arith.select %[[KEEP]], %[[K]], %[[K1]] : i32
// CHECK-NEXT:      loop.yield %[[V2]], %[[K2]] : f32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.store %[[BEST]], %[[VOUT]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    loop.store %[[AT]], %[[IOUT]][%[[I]]] : memref<4xi32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @main(
// CHECK-NOT:   xi8>
// CHECK-NOT:   loop.view
// CHECK:       device.launch @reduce_1(
func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %ninf), (%i init: %zero) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %b, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %keep = stablehlo.or %gt, %tie : tensor<i1>
    %v = stablehlo.select %keep, %a, %c : tensor<i1>, tensor<f32>
    %k = stablehlo.select %keep, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// A reducer with an op that has no scalar translation: not lowered, and
// said so with the reduce's location.

// CHECK: hlo-to-loop cannot lower 1 op(s) of this module:
// CHECK-NEXT: reduce.mlir:[[# @LINE + 3]]:3: error: '{{.*}}' has no scalar translation
func.func @main(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.custom_call @my_add(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  return %r : tensor<4xf32>
}
