"""f16 on XA-1 (`targets/accel/half_floats.py`): an f32 rounded to f16 on
the simulator is numpy's f32 -> f16 -> f32, bit for bit (any NaN for a
NaN), on every class of edge value and on random bit patterns; and f16
arithmetic rounds after each op, as the loop evaluator's."""

from __future__ import annotations

import numpy as np

import xlir
from tests.unit.test_accel_loop_lowering import _program


def _round_trip(count: int) -> str:
    """A kernel that rounds each f32 to f16 and back (`truncf`, `extf`), on
    the vector lanes and, past a multiple of 16, the scalar remainder."""
    f32 = f"memref<{count}xf32>"
    kernel = f"""loop.kernel @k(%x: {f32}, %y: {f32}) {{
  loop.parallel (%i) = (0) to ({count}) step (1) {{
    %a = loop.load %x[%i] : {f32}
    %h = arith.truncf %a : f32 to f16
    %b = arith.extf %h : f16 to f32
    loop.store %b, %y[%i] : {f32}
  }}
  loop.return
}}"""
    return _program(kernel, [f32], [f32])


def _edge_patterns() -> np.ndarray:
    """Bit patterns of every class where rounding to f16 can go wrong:
    zeros, f32 subnormals, f16's subnormal range and its boundary with the
    normal range, ties to even and their neighbours at several exponents,
    the overflow threshold 65520 and its neighbours, the largest f32,
    infinities and NaNs (quiet, signalling, with payloads), both signs."""
    f32 = np.float32
    values = [0.0, 2.0**-149, 2.0**-126, 2.0**-126 * 0.75, 1.0, 1.5, 3.0e38]
    values += [2.0**e for e in range(-30, 17)]
    values += [65504.0, 65519.0, 65520.0, 65536.0, 2.0**-24, 2.0**-25, 2.0**-14]
    bits = [int(np.array(v, f32).view(np.uint32)) for v in values]
    # ties (half an f16 ulp past a value) with even and odd f16 mantissas,
    # at normal exponents and in f16's subnormal range, and their neighbours
    for exponent in (-26, -25, -24, -20, -15, -14, -13, -1, 0, 7, 15):
        unit = 2.0**exponent
        for mantissa in (0, 1, 2, 3, 0x3FE, 0x3FF):
            value = unit * (1 + mantissa / 1024) + unit / 2048
            base = int(np.array(value, f32).view(np.uint32))
            bits += [base - 1, base, base + 1]
    bits += [0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF, 0x7FA00000]
    bits += [0x477FEFFF, 0x477FF000, 0x477FF001, 0x33000000, 0x33000001, 0x32FFFFFF]
    patterns = np.array(bits, np.uint32)
    return np.concatenate([patterns, patterns | np.uint32(0x80000000)])


def _check(patterns: np.ndarray) -> None:
    x = patterns.view(np.float32)
    got = xlir.compile(_round_trip(len(x)), target="accel")(x)
    with np.errstate(over="ignore"):
        want = x.astype(np.float16).astype(np.float32)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(
        got.view(np.uint32)[~nan], want.view(np.uint32)[~nan], err_msg="bits"
    )


def test_edge_classes_round_as_numpy() -> None:
    _check(_edge_patterns())


def test_random_patterns_round_as_numpy() -> None:
    """Two million random f32 bit patterns, and as many random values in
    f16's range (where most patterns are not: those round to 0 or inf)."""
    rng = np.random.default_rng(16)
    patterns = rng.integers(0, 2**32, 2**20, dtype=np.uint32)
    near = rng.uniform(-70000.0, 70000.0, 2**20) * 2.0 ** rng.integers(-30, 1, 2**20)
    near_bits = near.astype(np.float32).view(np.uint32)
    _check(np.concatenate([patterns, near_bits]))


def test_f16_arithmetic_rounds_after_every_op() -> None:
    """(x * y + x) / y - 1 in f16 (`widen-floats`: f32 ops, each rounded)
    gives the loop evaluator's bits, infinities, NaN and subnormals among
    the inputs."""
    n = 50
    f16 = f"memref<{n}xf16>"
    kernel = f"""loop.kernel @k(%x: {f16}, %y: {f16}, %z: {f16}) {{
  %one = arith.constant 1.0 : f16
  loop.parallel (%i) = (0) to ({n}) step (1) {{
    %a = loop.load %x[%i] : {f16}
    %b = loop.load %y[%i] : {f16}
    %p = arith.mulf %a, %b : f16
    %q = arith.addf %p, %a : f16
    %r = arith.divf %q, %b : f16
    %t = arith.subf %r, %one : f16
    loop.store %t, %z[%i] : {f16}
  }}
  loop.return
}}"""
    text = _program(kernel, [f16, f16], [f16])
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(n) * 300).astype(np.float16)
    y = rng.standard_normal(n).astype(np.float16)
    special = [np.inf, -np.inf, np.nan, -0.0, 6.0e-8, 65504.0, 1.0e-5]
    x[: len(special)] = special
    y[-len(special) :] = special
    want = xlir.compile(text, target="interpreter")(x, y)
    got = xlir.compile(text, target="accel")(x, y)
    assert got.dtype == want.dtype == np.float16
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got.view(np.uint16)[~nan], want.view(np.uint16)[~nan])
