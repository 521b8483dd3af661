// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @return_outside(%x: tensor<f32>) -> tensor<f32> {
  stablehlo.return %x : tensor<f32>
}

// CHECK: control_flow_invalid.mlir:4:3: error: 'stablehlo.return' op expects its parent op to be a stablehlo op with regions (one of stablehlo.reduce, stablehlo.reduce_window, stablehlo.select_and_scatter, stablehlo.sort, stablehlo.scatter, stablehlo.while, stablehlo.case, stablehlo.if, stablehlo.map, stablehlo.all_reduce, stablehlo.reduce_scatter, stablehlo.collective_reduce, chlo.scan, device.collective), but it is in 'func.func'

// -----

func.func @while_cond_type(%n: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%i = %n) : tensor<i32>
  cond {
    stablehlo.return %i : tensor<i32>
  } do {
    stablehlo.return %i : tensor<i32>
  }
  func.return %0 : tensor<i32>
}
// CHECK: control_flow_invalid.mlir:12:3: error: 'stablehlo.while' op cond region returns (tensor<i32>) but must return (tensor<i1>)

// -----

func.func @while_body_types(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<i32> {
  %0:2 = stablehlo.while(%i = %n, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    stablehlo.return %i : tensor<i32>
  }
  func.return %0#0 : tensor<i32>
}
// CHECK: control_flow_invalid.mlir:25:3: error: 'stablehlo.while' op body region returns (tensor<i32>) but must return (tensor<i32>, tensor<4xf32>)

// -----

func.func @while_result_types(%n: tensor<i32>) -> tensor<i64> {
  %0 = "stablehlo.while"(%n) ({
  ^bb0(%i: tensor<i32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>):
    stablehlo.return %i : tensor<i32>
  }) : (tensor<i32>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
// CHECK: control_flow_invalid.mlir:39:3: error: 'stablehlo.while' op result types (tensor<i64>) must equal the operand types (tensor<i32>)

// -----

func.func @while_cond_args(%n: tensor<i32>) -> tensor<i32> {
  %0 = "stablehlo.while"(%n) ({
  ^bb0(%i: tensor<f32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>):
    stablehlo.return %i : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
// CHECK: control_flow_invalid.mlir:54:3: error: 'stablehlo.while' op cond region takes (tensor<f32>) but must take (tensor<i32>)

// -----

func.func @case_index(%index: tensor<2xi32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%index) ({
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<2xi32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: control_flow_invalid.mlir:69:3: error: 'stablehlo.case' op index must be a rank-0 tensor of i32, but has type tensor<2xi32>

// -----

func.func @case_branch_result(%index: tensor<i32>, %x: tensor<4xf32>, %y: tensor<2xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%index) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    stablehlo.return %y : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: control_flow_invalid.mlir:79:3: error: 'stablehlo.case' op branch #1 returns (tensor<2xf32>) but must return (tensor<4xf32>)

// -----

func.func @case_branch_args(%index: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%index) ({
  ^bb0(%a: tensor<4xf32>):
    stablehlo.return %a : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: control_flow_invalid.mlir:91:3: error: 'stablehlo.case' op branch #0 takes (tensor<4xf32>) but must take ()

// -----

func.func @case_no_branch(%index: tensor<i32>) {
  "stablehlo.case"(%index) : (tensor<i32>) -> ()
  func.return
}
// CHECK: control_flow_invalid.mlir:102:3: error: 'stablehlo.case' op needs at least one branch

// -----

func.func @barrier_types(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0 = "stablehlo.optimization_barrier"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}
// CHECK: control_flow_invalid.mlir:110:3: error: 'stablehlo.optimization_barrier' op result types (tensor<4xi32>) must equal the operand types (tensor<4xf32>)

// -----

func.func @composite_missing(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.composite "my.op" %x {decomposition = @missing} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: control_flow_invalid.mlir:118:3: error: 'stablehlo.composite' op decomposition @missing does not name a function in the module

// -----

func.func @composite_signature(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.composite "my.op" %x {decomposition = @impl, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @impl(%x: tensor<8xf32>) -> tensor<8xf32> {
  func.return %x : tensor<8xf32>
}
// CHECK: control_flow_invalid.mlir:126:3: error: 'stablehlo.composite' op decomposition @impl has type (tensor<8xf32>) -> (tensor<8xf32>) but the composite has type (tensor<4xf32>) -> (tensor<4xf32>)

// -----

builtin.module @impl {
}
func.func @composite_not_function(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.composite "my.op" %x {decomposition = @impl} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// CHECK: control_flow_invalid.mlir:139:3: error: 'stablehlo.composite' op decomposition @impl names a 'builtin.module' op, not a function

// -----

func.func @custom_call_layout_count(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.custom_call @f(%x, %x) {operand_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
// CHECK: control_flow_invalid.mlir:147:3: error: 'stablehlo.custom_call' op has 2 operands but 1 operand layouts

// -----

func.func @custom_call_layout(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.custom_call @f(%x) {result_layouts = [dense<[0, 0]> : tensor<2xindex>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
// CHECK: control_flow_invalid.mlir:155:3: error: 'stablehlo.custom_call' op result layout #0 must be a permutation of [0, 2) for type tensor<4x4xf32>

// -----

func.func @rng_state_type(%s: tensor<2xui64>) -> tensor<4xui32> {
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  func.return %0#1 : tensor<4xui32>
}
// CHECK: control_flow_invalid.mlir:163:3: error: 'stablehlo.rng_bit_generator' op output state type tensor<3xui64> must equal the initial state type tensor<2xui64>

// -----

func.func @rng_state_kind(%s: tensor<2xf32>) -> tensor<4xui32> {
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xf32>) -> (tensor<2xf32>, tensor<4xui32>)
  func.return %0#1 : tensor<4xui32>
}
// CHECK: control_flow_invalid.mlir:171:3: error: 'stablehlo.rng_bit_generator' op initial state must be a 1-D tensor of unsigned integers, but has type tensor<2xf32>

// -----

func.func @rng_three_fry_size(%s: tensor<3xui64>) -> tensor<4xui32> {
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  func.return %0#1 : tensor<4xui32>
}
// CHECK: control_flow_invalid.mlir:179:3: error: 'stablehlo.rng_bit_generator' op THREE_FRY needs an initial state of 2 elements, but it has 3

// -----

func.func @rng_output(%s: tensor<2xui64>) -> tensor<4xi1> {
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi1>)
  func.return %0#1 : tensor<4xi1>
}
// CHECK: control_flow_invalid.mlir:187:3: error: 'stablehlo.rng_bit_generator' op output must have integer or float elements, but has i1
