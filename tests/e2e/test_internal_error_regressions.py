"""Programs that stopped the cpu target with an internal error (issue 29,
defect 9) now run on every registered target, with the reference's numbers,
or end in a located diagnostic where there is nothing to compute."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.registry import get_target, target_names

import xlir
from xlir.diagnostics import XlirError
from xlir.testing.differential import REFERENCE

COMPILING_TARGETS = [n for n in target_names() if get_target(n).llvm_backend()]
"""The targets that compile to machine code (through the loop level)."""

WHILE_SWAPPING_CARRIED_VALUES = """
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xi32>)
    -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %zero, %x = %a, %y = %b, %z = %c)
      : tensor<i32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
  cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %z, %x, %y : tensor<i32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
  }
  return %r#1, %r#2, %r#3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
"""
"""A while body returning its carried values rotated, as JAX's threefry
swaps its rotation tables each round (`jax.random`): copied back in order,
a value was overwritten before it was read."""

CONSTANTS_OF_TWO_SIZES = """
func.func @main() -> (tensor<2xi32>, tensor<4xi32>) {
  %0 = stablehlo.constant dense<[5, 6]> : tensor<2xi32>
  %1 = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  return %0, %1 : tensor<2xi32>, tensor<4xi32>
}
"""
"""Two copies out of globals of different sizes: LLVM's memcpy was declared
with the first global's type (llvmlite: `Type of #2 arg mismatch`)."""

LARGE_CONVERTS = """
func.func @main(%x: tensor<4xf64>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xui8>, tensor<4xi64>) {
  %scale = stablehlo.constant dense<3.0e10> : tensor<4xf64>
  %big = stablehlo.multiply %x, %scale : tensor<4xf64>
  %0 = stablehlo.convert %big : (tensor<4xf64>) -> tensor<4xi32>
  %c = stablehlo.constant dense<[3.0e10, -3.0e10, 0x7FF8000000000000, 0x7FF0000000000000]> : tensor<4xf64>
  %1 = stablehlo.convert %c : (tensor<4xf64>) -> tensor<4xi32>
  %2 = stablehlo.convert %big : (tensor<4xf64>) -> tensor<4xui8>
  %3 = stablehlo.convert %c : (tensor<4xf64>) -> tensor<4xi64>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xui8>, tensor<4xi64>
}
"""
"""f64 -> integer converts out of range saturate, NaN gives 0 (XLA's
choice): the cpu lowering's bound for f64 raised OverflowError."""

DOT_TO_I8 = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x1xf32>) -> tensor<2x1xi8> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x1xf32>) -> tensor<2x1xi8>
  return %0 : tensor<2x1xi8>
}
"""

CONVOLUTION_TO_I8 = """
func.func @main(%a: tensor<1x3x4xf32>, %w: tensor<1x3x2xf32>) -> tensor<1x1x3xi8> {
  %0 = stablehlo.convolution(%a, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x4xf32>, tensor<1x3x2xf32>) -> tensor<1x1x3xi8>
  return %0 : tensor<1x1x3xi8>
}
"""

SORT_WITH_OUTER_CONSTANT = """
func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %isz = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %key = stablehlo.select %isz, %zero, %a : tensor<i1>, tensor<f32>
    %lt = stablehlo.compare LT, %key, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
"""
"""A comparator using a constant of the function (where CSE puts the
comparator's `0.0` when the function has one too): a KeyError in
hlo-to-loop."""


REDUCER_USING_A_CONSTANT_OF_ITS_BRANCH = """
func.func @main(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<f32> {
  %r = "stablehlo.case"(%i) ({
    %inf = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %cap = stablehlo.constant dense<2.0> : tensor<f32>
    %a = stablehlo.abs %x : tensor<4xf32>
    %s = stablehlo.reduce(%a init: %inf) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
     reducer(%acc: tensor<f32>, %e: tensor<f32>) {
      %p = stablehlo.minimum %e, %cap : tensor<f32>
      %q = stablehlo.minimum %acc, %p : tensor<f32>
      stablehlo.return %q : tensor<f32>
    }
    stablehlo.return %s : tensor<f32>
  }, {
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %one : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}
"""
"""A reducer (associative: a minimum capped by a constant) using a
constant of the case branch around it, which `fuse` passes to the fusion as
an operand: the cpu lowering had no scalar for it."""


def _run(text: str, target: str, *args: np.ndarray) -> list[np.ndarray]:
    result = xlir.compile(text, target=target)(*args)
    return [np.asarray(r) for r in (result if isinstance(result, tuple) else (result,))]


def _same_on_every_target(text: str, *args: np.ndarray) -> list[np.ndarray]:
    """The reference's outputs, after checking that every target gives the
    same bits."""
    reference = _run(text, REFERENCE, *args)
    for target in set(target_names()) - {REFERENCE}:
        outputs = _run(text, target, *args)
        for want, got in zip(reference, outputs, strict=True):
            assert want.dtype == got.dtype, target
            np.testing.assert_array_equal(got, want, err_msg=target)
    return reference


def test_while_with_rotated_carried_values() -> None:
    a, b, c = (np.arange(4, dtype=np.int32) + 10 * k for k in range(3))
    outputs = _same_on_every_target(WHILE_SWAPPING_CARRIED_VALUES, a, b, c)
    # four rotations of three values: each is back one place on
    for got, want in zip(outputs, (c, a, b), strict=True):
        np.testing.assert_array_equal(got, want)


def test_constants_of_two_sizes_returned() -> None:
    first, second = _same_on_every_target(CONSTANTS_OF_TWO_SIZES)
    np.testing.assert_array_equal(first, [5, 6])
    np.testing.assert_array_equal(second, [1, 2, 3, 4])


def test_float_to_int_converts_saturate() -> None:
    x = np.array([1.0, -1.0, 0.5, 2.0])
    big, constant, small, wide = _same_on_every_target(LARGE_CONVERTS, x)
    i32 = np.iinfo(np.int32)
    np.testing.assert_array_equal(big, [i32.max, i32.min, i32.max, i32.max])
    np.testing.assert_array_equal(constant, [i32.max, i32.min, 0, i32.max])
    np.testing.assert_array_equal(small, [255, 0, 255, 255])
    np.testing.assert_array_equal(wide, [30_000_000_000, -30_000_000_000, 0, 2**63 - 1])


@pytest.mark.parametrize("target", target_names())
def test_constant_converts_fold_to_the_same_values(target: str) -> None:
    folded = _run(LARGE_CONVERTS, target, np.zeros(4))
    unfolded = xlir.compile(LARGE_CONVERTS, target=REFERENCE, pipeline="")
    for got, want in zip(folded, unfolded(np.zeros(4)), strict=True):
        np.testing.assert_array_equal(got, want)


def test_dot_general_of_floats_to_i8_sums_then_converts() -> None:
    a = np.array([[1.5, 1.5, 1.5], [100.0, 100.0, 0.7]], np.float32)
    (result,) = _same_on_every_target(DOT_TO_I8, a, np.ones((3, 1), np.float32))
    np.testing.assert_array_equal(result, [[4], [127]])  # XLA:CPU's numbers


def test_convolution_of_floats_to_i8_sums_then_converts() -> None:
    a = np.array([[[1.5, 30.0, -40.0, 0.2]] * 3], np.float32)
    (result,) = _same_on_every_target(
        CONVOLUTION_TO_I8, a, np.ones((1, 3, 2), np.float32)
    )
    np.testing.assert_array_equal(result, [[[94, -30, -119]]])


def test_sort_comparator_using_a_constant_of_the_function() -> None:
    x = np.array([3.0, -0.0, 1.0, 0.0, -2.0], np.float32)
    (result,) = _same_on_every_target(SORT_WITH_OUTER_CONSTANT, x)
    np.testing.assert_array_equal(result, np.sort(x))


def test_reducer_using_a_constant_of_its_branch() -> None:
    x = np.array([-3.0, 2.5, -4.0, 7.0], np.float32)
    (result,) = _same_on_every_target(
        REDUCER_USING_A_CONSTANT_OF_ITS_BRANCH, np.int32(0), x
    )
    assert result == np.float32(2.0)  # the smallest |x|, capped at 2


@pytest.mark.parametrize("target", COMPILING_TARGETS)
def test_comparator_using_an_outer_value_is_a_located_diagnostic(target: str) -> None:
    text = SORT_WITH_OUTER_CONSTANT.replace(
        "%x: tensor<5xf32>) -> tensor<5xf32> {\n  %zero = stablehlo.constant dense<0.0> : tensor<f32>",
        "%x: tensor<5xf32>, %zero: tensor<f32>) -> tensor<5xf32> {",
    )
    with pytest.raises(
        XlirError,
        match=r":5:5: error: 'stablehlo.compare' uses a value defined outside",
    ):
        xlir.compile(text, target=target)


@pytest.mark.parametrize("target", target_names())
def test_nested_module_is_a_located_diagnostic(target: str) -> None:
    text = """module {
  module @inner {
    func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
      return %a : tensor<4xf32>
    }
  }
}
"""
    with pytest.raises(
        XlirError, match=r":2:3: error: a nested 'builtin.module' cannot be compiled"
    ):
        xlir.compile(text, target=target)


def test_jax_random_dropout_matches_jax() -> None:
    """Dropout with `jax.random` (threefry in a while loop that swaps its
    carried rotation tables, constants copied out of globals of two sizes)
    gives JAX's mask on every target."""
    jax = pytest.importorskip("jax")

    def dropout(x):
        keep = jax.random.bernoulli(jax.random.PRNGKey(0), 0.5, x.shape)
        return jax.numpy.where(keep, x / 0.5, 0.0)

    x = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)
    text = jax.jit(dropout).lower(x).as_text()
    (result,) = _same_on_every_target(text, x)
    np.testing.assert_array_equal(result, np.asarray(jax.jit(dropout)(x)))
