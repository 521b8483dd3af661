"""Block transfers (`lowering/llvm/block_transfers.py`): random pads, slices
and concatenations, whose kernels are plain copies and fills, give the
interpreter's outputs bit for bit on the cpu target, with padding values
whose bytes are all equal (memset) and are not (-0.0, 1.0, 7: loops)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import xlir

TYPES = {"f32": np.float32, "i32": np.int32}
PADDING = {"f32": ["0.0", "-0.0", "1.0"], "i32": ["0", "-1", "7"]}


def _tensor(shape: list[int], element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>"


@st.composite
def programs(draw: st.DrawFn) -> str:
    element = draw(st.sampled_from(sorted(TYPES)))
    shape = draw(st.lists(st.integers(1, 5), min_size=1, max_size=3))
    low = [draw(st.integers(0, 2)) for _ in shape]
    high = [draw(st.integers(0, 2)) for _ in shape]
    starts = [draw(st.integers(0, n - 1)) for n in shape]
    limits = [draw(st.integers(s + 1, n)) for s, n in zip(starts, shape, strict=True)]
    axis = draw(st.integers(0, len(shape) - 1))
    value = draw(st.sampled_from(PADDING[element]))
    padded = [n + a + b for n, a, b in zip(shape, low, high, strict=True)]
    sliced = [hi - lo for lo, hi in zip(starts, limits, strict=True)]
    joined = [n * 2 if d == axis else n for d, n in enumerate(sliced)]
    a, p, s, j = (_tensor(x, element) for x in (shape, padded, sliced, joined))
    scalar = f"tensor<{element}>"
    ranges = ", ".join(f"{lo}:{hi}" for lo, hi in zip(starts, limits, strict=True))
    return f"""
func.func @main(%a: {a}) -> ({p}, {j}) {{
  %v = stablehlo.constant dense<{value}> : {scalar}
  %0 = stablehlo.pad %a, %v, low = {low}, high = {high}, interior = {[0] * len(shape)} : ({a}, {scalar}) -> {p}
  %1 = stablehlo.slice %a [{ranges}] : ({a}) -> {s}
  %2 = stablehlo.concatenate %1, %1, dim = {axis} : ({s}, {s}) -> {j}
  return %0, %2 : {p}, {j}
}}
"""


@settings(max_examples=30, deadline=None)
@given(programs(), st.integers(0, 2**32 - 1))
def test_copies_and_fills_match_the_interpreter(text: str, seed: int) -> None:
    compiled = xlir.compile(text, target="cpu")
    reference = xlir.compile(text)
    argument = compiled.signature.arguments[0]
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(argument.shape) * 8).astype(argument.dtype)
    for got, expected in zip(compiled(x), reference(x), strict=True):
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got.view(np.uint32), expected.view(np.uint32))


def test_pad_is_calls() -> None:
    """A zero pad of a 4-d input: whole rows of zeros are one memset, the
    interior a memcpy per row, and no element is stored one by one (i32:
    `pad-calls` gives an f32 zero pad to the prebuilt pad entry)."""
    text = """
func.func @main(%a: tensor<1x8x8x16xi32>) -> tensor<1x10x10x16xi32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.pad %a, %z, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x16xi32>, tensor<i32>) -> tensor<1x10x10x16xi32>
  return %0 : tensor<1x10x10x16xi32>
}
"""
    ir = xlir.compile(text, target="cpu").as_text()
    kernel = ir[ir.index('@"fusion_1"') :]
    kernel = kernel[: kernel.index("\n}")]
    assert "llvm.memset" in kernel and "llvm.memcpy" in kernel
    assert "store i32" not in kernel
