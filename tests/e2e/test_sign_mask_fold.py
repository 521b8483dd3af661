"""Narrow float ops on two and six elements, whose per-element sign tests
LLVM vectorizes into an AVX-512 mask: LLVM 22's x86-compress-evex pass
rewrote one read of the mask and erased the instruction that made it,
though another read still needed it (lowering/llvm/mask_move_fold.py),
and nvptx-emu gave -0 for +0 on Sapphire Rapids and later CPUs (fuzzer
seeds 7202474 and 7201610). Every pair (or row) of
codes with a sign bit and a zero next to each other, bit for bit against
the evaluator, on every target that compiles for this host."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import xlir
from xlir.element_dtypes import ml_dtype_of

CASES = [
    ("add", "2", "f6E3M2FN"),
    ("multiply", "2x3", "f6E2M3FN"),
    ("multiply", "2x3", "f4E2M1FN"),
]
"""(op, shape, element type) that met the rewrite on nvptx-emu."""

WIDTHS = {"f6E3M2FN": 6, "f6E2M3FN": 6, "f4E2M1FN": 4}


def _program(op: str, shape: str, element: str) -> str:
    tensor = f"tensor<{shape}x{element}>"
    return (
        f"func.func public @main(%x: {tensor}) -> {tensor} {{\n"
        f"  %0 = stablehlo.{op} %x, %x : {tensor}\n"
        f"  return %0 : {tensor}\n}}"
    )


def _inputs(shape: str, element: str) -> list[np.ndarray]:
    """Each arrangement of a negative subnormal, -0, +0 and a positive
    subnormal over the elements (the sign of a zero result is what the
    rewrite got wrong)."""
    sign = 1 << (WIDTHS[element] - 1)
    codes = [sign | 1, sign, 0, 1]
    dims = [int(d) for d in shape.split("x")]
    size = int(np.prod(dims))
    rows = itertools.islice(itertools.product(codes, repeat=size), 0, None, 7)
    dtype = ml_dtype_of(element)
    return [np.array(row, np.uint8).view(dtype).reshape(dims) for row in rows]


@pytest.mark.parametrize("target", ["cpu", "nvptx-emu"])
@pytest.mark.parametrize(("op", "shape", "element"), CASES)
def test_signs_of_zero_results_are_exact(
    target: str, op: str, shape: str, element: str
) -> None:
    text = _program(op, shape, element)
    reference = xlir.compile(text, target="interpreter", pipeline="")
    compiled = xlir.compile(text, target=target)
    for x in _inputs(shape, element):
        want = np.asarray(reference(x)).view(np.uint8)
        got = np.asarray(compiled(x)).view(np.uint8)
        assert np.array_equal(got, want), f"{x.view(np.uint8)}: {got} != {want}"
