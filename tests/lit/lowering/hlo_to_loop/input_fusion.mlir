// RUN: xlir-opt %s --split-input-file -p hlo-to-loop | filecheck %s

// Input (reduction) fusions: loop.parallel over the kept dims around a
// loop.for over the reduced ones, carrying the accumulator; the reducer is
// inlined. softmax's second fusion (the contract in docs/loop-level.md):
// the row max is loaded outside the row loops; the exponentials, an output
// that is all the row sum reduces, are computed and stored by a
// loop.parallel over the row (vectorizable), and the sum's loop.for adds
// them in order, loading them back.

// CHECK-LABEL: loop.kernel @fusion_2
// CHECK-SAME:    (%[[MAX:.*]]: memref<64xf32>, %[[X:.*]]: memref<64x128xf32>, %[[EXP:.*]]: memref<64x128xf32>, %[[SUM:.*]]: memref<64xf32>) {
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xff800000 : f32
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (64) step (1) {
// CHECK-NEXT:      %[[RM:.*]] = loop.load %[[MAX]][%[[I]]] : memref<64xf32>
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[NEGINF]], %[[RM]] : f32
// CHECK-NEXT:      loop.parallel (%[[J:.*]]) = (0) to (128) step (1) {
// CHECK-NEXT:        %[[V:.*]] = loop.load %[[X]][%[[I]], %[[J]]] : memref<64x128xf32>
// CHECK-NEXT:        %[[D:.*]] = arith.subf %[[V]], %[[M]] : f32
// CHECK-NEXT:        %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:        loop.store %[[E]], %[[EXP]][%[[I]], %[[J]]] : memref<64x128xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[RS:.*]] = loop.for %[[K:.*]] = 0 to 128 step 1 iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:        %[[L:.*]] = loop.load %[[EXP]][%[[I]], %[[K]]] : memref<64x128xf32>
// CHECK-NEXT:        %[[N:.*]] = arith.addf %[[ACC]], %[[L]] : f32
// CHECK-NEXT:        loop.yield %[[N]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %[[RS]], %[[SUM]][%[[I]]] : memref<64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
func.func @main(%max: tensor<64xf32>, %x: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64xf32>) attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 33024, outputs = 33024, alias = 0, constants = 0>} {
  %1, %2 = hlo.fusion kind = input (%max, %x) {name = "fusion.2", hlo.buffers = [#hlo.buffer<out 0>, #hlo.buffer<out 1>]} : (tensor<64xf32>, tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64xf32>) {
  ^bb0(%3: tensor<64xf32>, %4: tensor<64x128xf32>):
    %cst = stablehlo.constant dense<0xff800000> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %6 = stablehlo.maximum %5, %3 : tensor<64xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
    %8 = stablehlo.subtract %4, %7 : tensor<64x128xf32>
    %9 = stablehlo.exponential %8 : tensor<64x128xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
    hlo.yield %9, %10 : tensor<64x128xf32>, tensor<64xf32>
  }
  func.return %1, %2 : tensor<64x128xf32>, tensor<64xf32>
}

// -----

// Sibling reduces over the same input and dims share one loop (a column
// reduction: the kept dim is the inner one); a full reduction has a
// zero-dimensional parallel nest around two loops.

// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%[[J:.*]]) = (0) to (4) step (1) {
// CHECK-NEXT:      %[[R0:.*]], %[[R1:.*]] = loop.for %[[I:.*]] = 0 to 8 step 1 iter_args(%[[S:.*]] = %{{.*}}, %[[M:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK-NEXT:        %[[V:.*]] = loop.load %0[%[[I]], %[[J]]] : memref<8x4xf32>
// CHECK-NEXT:        %[[S2:.*]] = arith.addf %[[S]], %[[V]] : f32
// CHECK-NEXT:        %[[M2:.*]] = arith.minimumf %[[M]], %[[V]] : f32
// CHECK-NEXT:        loop.yield %[[S2]], %[[M2]] : f32, f32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %[[R0]], %1[%[[J]]]
// CHECK-NEXT:      loop.store %[[R1]], %2[%[[J]]]
// CHECK-LABEL: loop.kernel @fusion_2
// CHECK:         loop.parallel () = () to () step () {
// CHECK-NEXT:      %[[T:.*]] = loop.for %[[A:.*]] = 0 to 8 step 1 iter_args(%[[X:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[U:.*]] = loop.for %[[B:.*]] = 0 to 4 step 1 iter_args(%[[Y:.*]] = %[[X]]) -> (f32) {
// CHECK-NEXT:          loop.load %0[%[[A]], %[[B]]] : memref<8x4xf32>
// CHECK-NEXT:          arith.addf %[[Y]]
// CHECK-NEXT:          loop.yield
// CHECK-NEXT:        }
// CHECK-NEXT:        loop.yield %[[U]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %[[T]], %1[] : memref<f32>
func.func @main(%x: tensor<8x4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>) attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 128, outputs = 36, alias = 0, constants = 0>} {
  %0, %1 = hlo.fusion kind = input (%x) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>, #hlo.buffer<out 1>]} : (tensor<8x4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<8x4xf32>):
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %inf = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %s = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %m = stablehlo.reduce(%a init: %inf) applies stablehlo.minimum across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
    hlo.yield %s, %m : tensor<4xf32>, tensor<4xf32>
  }
  %2 = hlo.fusion kind = input (%x) {name = "fusion.2", hlo.buffers = [#hlo.buffer<out 2>]} : (tensor<8x4xf32>) -> tensor<f32> {
  ^bb0(%a: tensor<8x4xf32>):
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
    hlo.yield %s : tensor<f32>
  }
  func.return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<f32>
}

// -----

// A variadic reduce (argmax) carries both accumulators; its iota operand is
// the reduced loop's index.

// CHECK-LABEL: loop.kernel @fusion_1
// CHECK:         loop.parallel (%[[I:.*]]) = (0) to (3) step (1) {
// CHECK-NEXT:      %{{.*}}, %[[KR:.*]] = loop.for %[[J:.*]] = 0 to 5 step 1 iter_args(%[[V:.*]] = %{{.*}}, %[[K:.*]] = %{{.*}}) -> (f32, i32) {
// CHECK-NEXT:        %[[X:.*]] = loop.load %0[%[[I]], %[[J]]] : memref<3x5xf32>
// CHECK-NEXT:        %[[N:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT:        %[[GT:.*]] = arith.cmpf ogt, %[[V]], %[[X]] : f32
// CHECK:             arith.select %{{.*}}, %[[V]], %[[X]] : f32
// CHECK-NEXT:        arith.select %{{.*}}, %[[K]], %[[N]] : i32
// CHECK-NEXT:        loop.yield
// CHECK:           loop.store %[[KR]], %1[%[[I]]] : memref<3xi32>
func.func @main(%x: tensor<3x5xf32>) -> tensor<3xi32> attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 60, outputs = 12, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = input (%x) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<3x5xf32>) -> tensor<3xi32> {
  ^bb0(%a: tensor<3x5xf32>):
    %iota = stablehlo.iota dim = 1 : tensor<3x5xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %v, %k = stablehlo.reduce(%a init: %cst), (%iota init: %c) across dimensions = [1] : (tensor<3x5xf32>, tensor<3x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%a1: tensor<f32>, %b1: tensor<f32>) (%a2: tensor<i32>, %b2: tensor<i32>)  {
      %gt = stablehlo.compare GT, %a1, %b1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %nan = stablehlo.compare NE, %a1, %a1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %p = stablehlo.or %gt, %nan : tensor<i1>
      %eq = stablehlo.compare EQ, %a1, %b1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare LT, %a2, %b2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %q = stablehlo.or %p, %tie : tensor<i1>
      %v1 = stablehlo.select %p, %a1, %b1 : tensor<i1>, tensor<f32>
      %k1 = stablehlo.select %q, %a2, %b2 : tensor<i1>, tensor<i32>
      stablehlo.return %v1, %k1 : tensor<f32>, tensor<i32>
    }
    hlo.yield %k : tensor<3xi32>
  }
  func.return %0 : tensor<3xi32>
}
