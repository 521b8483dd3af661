// RUN: xlir-opt %s --split-input-file -p inline | filecheck %s
// RUN: xlir-opt %s --split-input-file -p 'inline{inline-public=true}' | filecheck %s --check-prefix=PUBLIC

// A single call of a private function, in JAX's `call` spelling: the body
// takes its place and the function goes.

// CHECK-LABEL: func.func public @single
// CHECK-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.broadcast_in_dim %[[ZERO]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.maximum %arg0, %[[B]] : tensor<4xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<4xf32>
// CHECK-NOT:   call
// CHECK-NOT:   @relu
func.func public @single(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @relu(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @relu(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.maximum %arg0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Nested calls: @outer calls @inner; both bodies end up in @main.

// CHECK-LABEL: func.func public @nested
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK-NEXT:    %[[E:.*]] = stablehlo.exponential %[[N]] : tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %[[E]], %arg0 : tensor<4xf32>
// CHECK-NEXT:    func.return %[[A]] : tensor<4xf32>
// CHECK-NOT:   func.func
func.func public @nested(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @outer(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @outer(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @inner(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @inner(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  %1 = stablehlo.exponential %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Several results, one of them an argument passed straight through.

// CHECK-LABEL: func.func public @multi
// CHECK-NEXT:    %[[S:.*]] = stablehlo.subtract %a, %b : tensor<2xi32>
// CHECK-NEXT:    %[[M:.*]] = stablehlo.multiply %[[S]], %b : tensor<2xi32>
// CHECK-NEXT:    func.return %[[M]], %a : tensor<2xi32>, tensor<2xi32>
func.func public @multi(%a: tensor<2xi32>, %b: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %0:2 = call @pair(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  %1 = stablehlo.multiply %0#1, %b : tensor<2xi32>
  return %1, %0#0 : tensor<2xi32>, tensor<2xi32>
}
func.func private @pair(%x: tensor<2xi32>, %y: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %0 = stablehlo.subtract %x, %y : tensor<2xi32>
  return %x, %0 : tensor<2xi32>, tensor<2xi32>
}

// -----

// A private function called twice: two copies with their own values, and the
// function is erased.

// CHECK-LABEL: func.func public @twice
// CHECK-NEXT:    %[[T1:.*]] = stablehlo.tanh %arg0 : tensor<4xf32>
// CHECK-NEXT:    %[[T2:.*]] = stablehlo.tanh %[[T1]] : tensor<4xf32>
// CHECK-NEXT:    func.return %[[T2]] : tensor<4xf32>
// CHECK-NOT:   @act
func.func public @twice(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @act(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @act(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @act(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tanh %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A public callee stays, and so does the call to it, unless inline-public.

// CHECK-LABEL: func.func public @caller
// CHECK-NEXT:    %{{.*}} = func.call @helper(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func public @helper
// CHECK-NEXT:    stablehlo.abs
// PUBLIC-LABEL: func.func public @caller
// PUBLIC-NEXT:    %[[A:.*]] = stablehlo.abs %arg0 : tensor<4xf32>
// PUBLIC-NEXT:    func.return %[[A]] : tensor<4xf32>
// PUBLIC-LABEL: func.func public @helper
func.func public @caller(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @helper(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func public @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Unreferenced private functions are erased (as by MLIR's symbol-dce), one
// that a composite names stays.

// CHECK-LABEL: func.func public @unused
// CHECK-NOT:   @dead
// CHECK:       stablehlo.composite "my.op"
// CHECK:       func.func private @my.op.impl
// CHECK-NOT:   @dead
func.func public @unused(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.composite "my.op" %arg0 {decomposition = @my.op.impl} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @my.op.impl(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
func.func private @dead(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @dead_too(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @dead_too(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

// A call inside a while body, spelled `func.call` as JAX does in regions.

// CHECK-LABEL: func.func public @in_region
// CHECK:         stablehlo.while
// CHECK:         } do {
// CHECK-NEXT:      %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %[[NEXT:.*]] = stablehlo.add %iterArg, %[[ONE]] : tensor<i32>
// CHECK-NEXT:      stablehlo.return %[[NEXT]] : tensor<i32>
// CHECK-NOT:     call
// CHECK-NOT:     @step
func.func public @in_region(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>
  cond {
    %c = stablehlo.constant dense<10> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = func.call @step(%iterArg) : (tensor<i32>) -> tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }
  return %0 : tensor<i32>
}
func.func private @step(%arg0: tensor<i32>) -> tensor<i32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %0 = stablehlo.add %arg0, %c : tensor<i32>
  return %0 : tensor<i32>
}

// -----

// Recursion: @ping and @pong call each other. Inlining stops at a function
// already being inlined on the current path: @pong goes into @ping, @ping
// into @recursive, and the call that closes the cycle stays.

// CHECK-LABEL: func.func public @recursive
// CHECK-NEXT:    %[[N0:.*]] = stablehlo.negate %arg0
// CHECK-NEXT:    %{{.*}} = func.call @ping(%[[N0]])
// CHECK-LABEL: func.func private @ping
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %arg0
// CHECK-NEXT:    %{{.*}} = func.call @ping(%[[N]])
// CHECK-NOT:   @pong
func.func public @recursive(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = call @ping(%arg0) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @ping(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = call @pong(%arg0) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @pong(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.negate %arg0 : tensor<f32>
  %1 = call @ping(%0) : (tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// A function called once whose argument is read inside a region of its body
// (a case branch): its ops move into the caller and read the caller's value.

// CHECK-LABEL: func.func public @captured
// CHECK-NEXT:    %[[C:.*]] = "stablehlo.case"(%p) ({
// CHECK-NEXT:      stablehlo.return %x : tensor<4xf32>
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %[[N:.*]] = stablehlo.negate %x : tensor<4xf32>
// CHECK-NEXT:      stablehlo.return %[[N]] : tensor<4xf32>
// CHECK-NEXT:    }) : (tensor<i32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[C]] : tensor<4xf32>
// CHECK-NOT:   @pick
func.func public @captured(%p: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @pick(%p, %x) : (tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @pick(%p: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%p) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    %1 = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Called once, but named by a composite too: the body is copied and the
// function stays, whole.

// CHECK-LABEL: func.func public @shared
// CHECK-NEXT:    %[[A:.*]] = stablehlo.abs %arg0 : tensor<4xf32>
// CHECK-NEXT:    %[[D:.*]] = stablehlo.composite "my.op" %arg0 {decomposition = @my.op.impl}
// CHECK-NEXT:    func.return %[[A]], %[[D]] : tensor<4xf32>, tensor<4xf32>
// CHECK-LABEL: func.func private @my.op.impl
// CHECK-NEXT:    %[[B:.*]] = stablehlo.abs %arg0 : tensor<4xf32>
// CHECK-NEXT:    func.return %[[B]] : tensor<4xf32>
func.func public @shared(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = call @my.op.impl(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.composite "my.op" %arg0 {decomposition = @my.op.impl} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
func.func private @my.op.impl(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
