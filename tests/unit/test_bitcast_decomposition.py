"""`decompose`'s bitcast_convert between widths
(passes/hlo/decompositions/bitcast.py) against the interpreter's kernel, bit for
bit, both ways (pieces into a wide element and back), on random bits and on
the interpreter after `decompose` and the cpu target."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

PAIRS = [
    ("i32", np.int32, "i8", 4),
    ("f64", np.float64, "f32", 2),
    ("f32", np.float32, "ui16", 2),
    ("ui64", np.uint64, "i16", 4),
    ("i64", np.int64, "i1", 64),
    ("f32", np.float32, "f16", 2),
]


@pytest.mark.parametrize(
    "target, pipeline", [("cpu", None), ("interpreter", "decompose")]
)
@pytest.mark.parametrize("wide, wide_dtype, narrow, pieces", PAIRS)
def test_round_trip_matches_the_kernel(
    wide: str,
    wide_dtype: type,
    narrow: str,
    pieces: int,
    target: str,
    pipeline: str | None,
) -> None:
    rng = np.random.default_rng(5)
    size = 6
    x = rng.integers(0, 256, size * np.dtype(wide_dtype).itemsize, np.uint8)
    x = x.view(wide_dtype).reshape(2, 3)
    whole, split = f"tensor<2x3x{wide}>", f"tensor<2x3x{pieces}x{narrow}>"
    program = (
        f"func.func @main(%x: {whole}) -> ({split}, {whole}) {{\n"
        f"  %s = stablehlo.bitcast_convert %x : ({whole}) -> {split}\n"
        f"  %w = stablehlo.bitcast_convert %s : ({split}) -> {whole}\n"
        f"  func.return %s, %w : {split}, {whole}\n}}\n"
    )
    want = xlir.compile(program, target="interpreter", pipeline="")(x)
    got = xlir.compile(program, target=target, pipeline=pipeline)(x)
    for have, expected in zip(got, want, strict=True):
        assert have.dtype == expected.dtype
        np.testing.assert_array_equal(have.view(np.uint8), expected.view(np.uint8))
    np.testing.assert_array_equal(got[1].view(np.uint8), x.view(np.uint8))
