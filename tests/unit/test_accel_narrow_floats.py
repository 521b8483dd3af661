"""bf16 on XA-1: arithmetic in f32 rounded to bf16 after every op
(`widen-floats` in the accel pipeline, its rounding integer code on the
scalar unit), the values moved in their f32 containers, which the DMA's
bf16 mode widens and narrows. The simulator gives the loop evaluator's
bits, special values included."""

from __future__ import annotations

import ml_dtypes
import numpy as np

import xlir
from tests.unit.test_accel_loop_lowering import _program

N = 96
BF16 = f"memref<{N}xbf16>"


def test_bf16_arithmetic_rounds_after_every_op():
    """(x * y + x) / y - 1 and a sum over a row, each op's result rounded
    to bf16 as the evaluator rounds it; infinities, NaN and signed zeros
    among the inputs."""
    kernel = f"""loop.kernel @k(%x: {BF16}, %y: {BF16}, %z: {BF16}, %s: memref<bf16>) {{
  %one = arith.constant 1.0 : bf16
  %zero = arith.constant 0.0 : bf16
  loop.parallel (%i) = (0) to ({N}) step (1) {{
    %a = loop.load %x[%i] : {BF16}
    %b = loop.load %y[%i] : {BF16}
    %p = arith.mulf %a, %b : bf16
    %q = arith.addf %p, %a : bf16
    %r = arith.divf %q, %b : bf16
    %t = arith.subf %r, %one : bf16
    loop.store %t, %z[%i] : {BF16}
  }}
  loop.parallel () = () to () step () {{
    %sum = loop.for %j = 0 to {N} step 1 iter_args(%acc = %zero) -> (bf16) {{
      %v = loop.load %x[%j] : {BF16}
      %n = arith.addf %acc, %v : bf16
      loop.yield %n : bf16
    }}
    loop.store %sum, %s[] : memref<bf16>
  }}
  loop.return
}}"""
    text = _program(kernel, [BF16, BF16], [BF16, "memref<bf16>"])
    rng = np.random.default_rng(7)
    x = rng.standard_normal(N).astype(ml_dtypes.bfloat16)
    y = rng.standard_normal(N).astype(ml_dtypes.bfloat16)
    special = [np.inf, -np.inf, np.nan, -0.0, 0.0, 3.0e38]
    x[: len(special)] = np.array(special, ml_dtypes.bfloat16)
    y[-len(special) :] = np.array(special, ml_dtypes.bfloat16)
    expected = xlir.compile(text, target="interpreter")(x, y)
    got = xlir.compile(text, target="accel")(x, y)
    for index, (have, want) in enumerate(zip(got, expected, strict=True)):
        assert have.dtype == want.dtype == ml_dtypes.bfloat16, index
        nan = np.isnan(want.astype(np.float32))
        np.testing.assert_array_equal(np.isnan(have.astype(np.float32)), nan)
        bits = [np.where(nan, 0, a.view(np.uint16)) for a in (have, want)]
        np.testing.assert_array_equal(*bits, err_msg=f"result {index}")


def test_integers_convert_to_bf16_rounded_once():
    """sitofp and uitofp to bf16 without f64 (`widen-floats{f64=false}`):
    integers past f32's 24 bits, where rounding to f32 first and then to
    bf16 would round twice (2^24 + 2^16 + 1 is a tie in f32, not in bf16),
    the ends of the 32-bit range and random values, signed and unsigned."""
    i32 = f"memref<{N}xi32>"
    kernel = f"""loop.kernel @k(%x: {i32}, %s: {BF16}, %u: {BF16}) {{
  loop.parallel (%i) = (0) to ({N}) step (1) {{
    %a = loop.load %x[%i] : {i32}
    %b = arith.sitofp %a : i32 to bf16
    loop.store %b, %s[%i] : {BF16}
    %c = arith.uitofp %a : i32 to bf16
    loop.store %c, %u[%i] : {BF16}
  }}
  loop.return
}}"""
    text = _program(kernel, [i32], [BF16, BF16])
    base = 2**24 + 2**16
    edges = [0, 1, -1, 255, 256, 257, 2**24 - 1, 2**24, 2**24 + 1, base, base + 1]
    edges += [base - 1, 3 * 2**24 + 2**17, 2**31 - 1, -(2**31), -base - 1, -(2**24) - 1]
    edges += [2**30 + 2**22, 2**30 + 2**22 + 1, 2**30 + 2**22 - 1, 0x0FFFFFFF]
    rng = np.random.default_rng(11)
    x = rng.integers(-(2**31), 2**31, N, dtype=np.int64).astype(np.int32)
    x[: len(edges)] = np.array(edges, np.int64).astype(np.int32)
    x[len(edges) :: 3] = -x[len(edges) :: 3]
    expected = xlir.compile(text, target="interpreter")(x)
    got = xlir.compile(text, target="accel")(x)
    for have, want in zip(got, expected, strict=True):
        np.testing.assert_array_equal(have.view(np.uint16), want.view(np.uint16))
