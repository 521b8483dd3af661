"""JAX's float sort comparators on the cpu target against the interpreter
running no pass, bit for bit, on the values where `simplify`'s rewrite of
the comparator could go wrong (passes/hlo/simplify_patterns/total_order.py):
NaNs of either sign and other payloads, both zeros, infinities, subnormals,
repeats (stability: the indices sorted along must come out in the same
order)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xlir

SPECIAL = [
    np.nan,
    -np.nan,
    0.0,
    -0.0,
    np.inf,
    -np.inf,
    1e-40,
    -1e-40,
    1.0,
    -1.0,
    2.5,
    2.5,
    -7.0,
]

DTYPES = {
    "f32": np.float32,
    "f64": np.float64,
    "bf16": ml_dtypes.bfloat16,
}

NANS = {"f32": "0x7FC00000", "f64": "0x7FF8000000000000", "bf16": "0x7FC0"}
"""The positive quiet NaN JAX canonicalizes to."""

ODD_NANS = {
    "f32": (np.uint32, 0xFFC00123),
    "f64": (np.uint64, 0xFFF8000000000123),
    "bf16": (np.uint16, 0xFFC0),
}
"""A negative quiet NaN, with a payload where the interpreter keeps one (it
holds bf16 in float32 and gives a bf16 NaN back without its payload)."""


def program(element: str, direction: str, nan: str, rows: int, length: int) -> str:
    """An argsort as JAX writes it: both sides canonicalized (-0 as +0,
    every NaN as `nan`), then a total-order compare."""
    value, shape = f"tensor<{element}>", f"{rows}x{length}"

    def canonical(x: str, n: int) -> str:
        return f"""
    %eq{n} = stablehlo.compare EQ, {x}, %zero, FLOAT : ({value}, {value}) -> tensor<i1>
    %z{n} = stablehlo.select %eq{n}, %zero, {x} : tensor<i1>, {value}
    %ne{n} = stablehlo.compare NE, {x}, {x}, FLOAT : ({value}, {value}) -> tensor<i1>
    %c{n} = stablehlo.select %ne{n}, %nan, %z{n} : tensor<i1>, {value}"""

    return f"""func.func @main(%x: tensor<{shape}x{element}>) -> (tensor<{shape}x{element}>, tensor<{shape}xi32>) {{
  %iota = stablehlo.iota dim = 1 : tensor<{shape}xi32>
  %r:2 = "stablehlo.sort"(%x, %iota) <{{dimension = 1 : i64, is_stable = true}}> ({{
  ^bb0(%a: {value}, %b: {value}, %i: tensor<i32>, %j: tensor<i32>):
    %zero = stablehlo.constant dense<0.0> : {value}
    %nan = stablehlo.constant dense<{nan}> : {value}{canonical("%a", 0)}{canonical("%b", 1)}
    %lt = stablehlo.compare {direction}, %c0, %c1, TOTALORDER : ({value}, {value}) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }}) : (tensor<{shape}x{element}>, tensor<{shape}xi32>) -> (tensor<{shape}x{element}>, tensor<{shape}xi32>)
  return %r#0, %r#1 : tensor<{shape}x{element}>, tensor<{shape}xi32>
}}
"""


def inputs(element: str, rows: int, length: int) -> np.ndarray:
    """Special and random values, and a negative NaN with a payload (which
    the canonicalization makes the positive one)."""
    rng = np.random.default_rng(7)
    picked = rng.choice(np.array(SPECIAL, dtype=np.float64), size=(rows, length))
    noise = rng.standard_normal((rows, length))
    values = np.where(rng.random((rows, length)) < 0.5, picked, noise)
    array = values.astype(np.float32).astype(DTYPES[element])
    unsigned, bits = ODD_NANS[element]
    array[0, 0] = np.array(bits, unsigned).view(array.dtype)
    return array


@pytest.mark.parametrize("element", sorted(DTYPES))
@pytest.mark.parametrize("direction", ["LT", "GT"])
@pytest.mark.parametrize("nan", ["positive", "negative"])
def test_jax_float_sort_matches_the_interpreter(
    element: str, direction: str, nan: str
) -> None:
    rows, length = 3, 37  # not a power of two: a clipped pair in the passes
    constant = NANS[element]
    if nan == "negative":  # below -inf in the total order: not rewritten
        constant = hex(int(constant, 16) | (1 << (4 * (len(constant) - 2) - 1)))
    text = program(element, direction, constant, rows, length)
    x = inputs(element, rows, length)
    want = xlir.compile(text, target="interpreter", pipeline="")(x)
    got = xlir.compile(text, target="cpu")(x)
    for have, expected in zip(got, want, strict=True):
        assert have.dtype == expected.dtype
        assert have.tobytes() == expected.tobytes()
