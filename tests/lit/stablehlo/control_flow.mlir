// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// while binds the arguments of both regions with one list, and prints them
// back with the names they were parsed with.

// CHECK-LABEL: func.func @while_loop
func.func @while_loop(%arg0: tensor<16x32xf32>, %arg1: tensor<32x32xf32>) -> (tensor<16x32xf32>, tensor<i32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %c_0 = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %[[W:.*]] = stablehlo.while(%iterArg = %{{.*}}, %[[I:.*]] = %{{.*}}, %[[J:.*]] = %{{.*}}, %[[K:.*]] = %{{.*}}) : tensor<32x32xf32>, tensor<i32>, tensor<i32>, tensor<16x32xf32>
  // CHECK-NEXT: {{^    }}cond {
  // CHECK-NEXT: stablehlo.constant dense<10> : tensor<i32>
  // CHECK-NEXT: %[[LT:.*]] = stablehlo.compare LT, %[[I]], %{{.*}}, SIGNED
  // CHECK-NEXT: stablehlo.return %[[LT]] : tensor<i1>
  // CHECK-NEXT: {{^    }}} do {
  // CHECK-NEXT: func.call @body(%iterArg, %[[J]], %[[K]])
  // CHECK: stablehlo.add %[[I]], %{{.*}} : tensor<i32>
  // CHECK-NEXT: stablehlo.return %iterArg, %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x32xf32>, tensor<i32>, tensor<i32>, tensor<16x32xf32>
  // CHECK-NEXT: {{^    }}}
  %0:4 = stablehlo.while(%iterArg = %arg1, %iterArg_2 = %c_0, %iterArg_3 = %c, %iterArg_4 = %arg0) : tensor<32x32xf32>, tensor<i32>, tensor<i32>, tensor<16x32xf32>
  cond {
    %c_5 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.compare LT, %iterArg_2, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %2:2 = func.call @body(%iterArg, %iterArg_3, %iterArg_4) : (tensor<32x32xf32>, tensor<i32>, tensor<16x32xf32>) -> (tensor<i32>, tensor<16x32xf32>)
    %c_5 = stablehlo.constant dense<1> : tensor<i32>
    %3 = stablehlo.add %iterArg_2, %c_5 : tensor<i32>
    stablehlo.return %iterArg, %3, %2#0, %2#1 : tensor<32x32xf32>, tensor<i32>, tensor<i32>, tensor<16x32xf32>
  }
  // A second loop reuses the names; the printer keeps them apart.
  // CHECK: stablehlo.while(%[[X:.*]] = %[[W]], %[[N:.*]] = %{{.*}}) : tensor<16x32xf32>, tensor<i32> attributes {tag = "second"}
  // CHECK: } do {
  // CHECK-NEXT: stablehlo.multiply %[[X]], %[[X]] : tensor<16x32xf32>
  %1:2 = stablehlo.while(%iterArg = %0#3, %iterArg_2 = %c) : tensor<16x32xf32>, tensor<i32> attributes {tag = "second"}
  cond {
    %c_3 = stablehlo.constant dense<100> : tensor<i32>
    %2 = stablehlo.compare LT, %iterArg_2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %3 = stablehlo.multiply %iterArg, %iterArg : tensor<16x32xf32>
    stablehlo.return %3, %iterArg_2 : tensor<16x32xf32>, tensor<i32>
  }
  func.return %1#0, %1#1 : tensor<16x32xf32>, tensor<i32>
}

// GENERIC-LABEL: "func.func"() <{sym_name = "while_loop"
// GENERIC: "stablehlo.while"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) ({
// GENERIC-NEXT: ^bb0(%iterArg: tensor<32x32xf32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<16x32xf32>):
// GENERIC: "stablehlo.return"(%{{.*}}) : (tensor<i1>) -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: ^bb0(%{{.*}}: tensor<32x32xf32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<16x32xf32>):
// GENERIC: }) : (tensor<32x32xf32>, tensor<i32>, tensor<i32>, tensor<16x32xf32>) -> (tensor<32x32xf32>, tensor<i32>, tensor<i32>, tensor<16x32xf32>)
// GENERIC: }) {tag = "second"} : (tensor<16x32xf32>, tensor<i32>) -> (tensor<16x32xf32>, tensor<i32>)

func.func private @body(%arg0: tensor<32x32xf32>, %arg1: tensor<i32>, %arg2: tensor<16x32xf32>) -> (tensor<i32>, tensor<16x32xf32>) {
  func.return %arg1, %arg2 : tensor<i32>, tensor<16x32xf32>
}

// The generic form of while parses too, and a loop nests in a loop.

// CHECK-LABEL: func.func @while_generic_nested
func.func @while_generic_nested(%n: tensor<i32>) -> tensor<i32> {
  // CHECK: stablehlo.while(%[[A:.*]] = %{{.*}}) : tensor<i32>
  // CHECK-NEXT: cond {
  // CHECK: } do {
  // CHECK-NEXT: stablehlo.while(%[[B:.*]] = %[[A]]) : tensor<i32>
  // CHECK: stablehlo.return %[[B]] : tensor<i32>
  %0 = "stablehlo.while"(%n) ({
  ^bb0(%a: tensor<i32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    "stablehlo.return"(%t) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>):
    %1 = stablehlo.while(%b = %a) : tensor<i32>
    cond {
      %f = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %f : tensor<i1>
    } do {
      stablehlo.return %b : tensor<i32>
    }
    "stablehlo.return"(%1) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @while_no_operands
func.func @while_no_operands() {
  // CHECK: stablehlo.while()
  // CHECK-NEXT: cond {
  // CHECK: } do {
  // CHECK-NEXT: stablehlo.return{{$}}
  stablehlo.while()
  cond {
    %f = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %f : tensor<i1>
  } do {
    stablehlo.return
  }
  func.return
}

// CHECK-LABEL: func.func @case
func.func @case(%index: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: "stablehlo.case"(%{{.*}}) ({
  // CHECK-NEXT: stablehlo.abs
  // CHECK-NEXT: stablehlo.return %{{.*}} : tensor<4xf32>
  // CHECK-NEXT: }, {
  // CHECK-NEXT: stablehlo.return %{{.*}} : tensor<4xf32>
  // CHECK-NEXT: }) : (tensor<i32>) -> tensor<4xf32>
  %0 = "stablehlo.case"(%index) ({
    %1 = stablehlo.abs %x : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  // CHECK: "stablehlo.case"(%{{.*}}) ({
  // CHECK-NEXT: stablehlo.return{{$}}
  // CHECK-NEXT: }) : (tensor<i32>) -> ()
  "stablehlo.case"(%index) ({
    stablehlo.return
  }) : (tensor<i32>) -> ()
  func.return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @optimization_barrier
func.func @optimization_barrier(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x16xf32> {
  // CHECK: %[[R:.*]], %{{.*}}, %{{.*}} = stablehlo.optimization_barrier %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x16xf32>
  %0:3 = stablehlo.optimization_barrier %a, %b, %a : tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x16xf32>
  // CHECK: stablehlo.optimization_barrier {tag} %{{.*}} : tensor<8x16xf32>
  %1 = stablehlo.optimization_barrier {tag} %0#0 : tensor<8x16xf32>
  // CHECK: stablehlo.optimization_barrier(){{$}}
  stablehlo.optimization_barrier()
  // CHECK: func.return %[[R]] : tensor<8x16xf32>
  func.return %0#0 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @composite
func.func @composite(%arg0: tensor<256x1024xf32>) -> tensor<256x8xi32> {
  // CHECK: stablehlo.composite "chlo.top_k" %{{.*}} {composite_attributes = {k = 8 : i64}, decomposition = @chlo.top_k.impl, version = 1 : i32} : (tensor<256x1024xf32>) -> (tensor<256x8xf32>, tensor<256x8xi32>)
  %85:2 = stablehlo.composite "chlo.top_k" %arg0 {composite_attributes = {k = 8 : i64}, decomposition = @chlo.top_k.impl, version = 1 : i32} : (tensor<256x1024xf32>) -> (tensor<256x8xf32>, tensor<256x8xi32>)
  // CHECK: stablehlo.composite "my.op" %{{.*}} {decomposition = @my.op.impl, tag} : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %1 = stablehlo.composite "my.op" %arg0 {tag, decomposition = @my.op.impl} : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
  func.return %85#1 : tensor<256x8xi32>
}

// GENERIC-LABEL: "func.func"() <{sym_name = "composite"
// GENERIC: "stablehlo.composite"(%{{.*}}) <{name = "chlo.top_k", composite_attributes = {k = 8 : i64}, decomposition = @chlo.top_k.impl, version = 1 : i32}> : (tensor<256x1024xf32>) -> (tensor<256x8xf32>, tensor<256x8xi32>)
// GENERIC: "stablehlo.composite"(%{{.*}}) <{name = "my.op", decomposition = @my.op.impl}> {tag} : (tensor<256x1024xf32>) -> tensor<256x1024xf32>

func.func private @chlo.top_k.impl(%arg0: tensor<256x1024xf32>) -> (tensor<256x8xf32>, tensor<256x8xi32>) {
  %0 = stablehlo.slice %arg0 [0:256, 0:8] : (tensor<256x1024xf32>) -> tensor<256x8xf32>
  %1 = stablehlo.iota dim = 1 : tensor<256x8xi32>
  func.return %0, %1 : tensor<256x8xf32>, tensor<256x8xi32>
}

func.func private @my.op.impl(%arg0: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  func.return %arg0 : tensor<256x1024xf32>
}

// custom_call keeps every attribute, properties and discardable ones alike.

// CHECK-LABEL: func.func @custom_call
func.func @custom_call(%3: tensor<4x4xf32>, %d: tensor<i32>) -> tensor<4x4xf32> {
  // CHECK: %[[L:.*]], %{{.*}} = stablehlo.custom_call @lapack_spotrf_ffi(%{{.*}}) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  %4:2 = stablehlo.custom_call @lapack_spotrf_ffi(%3) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  %c = stablehlo.constant dense<1> : tensor<i32>
  %1 = stablehlo.compare GE, %d, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  // CHECK: stablehlo.custom_call @shape_assertion(%{{.*}}, %{{.*}}) {api_version = 2 : i32, error_message = "Expected value >= 1 for dimension variable 'b'.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  stablehlo.custom_call @shape_assertion(%1, %d) {api_version = 2 : i32, error_message = "Expected value >= 1 for dimension variable 'b'.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  // CHECK: stablehlo.custom_call @"odd target"() {api_version = 4 : i32, backend_config = {x = 1 : i64}, called_computations = [@custom_call]} : () -> tensor<i32>
  %2 = stablehlo.custom_call @"odd target"() {backend_config = {x = 1 : i64}, called_computations = [@custom_call], api_version = 4 : i32} : () -> tensor<i32>
  // CHECK: func.return %[[L]] : tensor<4x4xf32>
  func.return %4#0 : tensor<4x4xf32>
}

// GENERIC-LABEL: "func.func"() <{sym_name = "custom_call"
// GENERIC: "stablehlo.custom_call"(%{{.*}}) <{call_target_name = "lapack_spotrf_ffi", backend_config = "", operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [{{.*}}], result_layouts = [{{.*}}]}> {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
// GENERIC: "stablehlo.custom_call"(%{{.*}}, %{{.*}}) <{call_target_name = "shape_assertion", api_version = 2 : i32, has_side_effect = true}> {error_message = {{.*}}} : (tensor<i1>, tensor<i32>) -> ()

// CHECK-LABEL: func.func @rng_bit_generator
func.func @rng_bit_generator(%state: tensor<2xui64>, %s3: tensor<3xui64>) -> tensor<10x12xui32> {
  // CHECK: %out_state, %out = stablehlo.rng_bit_generator %{{.*}}, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<10x12xui32>)
  %out_state, %out = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<10x12xui32>)
  // CHECK: stablehlo.rng_bit_generator %{{.*}}, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xf32>)
  %0:2 = stablehlo.rng_bit_generator %out_state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xf32>)
  // CHECK: stablehlo.rng_bit_generator %{{.*}}, algorithm = PHILOX {tag} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<8xui64>)
  %1:2 = stablehlo.rng_bit_generator %s3, algorithm = PHILOX {tag} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<8xui64>)
  func.return %out : tensor<10x12xui32>
}

// GENERIC-LABEL: "func.func"() <{sym_name = "rng_bit_generator"
// GENERIC: "stablehlo.rng_bit_generator"(%{{.*}}) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<10x12xui32>)
