// RUN: xlir-opt %s --split-input-file -p 'fuse{explain=true max-ops=3 max-duplication=1}' 2>&1 | filecheck %s
// RUN: xlir-opt %s --split-input-file -p fuse 2>&1 | filecheck %s --check-prefix=QUIET
// RUN: not xlir-opt %s -p 'fuse{max-ops=0}' 2>&1 | filecheck %s --check-prefix=BAD

// QUIET-NOT: remark
// BAD: error: fuse: max-ops must be at least 1, got 0
// BAD-NOT: note: the IR after pass

// max-ops: a chain of four ops splits after three.
// CHECK: {{.*}}explain.mlir:[[# @LINE + 16]]:3: remark: fuse 'stablehlo.negate' into 'stablehlo.abs' at {{.*}}explain.mlir:[[# @LINE + 17]]:3: refused by max-ops: the fusion already has 3 ops (max-ops=3)
// CHECK: {{.*}}explain.mlir:[[# @LINE + 16]]:3: remark: fuse 'stablehlo.abs' into 'stablehlo.floor' at {{.*}}explain.mlir:[[# @LINE + 17]]:3: fused
// CHECK: {{.*}}explain.mlir:[[# @LINE + 16]]:3: remark: fuse 'stablehlo.floor' into 'stablehlo.ceil' at {{.*}}explain.mlir:[[# @LINE + 17]]:3: fused
// CHECK-LABEL: func.func @max_ops
// CHECK-NEXT:    %[[N:.*]] = hlo.fusion kind = loop (%x) {name = "fusion.1"}
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    hlo.fusion kind = loop (%[[N]]) {name = "fusion.2"}
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.abs
// CHECK-NEXT:      stablehlo.floor
// CHECK-NEXT:      stablehlo.ceil
// CHECK-NEXT:      hlo.yield
func.func @max_ops(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %x : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  %2 = stablehlo.floor %1 : tensor<8xf32>
  %3 = stablehlo.ceil %2 : tensor<8xf32>
  func.return %3 : tensor<8xf32>
}

// -----

// max-duplication: a cheap producer read by two fusions is computed once in
// one of them (multi-output) instead of being copied into both.
// CHECK: {{.*}}explain.mlir:[[# @LINE + 17]]:3: remark: fuse 'stablehlo.add' into 'stablehlo.reduce' at {{.*}}explain.mlir:[[# @LINE + 20]]:3: fused (multi-output: also yielded for 1 other reader)
// CHECK: {{.*}}explain.mlir:[[# @LINE + 16]]:3: remark: fuse 'stablehlo.add' into 'stablehlo.exponential' at {{.*}}explain.mlir:[[# @LINE + 17]]:3: refused by max-duplication: 'stablehlo.add' would be duplicated into 2 fusions (max-duplication=1)
// CHECK-LABEL: func.func @max_duplication
// CHECK-NEXT:    %[[P:.*]], %[[R:.*]] = hlo.fusion kind = input (%x) {name = "fusion.1"}
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      %[[PI:.*]] = stablehlo.add
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      %[[RI:.*]] = stablehlo.reduce(%[[PI]]
// CHECK-NEXT:      hlo.yield %[[PI]], %[[RI]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[E:.*]] = hlo.fusion kind = loop (%[[P]]) {name = "fusion.2"}
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.exponential
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[E]], %[[R]]
func.func @max_duplication(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %p = stablehlo.add %x, %x : tensor<4x8xf32>
  %e = stablehlo.exponential %p : tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %e, %r : tensor<4x8xf32>, tensor<4xf32>
}
