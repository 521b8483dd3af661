"""Integer dots that the cpu target computes on f32 operands
(`passes/hlo/int_dot_in_f32.py`) give the integer dot's result bit for bit,
at the largest sums the rewrite allows (every product -128 * -128 over 1024
terms: 2^24) and with mixed signs and signedness; dots past the limit stay
integer and are exact too."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

PROGRAM = """
func.func @main(%a: tensor<16x{k}x{lhs}>, %b: tensor<{k}x48x{rhs}>) -> tensor<16x48x{out}> {{
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x{k}x{lhs}>, tensor<{k}x48x{rhs}>) -> tensor<16x48x{out}>
  return %d : tensor<16x48x{out}>
}}"""

DTYPES = {"i8": np.int8, "ui8": np.uint8, "i32": np.int32, "i64": np.int64}


def _exact(a: np.ndarray, b: np.ndarray, out: str) -> np.ndarray:
    return (a.astype(np.int64) @ b.astype(np.int64)).astype(DTYPES[out])


@pytest.mark.parametrize("k", [1024, 1025])
def test_extreme_int8_sums(k: int):
    """All -128: each product 2^14, the sum 2^24 (1024) or past it (1025)."""
    text = PROGRAM.format(k=k, lhs="i8", rhs="i8", out="i32")
    a = np.full((16, k), -128, np.int8)
    b = np.full((k, 48), -128, np.int8)
    b[:, 1] = 127
    got = xlir.compile(text, target="cpu")(a, b)
    np.testing.assert_array_equal(got, _exact(a, b, "i32"))


@pytest.mark.parametrize(
    ("lhs", "rhs", "out", "k"),
    [("i8", "i8", "i32", 1000), ("i8", "ui8", "i64", 512), ("ui8", "ui8", "i32", 258)],
)
def test_random_narrow_dots(lhs: str, rhs: str, out: str, k: int):
    text = PROGRAM.format(k=k, lhs=lhs, rhs=rhs, out=out)
    rng = np.random.default_rng(7)

    def draw(name: str, shape: tuple[int, int]) -> np.ndarray:
        info = np.iinfo(DTYPES[name])
        return rng.integers(info.min, info.max, shape, endpoint=True).astype(
            DTYPES[name]
        )

    a, b = draw(lhs, (16, k)), draw(rhs, (k, 48))
    got = xlir.compile(text, target="cpu")(a, b)
    np.testing.assert_array_equal(got, _exact(a, b, out))
