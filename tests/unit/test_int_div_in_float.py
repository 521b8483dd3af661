"""`int-div-in-float` (passes/loop/int_div_in_float.py): integer quotients and
remainders through float division, bit for bit the integer ones, on the
values where a float quotient is closest to rounding across an integer."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.passes.loop.int_div_in_float import known

import xlir

PROGRAM = """
func.func public @main(%a: tensor<{n}x{t}>, %b: tensor<{n}x{t}>) -> (tensor<{n}x{t}>, tensor<{n}x{t}>) {{
  %q = stablehlo.divide %a, %b : tensor<{n}x{t}>
  %r = stablehlo.remainder %a, %b : tensor<{n}x{t}>
  return %q, %r : tensor<{n}x{t}>, tensor<{n}x{t}>
}}
"""


def hard_pairs(
    dtype: np.dtype, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Dividends next to multiples of the divisor at the ends of the range
    (a = q b - 1: the quotient just below an integer), the extremes, zero
    divisors (hlo-to-loop's guard) and random pairs."""
    info = np.iinfo(dtype)
    divisors = [1, -1, 2, 3, 7, 255, 65535, 46341, info.max, info.min, 0]
    a, b = [], []
    for d in divisors:
        if d < info.min or d > info.max:
            continue
        for base in (info.max, info.min, info.max // 3, 0):
            if d not in (0,):
                q = base // d
                for delta in (-1, 0, 1):
                    a.append(q * d + delta)
                    b.append(d)
            a.append(base)
            b.append(d)
    big = rng.integers(info.min, info.max, 4096, dtype=np.int64, endpoint=True)
    small = rng.integers(-300, 300, 4096, dtype=np.int64)
    a += list(big) + list(big)
    b += list(small) + list(rng.integers(info.min, info.max, 4096, endpoint=True))
    a64 = np.clip(np.array(a, np.int64), info.min, info.max)
    b64 = np.clip(np.array(b, np.int64), info.min, info.max)
    return a64.astype(dtype), b64.astype(dtype)


@pytest.mark.parametrize(
    ("type_", "dtype"), [("i32", np.int32), ("ui32", np.uint32), ("i16", np.int16)]
)
def test_cpu_quotients_are_the_interpreters(type_: str, dtype: type) -> None:
    a, b = hard_pairs(np.dtype(dtype), np.random.default_rng(0))
    text = PROGRAM.format(n=a.size, t=type_)
    cpu = xlir.compile(text, target="cpu")
    assert "arith.divf" in cpu.as_text() or "fdiv" in cpu.llvm_ir
    want = xlir.compile(text, target="interpreter")(a, b)
    got = cpu(a, b)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_known_sees_through_the_zero_divisor_guard() -> None:
    """hlo-to-loop's guard of a constant divisor comes to the constant, so
    that division is left for LLVM's multiply; a guard of an unknown divisor
    does not."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerAttr, i1, i32
    from xdsl.ir import Block

    block = Block(arg_types=[i1, i32])
    flag, loaded = block.args
    seven = arith.ConstantOp(IntegerAttr(7, i32))
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    one = arith.ConstantOp(IntegerAttr(1, i32))
    minus_one = arith.ConstantOp(IntegerAttr(-1, i32))
    is_zero = arith.CmpiOp(seven, zero, "eq")
    overflow = arith.AndIOp(flag, arith.CmpiOp(seven, minus_one, "eq"))
    guarded = arith.SelectOp(arith.OrIOp(is_zero, overflow), one, seven)
    assert known(guarded.result) == 7
    assert known(arith.SelectOp(flag, one, seven).result) is None
    assert (
        known(arith.SelectOp(arith.CmpiOp(loaded, zero, "eq"), one, loaded).result)
        is None
    )
    assert known(arith.CmpiOp(minus_one, one, "ugt").result) == 1
    assert known(arith.CmpiOp(minus_one, one, "sgt").result) == 0
