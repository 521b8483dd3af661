"""cpu's top_k selection kernel (lowering/kernels/top_k.py, with the top_k
routine off: tests/e2e/test_top_k_routine.py holds the routine to the
kernel) against the evaluator's top_k and numpy: equal outputs, bit for
bit, for k = 1, k = the row length, ties (the lower index first), NaN of
either sign, -0.0, signed and unsigned integers, booleans, and rows of any
rank."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.target import CompileOptions

import xlir
from xlir.pass_manager import pipeline_text


def top_k(dims: tuple[int, ...], element: str, k: int, index: str = "i32") -> str:
    shape = "x".join(map(str, dims))
    out = "x".join(map(str, (*dims[:-1], k)))
    x, v, i = (
        f"tensor<{shape}x{element}>",
        f"tensor<{out}x{element}>",
        f"tensor<{out}x{index}>",
    )
    return f"""
func.func @main(%x: {x}) -> ({v}, {i}) {{
  %v, %i = chlo.top_k(%x, k = {k}) : {x} -> ({v}, {i})
  return %v, %i : {v}, {i}
}}"""


def same(text: str, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    want = xlir.compile(text, target="interpreter")(x)
    kernel = CompileOptions(sort_routines=False)  # not the top_k routine
    have = xlir.compile(text, target="cpu", options=kernel)(x)
    for a, b in zip(want, have, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
    return have


def test_cpu_keeps_top_k_for_its_kernel():
    pipeline = pipeline_text(CpuTarget().hlo_pipeline(CompileOptions()))
    assert "decompose{keep-top-k=true}" in pipeline


@pytest.mark.parametrize("k", [1, 3, 16])
def test_ties_nan_and_signed_zero(k: int):
    row = [2.0, np.nan, -0.0, 2.0, 0.0, -np.inf, -np.nan, 7.0]
    row += [2.0, np.inf, 0.0, -0.0, 1.0, -1.0, 7.0, 2.0]
    x = np.array([row, row[::-1]], np.float32)
    values, indices = same(top_k((2, 16), "f32", k), x)
    # totalOrder, largest first: +NaN, inf, 7 (twice, lower index first), ...
    assert np.isnan(values[0, 0]) and not np.signbit(values[0, 0])
    if k >= 3:
        np.testing.assert_array_equal(indices[0, :3], [1, 9, 7])
    if k == 16:
        np.testing.assert_array_equal(indices[0, -2:], [5, 6])  # -inf, then -NaN
        assert np.signbit(values[0, -1]) and np.isnan(values[0, -1])
        zeros = [int(i) for i in indices[0] if x[0, i] == 0]
        assert zeros == [4, 10, 2, 11]  # +0 above -0, each in index order


@pytest.mark.parametrize(
    ("dims", "element", "k"),
    [
        ((37,), "f64", 5),
        ((2, 3, 9), "f32", 9),
        ((4, 10), "i32", 4),
        ((4, 10), "ui8", 3),
        ((3, 6), "i1", 2),
        ((5, 7), "i64", 1),
        ((3, 20), "bf16", 4),  # keyed by its f32 value: 32-bit keys
    ],
)
def test_element_types_and_ranks(dims: tuple[int, ...], element: str, k: int):
    rng = np.random.default_rng(1)
    dtypes = {
        "f64": np.float64,
        "f32": np.float32,
        "i32": np.int32,
        "ui8": np.uint8,
        "i1": np.bool_,
        "i64": np.int64,
        "bf16": np.float32,  # bf16 arguments and results are f32 arrays
    }
    dtype = dtypes[element]
    if dtype == np.bool_:
        x = rng.random(dims) < 0.5
    elif np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, dims, endpoint=True, dtype=dtype)
        x.flat[::3] = x.flat[0]  # ties
    else:
        x = rng.integers(-4, 4, dims).astype(dtype)
    _, indices = same(top_k(dims, element, k, "i64"), x)
    order = np.argsort(-x.astype(np.float64), axis=-1, kind="stable")[..., :k]
    np.testing.assert_array_equal(indices, order)


@settings(max_examples=25, deadline=None)
@given(
    hnp.arrays(
        np.float32,
        (3, 12),
        elements=st.floats(width=32, allow_nan=True, allow_infinity=True),
    ),
    st.integers(1, 12),
)
def test_random_rows_agree_with_the_evaluator(x: np.ndarray, k: int):
    same(top_k((3, 12), "f32", k), x)


@pytest.mark.parametrize("order", ["random", "rising", "falling"])
@pytest.mark.parametrize(("element", "k"), [("f32", 3), ("ui8", 5), ("i64", 1)])
def test_blocks_skipped_or_read(order: str, element: str, k: int):
    """Rows of several `BLOCK`s and a tail: a block whose largest key is not
    above the k-th best is passed over (falling rows: every block after the
    first), one that holds an entering element is read element by element
    (rising rows: every block); ties keep the lower index."""
    rng = np.random.default_rng(len(order) + k)
    dtype = {"f32": np.float32, "ui8": np.uint8, "i64": np.int64}[element]
    if dtype == np.float32:
        x = rng.integers(-20, 20, (3, 75)).astype(dtype)
        x[0, ::7] = np.nan
        x[1, ::5] = -0.0
    else:
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, (3, 75), endpoint=True, dtype=dtype)
        x[0, 40:] = info.min
        x[1, ::4] = x[1, 3]
    if order != "random":
        x = np.sort(x, axis=-1)
        if order == "falling":
            x = x[:, ::-1].copy()
    same(top_k((3, 75), element, k), x)


@settings(max_examples=20, deadline=None)
@given(
    hnp.arrays(
        np.float32,
        (2, 70),
        elements=st.sampled_from([np.nan, -np.nan, -0.0, 0.0, 1.0, -1.0, np.inf]),
    ),
    st.integers(1, 20),
)
def test_random_long_rows_with_ties_agree_with_the_evaluator(x: np.ndarray, k: int):
    same(top_k((2, 70), "f32", k), x)
