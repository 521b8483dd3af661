// RUN: xlir-opt %s -p 'refine-shapes{types="tensor<3x16xf32>,tensor<16x8xf32>"}' | filecheck %s

// JAX's export of `tanh(x @ w)` with x of shape (b, 16): the dimension
// variable is read with get_dimension_size, asserted to be >= 1 and passed
// to the wrapped function as a `jax.global_constant` argument. Refined, the
// assertion holds and goes, and every type is static.

// CHECK-LABEL: builtin.module @jit_dot
// CHECK-SAME:    jax.uses_shape_polymorphism = false
// CHECK:         func.func public @main(%arg0: tensor<3x16xf32>, %arg1: tensor<16x8xf32>) -> (tensor<3x8xf32> {jax.result_info = "result"})
// CHECK-NEXT:      %[[B:.*]] = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %[[R:.*]] = func.call @_wrapped(%[[B]], %arg0, %arg1) : (tensor<i32>, tensor<3x16xf32>, tensor<16x8xf32>) -> tensor<3x8xf32>
// CHECK-NEXT:      func.return %[[R]] : tensor<3x8xf32>
// CHECK:         func.func private @_wrapped(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<3x16xf32>, %arg2: tensor<16x8xf32>) -> tensor<3x8xf32>
// CHECK-NEXT:      stablehlo.dot_general %arg1, %arg2, contracting_dims = [1] x [0] : (tensor<3x16xf32>, tensor<16x8xf32>) -> tensor<3x8xf32>
// CHECK-NEXT:      stablehlo.tanh %{{.*}} : tensor<3x8xf32>
// CHECK-NOT:     shape_assertion
module @jit_dot attributes {jax.uses_shape_polymorphism = true} {
  func.func public @main(%arg0: tensor<?x16xf32>, %arg1: tensor<16x8xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Expected value >= 1 for dimension variable 'b'", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped(%0, %arg0, %arg1) : (tensor<i32>, tensor<?x16xf32>, tensor<16x8xf32>) -> tensor<?x8xf32>
    return %2 : tensor<?x8xf32>
  }
  func.func private @_wrapped(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x16xf32>, %arg2: tensor<16x8xf32>) -> tensor<?x8xf32> {
    %0 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [1] x [0] : (tensor<?x16xf32>, tensor<16x8xf32>) -> tensor<?x8xf32>
    %1 = stablehlo.tanh %0 : tensor<?x8xf32>
    return %1 : tensor<?x8xf32>
  }
}

