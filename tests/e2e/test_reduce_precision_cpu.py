"""`reduce_precision` on cpu gives the evaluator's bits for every format
(fewer exponent bits, fewer mantissa bits, both, none left) of f16, f32 and
f64: ties to even, overflow to infinity, underflow to signed zero, NaN
kept."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.5, 2.5, 3.5, 1e-3]
FORMATS = [(5, 10), (8, 7), (4, 3), (2, 1), (1, 0), (8, 23), (11, 52)]


@pytest.mark.parametrize("element", ["f16", "f32", "f64"])
@pytest.mark.parametrize("exponent_bits, mantissa_bits", FORMATS)
def test_reduce_precision_cpu_matches_evaluator(
    element: str, exponent_bits: int, mantissa_bits: int
):
    dtype = np.dtype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[element])
    rng = np.random.default_rng(exponent_bits * 100 + mantissa_bits)
    finfo = np.finfo(dtype)
    x = np.concatenate(
        [
            np.array(SPECIALS, dtype),
            np.array([finfo.max, -finfo.max, finfo.tiny, finfo.smallest_subnormal]),
            rng.standard_normal(32) * np.exp2(rng.integers(-30, 30, 32)),
        ]
    ).astype(dtype)
    size = len(x)
    text = f"""
func.func @main(%x: tensor<{size}x{element}>) -> tensor<{size}x{element}> {{
  %r = stablehlo.reduce_precision %x, format = e{exponent_bits}m{mantissa_bits} : tensor<{size}x{element}>
  return %r : tensor<{size}x{element}>
}}"""
    want = xlir.compile(text, target="interpreter")(x)
    got = xlir.compile(text, target="cpu")(x)
    unsigned = f"u{dtype.itemsize}"
    np.testing.assert_array_equal(got.view(unsigned), want.view(unsigned))
