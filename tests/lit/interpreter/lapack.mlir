// RUN: xlir-run --check --split-input-file %s | filecheck %s

// The LAPACK custom calls JAX emits for jnp.linalg on CPU, spelt as JAX
// prints them (flags as ASCII codes in mhlo.backend_config, Shardy's
// sharding rule kept as an opaque attribute), on the evaluator.

// CHECK: PASS @potrf_and_info
func.func @potrf_and_info() {
  %a = stablehlo.constant dense<[[[4.0, 12.0, -16.0], [12.0, 37.0, -43.0], [-16.0, -43.0, 98.0]], [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0]]]> : tensor<2x3x3xf64>
  %r:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i]) {i=2, j=3, k=3, l=3, m=3}, custom>} : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>)
  %first = stablehlo.slice %r#0 [0:1, 0:3, 0:3] : (tensor<2x3x3xf64>) -> tensor<1x3x3xf64>
  // The factor below the diagonal; the upper triangle is the input's.
  check.expect_almost_eq_const %first, dense<[[[2.0, 12.0, -16.0], [6.0, 1.0, -43.0], [-8.0, 5.0, 3.0]]]> : tensor<1x3x3xf64>
  // The second matrix's leading minor of order 2 is not positive definite.
  check.expect_eq_const %r#1, dense<[0, 2]> : tensor<2xi32>
  func.return
}

// -----

// CHECK: PASS @getrf_pivots_and_singular_info
func.func @getrf_pivots_and_singular_info() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %r:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], []) {i=2, j=2, k=2, l=2, m=2}, custom>} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xi32>, tensor<i32>)
  check.expect_almost_eq_const %r#0, dense<[[3.0, 4.0], [0.33333334, 0.6666666]]> : tensor<2x2xf32>
  check.expect_eq_const %r#1, dense<[2, 2]> : tensor<2xi32>
  check.expect_eq_const %r#2, dense<0> : tensor<i32>
  %s = stablehlo.constant dense<[[1.0, 2.0], [2.0, 4.0]]> : tensor<2x2xf32>
  %q:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%s) {mhlo.backend_config = {}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xi32>, tensor<i32>)
  check.expect_eq_const %q#2, dense<2> : tensor<i32>
  func.return
}

// -----

// CHECK: PASS @trsm_right_upper_transposed
func.func @trsm_right_upper_transposed() {
  %a = stablehlo.constant dense<[[2.0, 1.0], [0.0, 4.0]]> : tensor<2x2xf64>
  %b = stablehlo.constant dense<[[4.0, 9.0]]> : tensor<1x2xf64>
  // X A^T = B with A upper: X [[2, 0], [1, 4]] = [2 x0 + x1, 4 x1] = [4, 9].
  %x = stablehlo.custom_call @lapack_dtrsm_ffi(%a, %b) {mhlo.backend_config = {diag = 78 : ui8, side = 82 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<2x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
  check.expect_almost_eq_const %x, dense<[[0.875, 2.25]]> : tensor<1x2xf64>
  func.return
}

// -----

// CHECK: PASS @geqrf_orgqr
func.func @geqrf_orgqr() {
  %a = stablehlo.constant dense<[[3.0, 1.0], [4.0, 2.0]]> : tensor<2x2xf64>
  %r:2 = stablehlo.custom_call @lapack_dgeqrf_ffi(%a) {mhlo.backend_config = {}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xf64>)
  // larfg: beta = -5, tau = 1.6, v = 4 / 8 = 0.5; R = [[-5, -2.2], [0, 0.4]].
  check.expect_almost_eq_const %r#0, dense<[[-5.0, -2.2], [0.5, 0.4]]> : tensor<2x2xf64>
  check.expect_almost_eq_const %r#1, dense<[1.6, 0.0]> : tensor<2xf64>
  %q = stablehlo.custom_call @lapack_dorgqr_ffi(%r#0, %r#1) {mhlo.backend_config = {}} : (tensor<2x2xf64>, tensor<2xf64>) -> tensor<2x2xf64>
  check.expect_almost_eq_const %q, dense<[[-0.6, -0.8], [-0.8, 0.6]]> : tensor<2x2xf64>
  func.return
}

// -----

// CHECK: PASS @syevd_gesdd_values
func.func @syevd_gesdd_values() {
  %a = stablehlo.constant dense<[[2.0, 1.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %e:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<i32>)
  check.expect_almost_eq_const %e#1, dense<[1.0, 3.0]> : tensor<2xf32>
  check.expect_eq_const %e#2, dense<0> : tensor<i32>
  %s:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {mhlo.backend_config = {mode = 65 : ui8}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<i32>)
  check.expect_almost_eq_const %s#1, dense<[3.0, 1.0]> : tensor<2xf32>
  func.return
}
