// RUN: xlir-opt %s --split-input-file -p fuse | filecheck %s

// The pass runs inside while bodies (a value captured from outside becomes a
// fusion operand) and conditions; the while itself is not fused, its
// consumers are; the body of a reduction inside a fusion is left as it is.
// CHECK-LABEL: func.func @while_body
// CHECK-NEXT:    %[[C0:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %{{.*}}, %[[V:.*]] = stablehlo.while(%[[I:.*]] = %[[C0]], %[[W:.*]] = %x)
// CHECK-NEXT:    cond {
// CHECK-NEXT:      %[[LT:.*]] = hlo.fusion kind = loop (%[[I]]) {name = "fusion.2"} : (tensor<i32>) -> tensor<i1> {
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        stablehlo.constant dense<3>
// CHECK-NEXT:        stablehlo.compare
// CHECK-NEXT:        hlo.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      stablehlo.return %[[LT]]
// CHECK-NEXT:    } do {
// CHECK-NEXT:      %[[J:.*]] = hlo.fusion kind = loop (%[[I]]) {name = "fusion.3"}
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        stablehlo.constant dense<1>
// CHECK-NEXT:        stablehlo.add
// CHECK-NEXT:        hlo.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[T:.*]] = hlo.fusion kind = loop (%[[W]], %s) {name = "fusion.4"}
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        stablehlo.multiply
// CHECK-NEXT:        stablehlo.tanh
// CHECK-NEXT:        hlo.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      stablehlo.return %[[J]], %[[T]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[E:.*]] = hlo.fusion kind = loop (%[[V]]) {name = "fusion.1"}
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.exponential
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[E]]
func.func @while_body(%x: tensor<8xf32>, %s: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<8xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %m = stablehlo.multiply %v, %s : tensor<8xf32>
    %t = stablehlo.tanh %m : tensor<8xf32>
    stablehlo.return %j, %t : tensor<i32>, tensor<8xf32>
  }
  %e = stablehlo.exponential %r#1 : tensor<8xf32>
  func.return %e : tensor<8xf32>
}

// -----

// case branches are fused each on its own.
// CHECK-LABEL: func.func @case
// CHECK-NEXT:    "stablehlo.case"(%k) ({
// CHECK-NEXT:      %[[A:.*]] = hlo.fusion kind = loop (%x) {name = "fusion.1"}
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        stablehlo.negate
// CHECK-NEXT:        stablehlo.abs
// CHECK-NEXT:        hlo.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      stablehlo.return %[[A]]
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %[[B:.*]] = hlo.fusion kind = loop (%x) {name = "fusion.2"}
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        stablehlo.sqrt
// CHECK-NEXT:        hlo.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      stablehlo.return %[[B]]
// CHECK-NEXT:    })
func.func @case(%k: tensor<i32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %r = "stablehlo.case"(%k) ({
    %a = stablehlo.negate %x : tensor<8xf32>
    %b = stablehlo.abs %a : tensor<8xf32>
    stablehlo.return %b : tensor<8xf32>
  }, {
    %c = stablehlo.sqrt %x : tensor<8xf32>
    stablehlo.return %c : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  func.return %r : tensor<8xf32>
}
