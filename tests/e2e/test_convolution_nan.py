"""A convolution's product of an infinity and a zero is NaN, in the evaluator
as on every target: one-element contractions (one input feature per group,
a one-tap window) once went through np.dot, whose BLAS scaling by a zero
skips the products (found by the fuzzer's convolutions)."""

from __future__ import annotations

import numpy as np
import pytest

import xlir
from tests.conftest import runnable_targets


def one_tap(features: int) -> str:
    """A 1-tap convolution of `features` features in as many groups."""
    lhs = f"tensor<1x3x{features}xf32>"
    rhs = f"tensor<1x1x{features}xf32>"
    return f"""
func.func @main(%x: {lhs}, %w: {rhs}) -> {lhs} {{
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {{stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]}} {{batch_group_count = 1 : i64, feature_group_count = {features} : i64}} : ({lhs}, {rhs}) -> {lhs}
  return %c : {lhs}
}}"""


@pytest.mark.parametrize("features", [1, 2])
def test_infinity_times_zero_is_nan(features: int):
    x = np.ones((1, 3, features), np.float32)
    x[0, :, 0] = [np.inf, 2.0, -np.inf]
    w = np.ones((1, 1, features), np.float32)
    w[0, 0, 0] = -0.0
    with np.errstate(invalid="ignore"):
        want = x * w  # one tap, one input feature per output feature
    assert np.isnan(want[0, :, 0]).tolist() == [True, False, True]
    text = one_tap(features)
    got = xlir.compile(text, pipeline="")(x, w)
    np.testing.assert_array_equal(got, want, err_msg="evaluator")
    for target in runnable_targets():
        got = xlir.compile(text, target=target)(x, w)
        np.testing.assert_array_equal(got, want, err_msg=target)
