"""top_k through the top_k routine (targets/cpu/top_k_routine.py) against
the selection kernel (`CompileOptions(sort_routines=False)`), bit for bit:
every element type the routine takes (floats by totalOrder, signed and
unsigned integers of 8 to 64 bits), NaNs of both signs and payloads, zeros
of both signs, infinities, ties (the lower index first), k = 1 and k = the
row length, rows shorter than a block and rows of many blocks (rising,
falling: blocks read and skipped), i32 and i64 indices, any rank; and the
types the routine does not take keep the kernel."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.cpu.top_k_routine import BLOCK
from xlir.targets.target import CompileOptions

import xlir
from tests.e2e.test_sort_routine import DTYPES as SORT_DTYPES

DTYPES = {
    **{name: dtype for name, dtype in SORT_DTYPES.items() if name != "i1"},
    **{
        f"{u}i{bits}": np.dtype(f"{u}int{bits}")
        for u in ("", "u")
        for bits in (16, 32, 64)
    },
}
"""The element types of the top_k routines (booleans keep the kernel)."""


def top_k(dims: tuple[int, ...], element: str, k: int, index: str = "i32") -> str:
    x = f"tensor<{'x'.join(map(str, dims))}x{element}>"
    out = "x".join(map(str, (*dims[:-1], k)))
    v, i = f"tensor<{out}x{element}>", f"tensor<{out}x{index}>"
    return f"""
func.func @main(%x: {x}) -> ({v}, {i}) {{
  %v, %i = chlo.top_k(%x, k = {k}) : {x} -> ({v}, {i})
  return %v, %i : {v}, {i}
}}"""


def elements(element: str, dims: tuple[int, ...], rng) -> np.ndarray:
    """Values of many ties; floats with NaNs of both signs and payloads,
    zeros of both signs and infinities, as bits."""
    dtype = np.dtype(DTYPES[element])
    if element in ("f32", "f64", "f16", "bf16"):
        x = rng.integers(-6, 6, dims).astype(np.float32).astype(dtype)
        flat = x.reshape(-1)
        specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0], dtype)
        flat[::5] = rng.choice(specials, flat[::5].size)
        bits = flat.view(f"u{dtype.itemsize}")
        payload = bits.dtype.type(3)
        nans = np.isnan(flat)
        nans[::2] = False
        bits[nans] ^= payload  # a signalling NaN or another payload
        return x
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, dims, dtype=dtype, endpoint=True)
    x.reshape(-1)[::3] = info.max
    x.reshape(-1)[1::7] = info.min
    return x


def assert_same(text: str, x: np.ndarray) -> None:
    """The routine's bits are the selection kernel's, and the routine ran."""
    routine = xlir.compile(text, target="cpu")
    kernel = xlir.compile(
        text, target="cpu", options=CompileOptions(sort_routines=False)
    )
    assert "xlir.top_k" in routine.llvm_ir
    assert "xlir.top_k" not in kernel.llvm_ir
    for got, want in zip(routine(x), kernel(x), strict=True):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("element", DTYPES)
@pytest.mark.parametrize("length", [7, 3 * BLOCK + 5])
def test_element_types(element: str, length: int):
    rng = np.random.default_rng(length)
    x = elements(element, (3, length), rng)
    for k in sorted({1, 4, length}):
        assert_same(top_k((3, length), element, k), x)


@pytest.mark.parametrize("order", ["random", "rising", "falling"])
@pytest.mark.parametrize("index", ["i32", "i64"])
def test_long_rows(order: str, index: str):
    """Rows of many blocks: rising rows read every block, falling ones
    skip all after the first k elements."""
    rng = np.random.default_rng(len(order))
    x = elements("f32", (4, 40 * BLOCK + 3), rng)
    if order != "random":
        x = np.sort(x, axis=-1)  # NaNs last
        if order == "falling":
            x = x[:, ::-1].copy()
    for k in (1, 8, BLOCK + 1):
        assert_same(top_k(x.shape, "f32", k, index), x)


@pytest.mark.parametrize("dims", [(50,), (2, 3, 40)])
def test_ranks(dims: tuple[int, ...]):
    x = elements("i32", dims, np.random.default_rng(5))
    assert_same(top_k(dims, "i32", 6, "i64"), x)


@pytest.mark.parametrize(("element", "index"), [("i1", "i32"), ("f32", "i16")])
def test_other_types_keep_the_kernel(element: str, index: str):
    text = top_k((2, 9), element, 3, index)
    assert "xlir.top_k" not in xlir.compile(text, target="cpu").llvm_ir
