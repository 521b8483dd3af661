// RUN: xlir-opt %s --split-input-file -p fuse | filecheck %s

// Softmax: exp(x - max) is expensive and read by the row sum and the final
// divide. It is computed once, in the sum's input fusion, which yields it as
// a second output; the divide's loop fusion reads it.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT:    %[[MAX:.*]] = hlo.fusion kind = input (%x) {name = "fusion.1"} : (tensor<4x8xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      stablehlo.reduce{{.*}}applies stablehlo.maximum
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[EXP:.*]], %[[SUM:.*]] = hlo.fusion kind = input (%[[MAX]], %x) {name = "fusion.2"} : (tensor<4xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.broadcast_in_dim
// CHECK-NEXT:      stablehlo.subtract
// CHECK-NEXT:      %[[E:.*]] = stablehlo.exponential
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      %[[S:.*]] = stablehlo.reduce(%[[E]] init: %{{.*}}) applies stablehlo.add
// CHECK-NEXT:      hlo.yield %[[E]], %[[S]] : tensor<4x8xf32>, tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = hlo.fusion kind = loop (%[[SUM]], %[[EXP]]) {name = "fusion.3"} : (tensor<4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:    ^bb0(%[[SUMARG:.*]]: tensor<4xf32>, %[[EARG:.*]]: tensor<4x8xf32>):
// CHECK-NEXT:      %[[SB:.*]] = stablehlo.broadcast_in_dim %[[SUMARG]]
// CHECK-NEXT:      stablehlo.divide %[[EARG]], %[[SB]]
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]
// CHECK-NOT:     stablehlo.exponential
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %s = stablehlo.subtract %x, %mb : tensor<4x8xf32>
  %e = stablehlo.exponential %s : tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %sb = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %r = stablehlo.divide %e, %sb : tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

// Two reductions of one shape over the same argument: one input fusion with
// two outputs. A third of another shape stays apart.
// CHECK-LABEL: func.func @siblings
// CHECK-NEXT:    %[[SUM:.*]], %[[MAX:.*]] = hlo.fusion kind = input (%x) {name = "fusion.1"} : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<4x8xf32>):
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      %[[S:.*]] = stablehlo.reduce(%[[X]] init: %{{.*}}) applies stablehlo.add across dimensions = [1]
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      %[[M:.*]] = stablehlo.reduce(%[[X]] init: %{{.*}}) applies stablehlo.maximum across dimensions = [1]
// CHECK-NEXT:      hlo.yield %[[S]], %[[M]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[COL:.*]] = hlo.fusion kind = input (%x) {name = "fusion.2"} : (tensor<4x8xf32>) -> tensor<8xf32> {
// CHECK:           stablehlo.reduce{{.*}}across dimensions = [0]
// CHECK:         func.return %[[SUM]], %[[MAX]], %[[COL]]
func.func @siblings(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %max = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %col = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %sum, %max, %col : tensor<4xf32>, tensor<4xf32>, tensor<8xf32>
}

// -----

// Two reductions of one expensive producer: the reductions merge first, so
// the producer is computed once, in the merged fusion.
// CHECK-LABEL: func.func @siblings_of_producer
// CHECK-NEXT:    %[[A:.*]], %[[B:.*]] = hlo.fusion kind = input (%x) {name = "fusion.1"} : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      %[[E:.*]] = stablehlo.exponential
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      %[[S:.*]] = stablehlo.reduce(%[[E]]
// CHECK-NEXT:      %[[SQ:.*]] = stablehlo.multiply %[[E]], %[[E]]
// CHECK-NEXT:      %[[SS:.*]] = stablehlo.reduce(%[[SQ]]
// CHECK-NEXT:      hlo.yield %[[S]], %[[SS]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[A]], %[[B]]
func.func @siblings_of_producer(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %sq = stablehlo.multiply %e, %e : tensor<4x8xf32>
  %sumsq = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %sum, %sumsq : tensor<4xf32>, tensor<4xf32>
}

// -----

// A value read by a fusion and returned: the fusion yields it too.
// CHECK-LABEL: func.func @returned_too
// CHECK-NEXT:    %[[A:.*]], %[[L:.*]] = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      %[[AI:.*]] = stablehlo.add
// CHECK-NEXT:      %[[LI:.*]] = stablehlo.log %[[AI]]
// CHECK-NEXT:      hlo.yield %[[AI]], %[[LI]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[A]], %[[L]]
func.func @returned_too(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %a = stablehlo.add %x, %x : tensor<8xf32>
  %l = stablehlo.log %a : tensor<8xf32>
  func.return %a, %l : tensor<8xf32>, tensor<8xf32>
}
