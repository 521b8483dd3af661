// RUN: xlir-opt %s --split-input-file -p 'fuse{explain=true}' 2>&1 | filecheck %s

// expensive-reuse: rsqrt of a row vector under a broadcast would be
// recomputed for every element of the row.
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 13]]:3: remark: fuse 'stablehlo.rsqrt' into 'stablehlo.broadcast_in_dim' at {{.*}}refusals.mlir:[[# @LINE + 14]]:3: refused by expensive-reuse: 'stablehlo.rsqrt' is expensive and 'stablehlo.broadcast_in_dim' reads each of its elements 8 times
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 13]]:3: remark: fuse 'stablehlo.broadcast_in_dim' into 'stablehlo.multiply' at {{.*}}refusals.mlir:[[# @LINE + 14]]:3: fused
// CHECK-LABEL: func.func @expensive_reuse
// CHECK-NEXT:    %[[R:.*]] = hlo.fusion kind = loop (%v)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.rsqrt
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    hlo.fusion kind = loop (%[[R]], %x)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.broadcast_in_dim
// CHECK-NEXT:      stablehlo.multiply
func.func @expensive_reuse(%v: tensor<4xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = stablehlo.rsqrt %v : tensor<4xf32>
  %b = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %m = stablehlo.multiply %x, %b : tensor<4x8xf32>
  func.return %m : tensor<4x8xf32>
}

// -----

// contraction-operand: nothing fuses into the operands of a dot.
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 9]]:3: remark: fuse 'stablehlo.exponential' into 'stablehlo.dot_general' at {{.*}}refusals.mlir:[[# @LINE + 10]]:3: refused by contraction-operand: 'stablehlo.dot_general' reads each element of its operands many times; a contraction fuses only with its elementwise consumers (output fusion)
// CHECK-LABEL: func.func @contraction_operand
// CHECK-NEXT:    %[[E:.*]] = hlo.fusion kind = loop (%x)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.exponential
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    stablehlo.dot_general %[[E]], %x
func.func @contraction_operand(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = stablehlo.exponential %x : tensor<4x4xf32>
  %d = stablehlo.dot_general %e, %x, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %d : tensor<4x4xf32>
}

// -----

// in-place: the buffer a dynamic_update_slice updates is a fusion input, and
// an op reading that buffer is not fused with the update. The add (8) is not
// yielded from the slice's fusion (2): that would take a second loop nest.
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 18]]:3: remark: fuse 'stablehlo.add' into 'stablehlo.dynamic_update_slice' at {{.*}}refusals.mlir:[[# @LINE + 21]]:3: refused by in-place: 'stablehlo.dynamic_update_slice' at {{.*}}refusals.mlir:[[# @LINE + 21]]:3 updates its operand in place; the operand must be a fusion input, not computed in the fusion
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 18]]:3: remark: fuse 'stablehlo.slice' into 'stablehlo.negate' at {{.*}}refusals.mlir:[[# @LINE + 19]]:3: refused by in-place: 'stablehlo.slice' reads the buffer that 'stablehlo.dynamic_update_slice' at {{.*}}refusals.mlir:[[# @LINE + 20]]:3 overwrites in place
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 18]]:3: remark: fuse 'stablehlo.negate' into 'stablehlo.dynamic_update_slice' at {{.*}}refusals.mlir:[[# @LINE + 19]]:3: fused
// CHECK-LABEL: func.func @in_place
// CHECK-NEXT:    %[[A:.*]] = hlo.fusion kind = loop (%buf, %x) {name = "fusion.1"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S:.*]] = hlo.fusion kind = loop ({{.*}}) {name = "fusion.2"} : ({{.*}}) -> tensor<2xf32> {
// CHECK:           stablehlo.slice
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    hlo.fusion kind = loop (%[[S]], %[[A]], %i)
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<2xf32>, %[[BUF:.*]]: tensor<8xf32>, %{{.*}}: tensor<i32>):
// CHECK-NEXT:      %[[U:.*]] = stablehlo.negate
// CHECK-NEXT:      stablehlo.dynamic_update_slice %[[BUF]], %[[U]]
func.func @in_place(%buf: tensor<8xf32>, %x: tensor<8xf32>, %i: tensor<i32>) -> tensor<8xf32> {
  %a = stablehlo.add %buf, %x : tensor<8xf32>
  %s = stablehlo.slice %a [0:2] : (tensor<8xf32>) -> tensor<2xf32>
  %u = stablehlo.negate %s : tensor<2xf32>
  %d = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<8xf32>, tensor<2xf32>, tensor<i32>) -> tensor<8xf32>
  func.return %d : tensor<8xf32>
}

// -----

// not-fusible and reduce-root: ops with regions other than reductions are
// never fused, and a reduction is not fused into its consumers.
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 17]]:3: remark: fuse 'stablehlo.sort' into 'stablehlo.negate' at {{.*}}refusals.mlir:[[# @LINE + 22]]:3: refused by not-fusible: 'stablehlo.sort' has regions; only the bodies of reductions are fused, and the pass runs separately inside while and case bodies
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 21]]:3: remark: fuse 'stablehlo.negate' into 'stablehlo.reduce' at {{.*}}refusals.mlir:[[# @LINE + 23]]:3: fused
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 22]]:3: remark: fuse 'stablehlo.reduce' into 'stablehlo.exponential' at {{.*}}refusals.mlir:[[# @LINE + 23]]:3: refused by reduce-root: 'stablehlo.reduce' is the root of its own input fusion; a reduction is not fused into its consumers
// CHECK-LABEL: func.func @not_fusible
// CHECK-NEXT:    %[[S:.*]] = "stablehlo.sort"(%x)
// CHECK:         }) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[R:.*]] = hlo.fusion kind = input (%[[S]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      stablehlo.reduce
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    hlo.fusion kind = loop (%[[R]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.exponential
func.func @not_fusible(%x: tensor<8xf32>) -> tensor<f32> {
  %s = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  %n = stablehlo.negate %s : tensor<8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%n init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %e = stablehlo.exponential %r : tensor<f32>
  func.return %e : tensor<f32>
}

// -----

// cycle: exp is read by a custom call and by an add that reads the custom
// call's result; computing exp inside the add's fusion would make that
// fusion both feed and wait for the custom call.
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 13]]:3: remark: fuse 'stablehlo.exponential' into 'stablehlo.add' at {{.*}}refusals.mlir:[[# @LINE + 15]]:3: refused by cycle: computing 'stablehlo.exponential' in this fusion would create a cycle: the fusion needs, through 'stablehlo.custom_call' at {{.*}}refusals.mlir:[[# @LINE + 14]]:3, a value computed from it
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 13]]:3: remark: fuse 'stablehlo.custom_call' into 'stablehlo.add' at {{.*}}refusals.mlir:[[# @LINE + 14]]:3: refused by not-fusible: 'stablehlo.custom_call' is not fusible
// CHECK-LABEL: func.func @cycle
// CHECK-NEXT:    %[[E:.*]] = hlo.fusion kind = loop (%x)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.exponential
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[C:.*]] = stablehlo.custom_call @foo(%[[E]])
// CHECK-NEXT:    hlo.fusion kind = loop (%[[E]], %[[C]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.add
func.func @cycle(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = stablehlo.exponential %x : tensor<8xf32>
  %c = stablehlo.custom_call @foo(%e) : (tensor<8xf32>) -> tensor<8xf32>
  %a = stablehlo.add %e, %c : tensor<8xf32>
  func.return %a : tensor<8xf32>
}

// -----

// sibling-shape: reductions over different dimensions do not merge; the
// shared exp is computed once, in one of them, and yielded to the other.
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 19]]:3: remark: fuse 'stablehlo.exponential' into 'stablehlo.reduce' at {{.*}}refusals.mlir:[[# @LINE + 21]]:3: fused (multi-output: also yielded for 1 other reader)
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 18]]:3: remark: fuse 'stablehlo.exponential' into 'stablehlo.reduce' at {{.*}}refusals.mlir:[[# @LINE + 21]]:3: refused by multi-output: 'stablehlo.exponential' is not duplicated; it is computed once, in the fusion at {{.*}}refusals.mlir:[[# @LINE + 20]]:3, and read from there
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 19]]:3: remark: fuse 'stablehlo.reduce' into 'stablehlo.reduce' at {{.*}}refusals.mlir:[[# @LINE + 20]]:3: refused by sibling-shape: the reductions differ in shape or dimensions
// CHECK-LABEL: func.func @sibling_shape
// CHECK-NEXT:    %[[E:.*]], %[[ROWS:.*]] = hlo.fusion kind = input (%x)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      %[[EI:.*]] = stablehlo.exponential
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      %[[RI:.*]] = stablehlo.reduce(%[[EI]] {{.*}} dimensions = [1]
// CHECK-NEXT:      hlo.yield %[[EI]], %[[RI]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[COLS:.*]] = hlo.fusion kind = input (%[[E]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      stablehlo.reduce{{.*}}dimensions = [0]
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[ROWS]], %[[COLS]]
func.func @sibling_shape(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %rows = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %cols = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %rows, %cols : tensor<4xf32>, tensor<8xf32>
}

// -----

// output-fusion: a dot whose result is read twice stays a kernel.
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 8]]:3: remark: fuse 'stablehlo.dot_general' into 'stablehlo.negate' at {{.*}}refusals.mlir:[[# @LINE + 10]]:3: refused by output-fusion: its result has 2 readers, not one fusion; a contraction fuses only with a single elementwise epilogue
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 7]]:3: remark: fuse 'stablehlo.dot_general' into 'stablehlo.exponential' at {{.*}}refusals.mlir:[[# @LINE + 8]]:3: refused by output-fusion: its result has 2 readers, not one fusion; a contraction fuses only with a single elementwise epilogue
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 8]]:3: remark: fuse 'stablehlo.negate' into 'stablehlo.transpose' at {{.*}}refusals.mlir:[[# @LINE + 9]]:3: fused
// CHECK-LABEL: func.func @output_fusion
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %x, %x
// CHECK-NEXT:    hlo.fusion kind = loop (%[[D]])
// CHECK:         hlo.fusion kind = loop (%[[D]])
func.func @output_fusion(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %d = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = stablehlo.exponential %d : tensor<4x4xf32>
  %n = stablehlo.negate %d : tensor<4x4xf32>
  %t = stablehlo.transpose %n, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %e, %t : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// output-fusion: the epilogue slices two gates out of the dot's result, so
// the fusion's nest walks 2x4, not the dot's 2x8: the dot stays a kernel
// (its sums in the order the dot kernels take) and the gates a loop fusion.
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 6]]:3: remark: fuse 'stablehlo.dot_general' into 'stablehlo.add' at {{.*}}refusals.mlir:[[# @LINE + 7]]:3: refused by output-fusion: the fusion's loop nest walks 2x4 (its root 'stablehlo.multiply'), not the contraction's result 2x8
// CHECK-LABEL: func.func @output_fusion_sliced
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %h, %w
// CHECK-NEXT:    hlo.fusion kind = loop (%[[D]], %b)
// CHECK-NOT:     stablehlo.dot_general
func.func @output_fusion_sliced(%h: tensor<2x3xf32>, %w: tensor<3x8xf32>, %b: tensor<2x8xf32>) -> tensor<2x4xf32> {
  %d = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x8xf32>) -> tensor<2x8xf32>
  %a = stablehlo.add %d, %b : tensor<2x8xf32>
  %i = stablehlo.slice %a [0:2, 0:4] : (tensor<2x8xf32>) -> tensor<2x4xf32>
  %g = stablehlo.slice %a [0:2, 4:8] : (tensor<2x8xf32>) -> tensor<2x4xf32>
  %s = stablehlo.logistic %i : tensor<2x4xf32>
  %t = stablehlo.tanh %g : tensor<2x4xf32>
  %m = stablehlo.multiply %s, %t : tensor<2x4xf32>
  func.return %m : tensor<2x4xf32>
}

// -----

// multi-output-shape: a fusion writes all its outputs in one loop nest, so
// an extra output must have the shape that nest walks. The transposed exp
// (8x4) cannot yield exp (4x8), which is computed once in its own fusion and
// read from there rather than recomputed in a second nest.
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 15]]:3: remark: fuse 'stablehlo.exponential' into 'stablehlo.transpose' at {{.*}}refusals.mlir:[[# @LINE + 16]]:3: refused by multi-output-shape: its result has shape 4x8, but the loop nest of the fusion at {{.*}}refusals.mlir:[[# @LINE + 17]]:3 walks only 8x4 (its root 'stablehlo.negate')
// CHECK-LABEL: func.func @multi_output_shape
// CHECK-NEXT:    %[[E:.*]] = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.exponential
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[N:.*]] = hlo.fusion kind = loop (%[[E]]) {name = "fusion.2"} : (tensor<4x8xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.transpose
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[E]], %[[N]]
func.func @multi_output_shape(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %t = stablehlo.transpose %e, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %n = stablehlo.negate %t : tensor<8x4xf32>
  func.return %e, %n : tensor<4x8xf32>, tensor<8x4xf32>
}

// -----

// multi-output-shape in a reduction's fusion: its nest walks the reduce's
// result and, inside the reduction, the reduce's input; exp feeds the reduce
// through a reshape and has neither shape.
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 11]]:3: remark: fuse 'stablehlo.exponential' into 'stablehlo.reshape' at {{.*}}refusals.mlir:[[# @LINE + 12]]:3: refused by multi-output-shape: its result has shape 32, but the loop nest of the fusion at {{.*}}refusals.mlir:[[# @LINE + 14]]:3 walks only 4 (its root 'stablehlo.reduce') and 4x8 (the input of 'stablehlo.reduce')
// CHECK-LABEL: func.func @multi_output_shape_reduce
// CHECK-NEXT:    %[[E:.*]] = hlo.fusion kind = loop (%v)
// CHECK:         %[[S:.*]] = hlo.fusion kind = input (%[[E]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.reshape
// CHECK-NEXT:      stablehlo.constant
// CHECK-NEXT:      stablehlo.reduce
// CHECK-NEXT:      hlo.yield
// CHECK:         func.return %[[E]], %[[S]]
func.func @multi_output_shape_reduce(%v: tensor<32xf32>) -> (tensor<32xf32>, tensor<4xf32>) {
  %e = stablehlo.exponential %v : tensor<32xf32>
  %r = stablehlo.reshape %e : (tensor<32xf32>) -> tensor<4x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%r init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %e, %s : tensor<32xf32>, tensor<4xf32>
}

// -----

// Where multi-output-shape must not fire: an extra output of the root's
// shape shares its nest (a loop fusion yielding exp and its negation), and
// so does one shaped like a reduce's input (see sibling_shape above).
// CHECK: {{.*}}refusals.mlir:[[# @LINE + 11]]:3: remark: fuse 'stablehlo.exponential' into 'stablehlo.negate' at {{.*}}refusals.mlir:[[# @LINE + 12]]:3: fused (multi-output: also yielded for 1 other reader)
// CHECK-NOT: multi-output-shape
// CHECK-LABEL: func.func @multi_output_same_shape
// CHECK-NEXT:    %[[E:.*]], %[[N:.*]] = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      stablehlo.exponential
// CHECK-NEXT:      stablehlo.negate
// CHECK-NEXT:      hlo.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[E]], %[[N]]
func.func @multi_output_same_shape(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %n = stablehlo.negate %e : tensor<4x8xf32>
  func.return %e, %n : tensor<4x8xf32>, tensor<4x8xf32>
}
