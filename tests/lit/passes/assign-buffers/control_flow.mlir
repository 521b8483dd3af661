// RUN: xlir-opt --allow-unregistered-dialect %s --split-input-file -p assign-buffers | filecheck %s

// The values of while and case bodies get buffers, laid out inside their op's
// span; the loop state is one buffer per position (results and the arguments
// of both regions); scalar computations of reduce bodies get none.

// State 0 starts in %init (dead at the loop) and ends as output 0: the whole
// chain, with the body's tanh and add, lives in output 0. State 1 starts from
// a constant (read only), so it is output 1's own buffer, incremented in
// place. State 2 is passed through unchanged: it stays parameter 1. Only the
// loop condition's i1 is temp.
// CHECK-LABEL: func.func @while_loop
// CHECK-SAME:  hlo.plan = #hlo.plan<arena = 1, alignment = 64, arguments = 8192, outputs = 4100, alias = 0, constants = 12>
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<out 0>]
// CHECK:       stablehlo.while{{.*}} attributes {hlo.buffers = [#hlo.buffer<out 0>, #hlo.buffer<out 1>, #hlo.buffer<arg 1>]}
// CHECK:       stablehlo.compare {{.*}}[#hlo.buffer<temp, offset = 0, size = 1>]
// CHECK:       do {
// CHECK-NEXT:    stablehlo.tanh {{.*}}[#hlo.buffer<out 0>]
// CHECK-NEXT:    stablehlo.add {{.*}}[#hlo.buffer<out 0>]
// CHECK-NEXT:    stablehlo.constant {{.*}}[#hlo.buffer<const>]
// CHECK-NEXT:    stablehlo.add {{.*}}[#hlo.buffer<out 1>]
func.func @while_loop(%x: tensor<1024xf32>, %w: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<i32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %init = stablehlo.exponential %x : tensor<1024xf32>
  %r:3 = stablehlo.while(%s = %init, %i = %zero, %c = %w) : tensor<1024xf32>, tensor<i32>, tensor<1024xf32>
  cond {
    %n = stablehlo.constant dense<10> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %t = stablehlo.tanh %s : tensor<1024xf32>
    %u = stablehlo.add %t, %c : tensor<1024xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %u, %j, %c : tensor<1024xf32>, tensor<i32>, tensor<1024xf32>
  }
  func.return %r#0, %r#1 : tensor<1024xf32>, tensor<i32>
}

// -----

// The body reads the old state after making the new one: the new value needs
// a temp of its own (copied into the state at the end of the iteration). The
// initial value is a parameter, so the state is a buffer of its own too.
// The condition's i1 is dead before the body runs: they share bytes.
// CHECK-LABEL: func.func @state_read_late
// CHECK-SAME:  arena = 4096
// CHECK:       stablehlo.while{{.*}} attributes {hlo.buffers = [#hlo.buffer<out 0>]}
// CHECK:       "test.cond"(%{{.*}}) {hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 1>]}
// CHECK:       do {
// CHECK-NEXT:    stablehlo.tanh {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK-NEXT:    stablehlo.multiply {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
func.func @state_read_late(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = stablehlo.while(%s = %x) : tensor<1024xf32>
  cond {
    %lt = "test.cond"(%s) : (tensor<1024xf32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %t = stablehlo.tanh %s : tensor<1024xf32>
    %v = stablehlo.multiply %t, %s : tensor<1024xf32>
    stablehlo.return %v : tensor<1024xf32>
  }
  func.return %r : tensor<1024xf32>
}

// -----

// A value from outside used in a loop stays live to the loop's end: %outer's
// bytes are not reused by the body's %t. The body's new i1 is made directly
// in the loop state.
// CHECK-LABEL: func.func @outer_value_live_through_loop
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK-NEXT:  stablehlo.while{{.*}}[#hlo.buffer<temp, offset = 8192, size = 1>]
// CHECK-NOT:   stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK:       do {
// CHECK-NEXT:    stablehlo.tanh {{.*}}[#hlo.buffer<temp, offset = 4096, size = 4096>]
// CHECK-NEXT:    "test.op"(%{{.*}}) {hlo.buffers = [#hlo.buffer<temp, offset = 8192, size = 1>]}
func.func @outer_value_live_through_loop(%x: tensor<1024xf32>, %p: tensor<i1>) -> tensor<f32> {
  %outer = stablehlo.exponential %x : tensor<1024xf32>
  %r = stablehlo.while(%s = %p) : tensor<i1>
  cond {
    stablehlo.return %s : tensor<i1>
  } do {
    %t = stablehlo.tanh %outer : tensor<1024xf32>
    %n = "test.op"(%t) : (tensor<1024xf32>) -> tensor<i1>
    stablehlo.return %n : tensor<i1>
  }
  %f = "test.use"(%r) : (tensor<i1>) -> tensor<f32>
  func.return %f : tensor<f32>
}

// -----

// Each case branch computes its result directly in the case's buffer.
// CHECK-LABEL: func.func @case
// CHECK-SAME:  arena = 4096
// CHECK:       "stablehlo.case"(%{{.*}}) ({
// CHECK-NEXT:    stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK:         stablehlo.negate {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK:       }) {hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 4096>]}
func.func @case(%i: tensor<i32>, %x: tensor<1024xf32>) -> tensor<f32> {
  %r = "stablehlo.case"(%i) ({
    %a = stablehlo.exponential %x : tensor<1024xf32>
    stablehlo.return %a : tensor<1024xf32>
  }, {
    %b = stablehlo.negate %x : tensor<1024xf32>
    stablehlo.return %b : tensor<1024xf32>
  }) : (tensor<i32>) -> tensor<1024xf32>
  %f = "test.use"(%r) : (tensor<1024xf32>) -> tensor<f32>
  func.return %f : tensor<f32>
}

// -----

// The reducer's scalar ops get no buffers; neither do the ops in a fusion.
// CHECK-LABEL: func.func @scalar_computations
// CHECK:       stablehlo.reduce{{.*}}{hlo.buffers = [#hlo.buffer<out 0>]}
// CHECK-NEXT:  reducer
// CHECK-NEXT:    %{{.*}} = stablehlo.add %b, %a : tensor<f32>
// CHECK-NEXT:    stablehlo.return
// CHECK-NEXT:  }
// CHECK-NEXT:  hlo.fusion kind = loop {{.*}}[#hlo.buffer<out 1>]
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    %{{.*}} = stablehlo.exponential %{{.*}} : tensor<1024xf32>
// CHECK-NEXT:    hlo.yield
func.func @scalar_computations(%x: tensor<1024xf32>, %z: tensor<f32>) -> (tensor<f32>, tensor<1024xf32>) {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<1024xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %s = stablehlo.add %b, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  %1 = hlo.fusion kind = loop (%x) : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%y: tensor<1024xf32>):
    %e = stablehlo.exponential %y : tensor<1024xf32>
    hlo.yield %e : tensor<1024xf32>
  }
  func.return %0, %1 : tensor<f32>, tensor<1024xf32>
}

// -----

// A state nobody reads after the loop (%k: the counter is yielded into it,
// and the loop's result is dead) is still written at the end of every
// iteration: its buffer keeps its bytes over the whole loop, apart from the
// body's transpose, which is live until that write.
// CHECK-LABEL: func.func @state_unread_after_loop
// CHECK:       stablehlo.while{{.*}}[#hlo.buffer<out 0>, #hlo.buffer<temp, offset = 512, size = 4>, #hlo.buffer<temp, offset = 0, size = 256>, #hlo.buffer<out 1>]
// CHECK:       stablehlo.transpose {{.*}}[#hlo.buffer<temp, offset = 256, size = 256>]
func.func @state_unread_after_loop(%a: tensor<8x8xf32>, %n: tensor<i32>) -> (tensor<i32>, tensor<8x8xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %b = stablehlo.negate %a : tensor<8x8xf32>
  %r:4 = stablehlo.while(%i = %c0, %k = %c0, %v = %a, %w = %b) : tensor<i32>, tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.transpose %v, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    stablehlo.return %j, %j, %t, %t : tensor<i32>, tensor<i32>, tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.return %r#0, %r#3 : tensor<i32>, tensor<8x8xf32>
}

// -----

// A state passed through unchanged from a constant is not the constant's
// read-only data: the host fills a buffer of its own from it (here output 1).
// CHECK-LABEL: func.func @constant_passed_through
// CHECK:       stablehlo.while{{.*}}[#hlo.buffer<out 0>, #hlo.buffer<out 1>]
// CHECK-NOT:   #hlo.buffer<const>]}
func.func @constant_passed_through(%n: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %k = %c5) : tensor<i32>, tensor<i32>
  cond {
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %j = stablehlo.add %i, %k : tensor<i32>
    stablehlo.return %j, %k : tensor<i32>, tensor<i32>
  }
  %s = stablehlo.multiply %r#0, %r#1 : tensor<i32>
  func.return %s, %r#1 : tensor<i32>, tensor<i32>
}
