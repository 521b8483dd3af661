"""`chlo.next_after` (jnp.nextafter, jax.random.truncated_normal) gives the
same bits on cpu and the evaluator as C's `nextafter` for f16, f32 and f64:
both directions from either sign, zeros of both signs (equal operands give
`y`), infinities, the largest finite value, subnormals and NaN."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import xlir


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_next_after_cpu_matches_numpy(dtype):
    finfo = np.finfo(dtype)
    values = [0.0, -0.0, 1.0, -1.0, 3.5, np.inf, -np.inf, np.nan, finfo.max]
    values += [-finfo.max, finfo.smallest_subnormal, -finfo.smallest_subnormal]
    pairs = np.array(list(itertools.product(values, repeat=2)), dtype).T
    x, y = np.ascontiguousarray(pairs[0]), np.ascontiguousarray(pairs[1])
    element = {np.float16: "f16", np.float32: "f32", np.float64: "f64"}[dtype]
    tensor = f"tensor<{len(x)}x{element}>"
    text = f"""
func.func @main(%x: {tensor}, %y: {tensor}) -> {tensor} {{
  %r = chlo.next_after %x, %y : {tensor}, {tensor} -> {tensor}
  return %r : {tensor}
}}"""
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
