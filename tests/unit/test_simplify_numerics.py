"""`simplify` changes no result: every function of its lit files gives the
same outputs on the interpreter before and after the pass, bit for bit
(dots, whose summation order may move, within a rounding), on inputs full of
NaN, ±inf, ±0.0 and integer extremes; and, by hypothesis, each float identity
holds for any input and constant."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xlir.passes.hlo.simplify import SimplifyPass

import xlir
from xlir.element_dtypes import value_kind

LIT = Path(__file__).resolve().parent.parent / "lit" / "passes" / "simplify"
EXACT_FILES = ("arithmetic.mlir", "shape_chains.mlir", "slices.mlir", "dot.mlir")
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -2.5, 1e-40, 3.4e38]


def _chunks() -> list[tuple[str, str]]:
    cases = []
    for name in EXACT_FILES:
        for index, chunk in enumerate((LIT / name).read_text().split("// -----")):
            cases.append((f"{name}#{index}", chunk))
    return cases


def _inputs(executable, rng: np.random.Generator) -> list[np.ndarray]:
    arrays = []
    for spec in executable.signature.arguments:
        size = int(np.prod(spec.shape, dtype=np.int64))
        kind = value_kind(spec.dtype)
        if kind in "fc":
            pool = np.array(SPECIAL + list(rng.normal(size=8)))
            values = rng.choice(pool, size)
            if kind == "c":
                values = values + 1j * rng.choice(pool, size)
        elif kind == "b":
            values = rng.integers(0, 2, size).astype(bool)
        else:
            info = ml_dtypes.iinfo(spec.dtype)
            pool = [info.min, info.max, 0, 1, -1 if info.min else 2, 7]
            values = rng.choice(np.array(pool, dtype=spec.dtype), size)
        arrays.append(np.asarray(values, dtype=spec.dtype).reshape(spec.shape))
    return arrays


def _simplified(text: str, fast_math: bool = False) -> tuple[ModuleOp, ModuleOp]:
    before = xlir.parse_module(xlir.make_context(), text, "case.mlir")
    after = before.clone()
    SimplifyPass(fast_math=fast_math).apply(Context(), after)
    after.verify()
    return before, after


def _same(got: np.ndarray, want: np.ndarray, exact: bool) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype
    if exact:
        assert got.tobytes() == want.tobytes(), f"{got} != {want}"
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(("case", "text"), _chunks(), ids=[c for c, _ in _chunks()])
def test_lit_functions_unchanged(case: str, text: str) -> None:
    before, after = _simplified(text)
    functions = [
        op.sym_name.data  # type: ignore[attr-defined]
        for op in before.walk()
        if op.name == "func.func"
    ]
    rng = np.random.default_rng(0)
    for function in functions:
        old = xlir.compile(before, target="interpreter", function=function)
        new = xlir.compile(after, target="interpreter", function=function)
        for _ in range(3):
            arguments = _inputs(old, rng)
            want, got = old(*arguments), new(*arguments)
            want = want if isinstance(want, tuple) else (want,)
            got = got if isinstance(got, tuple) else (got,)
            for g, w in zip(got, want, strict=True):
                _same(g, w, exact=not case.startswith("dot"))


_FLOATS = st.floats(width=32, allow_nan=True, allow_infinity=True, allow_subnormal=True)
_EXACT_RULES = {
    "add": "stablehlo.add %x, %c",
    "subtract": "stablehlo.subtract %x, %c",
    "multiply": "stablehlo.multiply %c, %x",
    "divide": "stablehlo.divide %x, %c",
}


@settings(max_examples=60, deadline=None)
@given(
    rule=st.sampled_from(sorted(_EXACT_RULES)),
    constant=st.one_of(
        st.sampled_from([0.0, -0.0, 1.0, 2.0, -0.5, 2.0**-126, 2.0**127, 2.0**-127]),
        _FLOATS,
    ),
    xs=st.lists(_FLOATS, min_size=1, max_size=6),
)
def test_float_identities_exact(rule: str, constant: float, xs: list[float]) -> None:
    """Whatever the constant, the rewritten op gives the original's bits."""
    n = len(xs)
    literal = np.float32(constant).view(np.uint32)
    text = (
        f"func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{\n"
        f"  %c = stablehlo.constant dense<0x{literal:08X}> : tensor<{n}xf32>\n"
        f"  %0 = {_EXACT_RULES[rule]} : tensor<{n}xf32>\n"
        f"  func.return %0 : tensor<{n}xf32>\n}}\n"
    )
    before, after = _simplified(text)
    x = np.array(xs, dtype=np.float32)
    want = xlir.compile(before, target="interpreter")(x)
    got = xlir.compile(after, target="interpreter")(x)
    _same(got, want, exact=True)


def test_fast_math_changes_results_the_option_allows() -> None:
    """The fast-math rules are exactly those that differ on special values."""
    text = (
        "func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
        "  %z = stablehlo.constant dense<0.0> : tensor<3xf32>\n"
        "  %0 = stablehlo.add %x, %z : tensor<3xf32>\n"
        "  func.return %0 : tensor<3xf32>\n}\n"
    )
    before, after = _simplified(text, fast_math=True)
    x = np.array([-0.0, 1.0, np.nan], dtype=np.float32)
    want = xlir.compile(before, target="interpreter")(x)
    got = xlir.compile(after, target="interpreter")(x)
    assert np.signbit(got[0]) and not np.signbit(want[0])
