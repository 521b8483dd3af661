"""`decompose`'s chlo.mulhi (passes/hlo/decompositions/mulhi.py) against the
exact high half of Python's integer product, on the cpu target and on the
interpreter after `decompose`, for every width with extremes and random
values."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

TYPES = {
    "i8": np.int8,
    "ui8": np.uint8,
    "i16": np.int16,
    "ui16": np.uint16,
    "i32": np.int32,
    "ui32": np.uint32,
    "i64": np.int64,
    "ui64": np.uint64,
}


def _operands(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    info = np.iinfo(dtype)
    edges = sorted({info.min, info.min + 1, -1 if info.min else 2, 0, 1, info.max})
    edges = [v for v in edges if info.min <= v <= info.max]
    a, b = np.meshgrid(np.array(edges, dtype), np.array(edges, dtype))
    rng = np.random.default_rng(7)
    random = rng.integers(info.min, info.max, size=(2, 64), dtype=dtype, endpoint=True)
    return (
        np.concatenate([a.ravel(), random[0]]),
        np.concatenate([b.ravel(), random[1]]),
    )


def _expected(a: np.ndarray, b: np.ndarray, bits: int, dtype: type) -> np.ndarray:
    high = [(int(x) * int(y)) >> bits for x, y in zip(a, b, strict=True)]
    return np.array(high, dtype=dtype)


@pytest.mark.parametrize(
    "target, pipeline", [("cpu", None), ("interpreter", "decompose")]
)
@pytest.mark.parametrize("type_name", TYPES)
def test_mulhi_is_the_high_half(
    type_name: str, target: str, pipeline: str | None
) -> None:
    dtype = TYPES[type_name]
    a, b = _operands(dtype)
    t = f"tensor<{a.size}x{type_name}>"
    program = (
        f"func.func @main(%a: {t}, %b: {t}) -> {t} {{\n"
        f'  %h = "chlo.mulhi"(%a, %b) : ({t}, {t}) -> {t}\n'
        f"  func.return %h : {t}\n}}\n"
    )
    executable = xlir.compile(program, target=target, pipeline=pipeline)
    bits = np.iinfo(dtype).bits
    np.testing.assert_array_equal(executable(a, b), _expected(a, b, bits, dtype))
