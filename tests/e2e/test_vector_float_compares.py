"""Float compares on vectors keep the bits: a dot whose epilogue compares and
selects runs as vector copies of its register tile (`arith.cmpf` on
vectors, lowered to `fcmp` of vectors, NaN tests on the bits), and every
predicate gives, lane by lane, what numpy's compare of the same two floats
gives, for NaNs of either sign, both zeros, both infinities, subnormals and
the remainder columns and rows of the tile."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr

import xlir
from tests.loop_level import loop_level

M, K, N = 5, 3, 38
"""Rows and columns of the tile's remainders (2x8 tiles of 4 lanes), and
enough elements for every pair of `SPECIALS`."""

SPECIALS = np.array(
    [
        np.nan,
        -np.nan,
        np.inf,
        -np.inf,
        0.0,
        -0.0,
        1.0,
        -1.0,
        1e-45,
        -1e-45,
        3.4028235e38,
        2.5,
    ],
    np.float32,
)

EPILOGUE = f"""
func.func @main(%a: tensor<{M}x{K}xf32>, %b: tensor<{K}x{N}xf32>, %x: tensor<{M}x{N}xf32>,
                %y: tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>) -> tensor<{M}x{N}xf32>
  %p = stablehlo.compare LT, %x, %y : (tensor<{M}x{N}xf32>, tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xi1>
  %r = stablehlo.select %p, %d, %x : tensor<{M}x{N}xi1>, tensor<{M}x{N}xf32>
  return %r : tensor<{M}x{N}xf32>
}}"""
"""`select(x < y, a @ b, x)`: the predicate of its compare is set to each of
the sixteen at the loop level."""


def _arguments() -> list[np.ndarray]:
    """Integer-valued `a` and `b` (the dot is exact, whatever the order of
    its sums), and `x`, `y` holding every pair of `SPECIALS` (a NaN with
    its payload and sign bits), then random values and equal pairs."""
    rng = np.random.default_rng(36)
    a = rng.integers(-4, 5, (M, K)).astype(np.float32)
    b = rng.integers(-4, 5, (K, N)).astype(np.float32)
    pairs = np.array([(p, q) for p in SPECIALS for q in SPECIALS], np.float32)
    rest = rng.standard_normal((M * N - len(pairs), 2)).astype(np.float32)
    rest[::3, 1] = rest[::3, 0]
    x, y = np.concatenate([pairs, rest]).T.reshape(2, M, N)
    x.view(np.uint32)[0, 0] |= 0x2A  # a payload
    return [a, b, x.copy(), y.copy()]


def _numpy_compare(predicate: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """MLIR's float predicates: `o...` holds where neither operand is NaN and
    the relation holds, `u...` where either is NaN or the relation holds."""
    if predicate in ("false", "true"):
        return np.full(x.shape, predicate == "true")
    ordered = ~(np.isnan(x) | np.isnan(y))
    if predicate == "ord":
        return ordered
    if predicate == "uno":
        return ~ordered
    relation = {
        "eq": np.equal,
        "ne": np.not_equal,
        "lt": np.less,
        "le": np.less_equal,
        "gt": np.greater,
        "ge": np.greater_equal,
    }[predicate[1:]]
    with np.errstate(invalid="ignore"):
        holds = relation(x, y) & ordered
    return holds if predicate[0] == "o" else holds | ~ordered


def _with_predicate(predicate: str):
    """The program's register-tiled loop level, its compares set to
    `predicate`."""
    module = loop_level(EPILOGUE, "test", "register-tile{mr=2 nr=8 lanes=4}")
    number = arith.CMPF_COMPARISON_OPERATIONS.index(predicate)
    compares = [op for op in module.walk() if isinstance(op, arith.CmpfOp)]
    assert any(str(op.result.type) == "vector<4xi1>" for op in compares)
    for op in compares:
        op.predicate = IntegerAttr(number, 64)
    return module


@pytest.mark.parametrize("predicate", arith.CMPF_COMPARISON_OPERATIONS)
def test_vector_compares_match_numpy(predicate: str) -> None:
    arguments = _arguments()
    a, b, x, y = arguments
    want = np.where(_numpy_compare(predicate, x, y), a @ b, x)
    for target in ("interpreter", "cpu"):
        got = xlir.compile(_with_predicate(predicate), target=target)(*arguments)
        np.testing.assert_array_equal(
            got.view(np.uint32), want.view(np.uint32), err_msg=target
        )


def _epilogue(lines: str) -> str:
    """`a @ b + x`, then `lines` (StableHLO computing `%r` of `%s`, `%y`;
    `$T` their type, `$B` booleans of their shape)."""
    t = f"tensor<{M}x{N}xf32>"
    return f"""
func.func @main(%a: tensor<{M}x{K}xf32>, %b: tensor<{K}x{N}xf32>, %x: {t}, %y: {t}) -> {t} {{
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>) -> {t}
  %s = stablehlo.add %d, %x : {t}
  %z = stablehlo.constant dense<0.0> : {t}
  {lines.replace("$T", t).replace("$B", f"tensor<{M}x{N}xi1>")}
  return %r : {t}
}}"""


RELU = _epilogue("""%gt = stablehlo.compare GT, %s, %z : ($T, $T) -> $B
  %r = stablehlo.select %gt, %s, %z : $B, $T""")
"""A relu of a dot plus a bias: cheap enough to be cloned into each copy of
the register tile, so vector compares and selects on the cpu target."""

MASK_CLAMP = _epilogue("""%ne = stablehlo.compare NE, %s, %y : ($T, $T) -> $B
  %ninf = stablehlo.constant dense<0xFF800000> : $T
  %m = stablehlo.select %ne, %s, %ninf : $B, $T
  %lo = stablehlo.constant dense<-1.0> : $T
  %r = stablehlo.clamp %lo, %m, %y : ($T, $T, $T) -> $T""")
"""A dot plus a bias masked to -inf where it equals `y`, then clamped: a
costlier epilogue, which runs once per tile."""


@pytest.mark.parametrize("text", [RELU, MASK_CLAMP], ids=["relu", "mask_clamp"])
def test_epilogues_match_the_evaluator(text: str) -> None:
    """The cpu target's own pipeline (its register tiles sized for this
    host) gives the evaluator's bits, but for which NaN: an add or a clamp
    of two NaNs may give either (LLVM's `maximum` does not say which)."""
    arguments = _arguments()
    want = xlir.compile(text, target="interpreter")(*arguments)
    executable = xlir.compile(text, target="cpu")
    if text is RELU:
        assert re.search(r"fcmp ogt <\d+ x float>", executable.as_text())
    got = executable(*arguments)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))
