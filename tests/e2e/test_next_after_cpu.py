"""`chlo.next_after` (jnp.nextafter, jax.random.truncated_normal) gives the
same bits on cpu and the evaluator as C's `nextafter` for f16, f32 and f64:
both directions from either sign, zeros of both signs (equal operands give
`y`), infinities, the largest finite value, subnormals and NaN."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import xlir
from xlir.element_dtypes import ml_dtype_of


def _program(tensor: str) -> str:
    """`chlo.next_after` of two arguments of type `tensor`."""
    return f"""
func.func @main(%x: {tensor}, %y: {tensor}) -> {tensor} {{
  %r = chlo.next_after %x, %y : {tensor}, {tensor} -> {tensor}
  return %r : {tensor}
}}"""


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_next_after_cpu_matches_numpy(dtype):
    finfo = np.finfo(dtype)
    values = [0.0, -0.0, 1.0, -1.0, 3.5, np.inf, -np.inf, np.nan, finfo.max]
    values += [-finfo.max, finfo.smallest_subnormal, -finfo.smallest_subnormal]
    pairs = np.array(list(itertools.product(values, repeat=2)), dtype).T
    x, y = np.ascontiguousarray(pairs[0]), np.ascontiguousarray(pairs[1])
    element = {np.float16: "f16", np.float32: "f32", np.float64: "f64"}[dtype]
    text = _program(f"tensor<{len(x)}x{element}>")
    with np.errstate(over="ignore"):
        want = np.where(x == y, y, np.nextafter(x, y))
    for target in ("interpreter", "cpu"):
        got = xlir.compile(text, target=target)(x, y)
        assert np.array_equal(np.isnan(got), np.isnan(want)), target
        number = ~np.isnan(want)
        unsigned = f"u{np.dtype(dtype).itemsize}"
        np.testing.assert_array_equal(
            got[number].view(unsigned), want[number].view(unsigned), err_msg=target
        )


def _neighbour(values: np.ndarray, x: float, y: float) -> float:
    """C's `nextafter` over the sorted finite `values` of a format: `y`
    when equal, NaN with either NaN, else the next value toward `y` (a
    zero reached with `x`'s sign)."""
    if np.isnan(x) or np.isnan(y):
        return np.nan
    if x == y:
        return y
    at = np.searchsorted(values, x)
    following = values[at + 1] if y > x else values[at - 1]
    return np.copysign(0.0, x) if following == 0 else following


@pytest.mark.parametrize(
    "name", ["f8E4M3FN", "f8E4M3FNUZ", "f8E5M2", "f8E5M2FNUZ", "f8E8M0FNU"]
)
def test_next_after_of_every_float8_pair(name):
    """Every pair of codes of the float8 types with no -0 (FNUZ: stepping
    down from the smallest negative value gave the sign bit alone, their
    NaN) or no zero at all (`f8E8M0FNU`: 0.0 rounded to 2^-127, so from
    2^-127 toward 2 or more came the code of `y`'s top bit, 4), and two
    with IEEE zeros, against C's `nextafter` over the format's values."""
    dtype = ml_dtype_of(name)
    assert dtype is not None
    codes = np.arange(256, dtype=np.uint8)
    x, y = np.repeat(codes, 256).view(dtype), np.tile(codes, 256).view(dtype)
    wide = codes.view(dtype).astype(np.float64)
    values = np.unique(wide[~np.isnan(wide)])
    want = [
        _neighbour(values, a, b)
        for a, b in zip(x.astype(float), y.astype(float), strict=True)
    ]
    got = np.asarray(
        xlir.compile(_program(f"tensor<65536x{name}>"), target="cpu")(x, y), np.float64
    )
    want = np.array(want).astype(dtype).astype(np.float64)  # FNUZ: -0 is +0
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan], want[~nan])
    np.testing.assert_array_equal(np.signbit(got[~nan]), np.signbit(want[~nan]))
