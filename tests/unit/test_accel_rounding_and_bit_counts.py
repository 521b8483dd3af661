"""Rounding to integral values, integer absolute values, leading zeros and
population counts on XA-1 (`vfround.*`, `bit_counts.py`): the loop
evaluator's bits on the simulator, on 16 lanes and on scalars (a last
dimension of 1 stays scalar code), at the edges where a sequence goes
wrong first: ties, the last fractional f32 values, signed zeros, infinities
and NaN; the most negative integer, every power of two and the one below it
(a conversion to f32 that rounds up), each narrow width's sign bit."""

from __future__ import annotations

import numpy as np
import pytest

from tests.unit.test_accel_loop_lowering import _program, _same

ROUNDING_EDGES = np.array(
    [0.0, -0.0, 0.3, -0.3, 0.5, -0.5, 0.49999997, -0.49999997, 0.50000006,
     -0.50000006, 0.99999994, -0.99999994, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5,
     8388607.5, -8388607.5, 8388608.0, -8388609.0, 16777218.0, 1e30, -1e30,
     3.4028235e38, -3.4028235e38, np.inf, -np.inf, np.nan, 1e-45, -1e-45,
     1.1754942e-38, -2.9, 2.9, 100.5, -100.5],
    np.float32,
)  # fmt: skip
POWERS = [1 << k for k in range(32)]
INTEGER_EDGES = [0, 3, 12345, -54321, 0x00FFFFFF, 0x01FFFFFF, 0x7FFFFFFF]
INTEGER_EDGES += POWERS + [p - 1 for p in POWERS] + [-p for p in POWERS]
INTEGER_EDGES += [-p - 1 for p in POWERS] + [0x7F, 0x80, 0xFF, 0x7FFF, 0x8000]


def _unary_kernel(op: str, type_: str, shape: list[int]) -> str:
    """`op` on every element of a buffer of `shape`: with a last dimension
    of 1 nothing goes on the lanes."""
    memref = f"memref<{'x'.join(map(str, shape))}x{type_}>"
    indices = ", ".join(f"%i{d}" for d in range(len(shape)))
    zeros = ", ".join("0" for _ in shape)
    ones = ", ".join("1" for _ in shape)
    return f"""loop.kernel @k(%x: {memref}, %z: {memref}) {{
  loop.parallel ({indices}) = ({zeros}) to ({", ".join(map(str, shape))}) step ({ones}) {{
    %a = loop.load %x[{indices}] : {memref}
    %c = {op} %a : {type_}
    loop.store %c, %z[{indices}] : {memref}
  }}
  loop.return
}}"""


def _run(op: str, type_: str, values: np.ndarray, lanes: bool) -> None:
    shape = [values.size] if lanes else [values.size, 1]
    memref = f"memref<{'x'.join(map(str, shape))}x{type_}>"
    _same(
        _program(_unary_kernel(op, type_, shape), [memref], [memref]),
        values.reshape(shape),
    )


@pytest.mark.parametrize("lanes", [True, False], ids=["lanes", "scalar"])
@pytest.mark.parametrize(
    "op", ["math.floor", "math.ceil", "math.round", "math.roundeven", "math.trunc"]
)
def test_roundings(op: str, lanes: bool) -> None:
    _run(op, "f32", ROUNDING_EDGES, lanes)


@pytest.mark.parametrize("lanes", [True, False], ids=["lanes", "scalar"])
@pytest.mark.parametrize("op", ["math.absi", "math.ctlz", "math.ctpop"])
def test_bit_counts_and_absolute_values(op: str, lanes: bool) -> None:
    values = np.array(INTEGER_EDGES, np.int64).astype(np.int32)
    _run(op, "i32", values, lanes)


@pytest.mark.parametrize("op", ["math.absi", "math.ctlz", "math.ctpop"])
@pytest.mark.parametrize(("type_", "dtype"), [("i16", np.int16), ("i8", np.int8)])
def test_narrow_integers_count_their_own_bits(op: str, type_: str, dtype: type) -> None:
    values = np.array(INTEGER_EDGES, np.int64).astype(dtype)
    _run(op, type_, values, lanes=True)  # narrow lanes stay scalar code
