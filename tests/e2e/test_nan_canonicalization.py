"""JAX's canonicalization of NaN bits, `select(x != x, bits(NaN),
bits(x))`, gives the canonical NaN's bits on the LLVM targets, as on the
evaluator, whatever NaN the op before it made (x86's `sqrt(-1)` has the
sign bit set). LLVM took `select(isnan(sqrt(x)), NaN, sqrt(x))` for
`sqrt(x)` alone where the NaN test was an `fcmp` (fuzzer seed 7000591)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xlir

_FLOATS = {
    "f64": (np.float64, "i64", 0x7FF8000000000000),
    "f32": (np.float32, "i32", 0x7FC00000),
    "f16": (np.float16, "i16", 0x7E00),
    "bf16": (ml_dtypes.bfloat16, "i16", 0x7FC0),
}


def _program(element: str, op: str, on_bits: bool) -> str:
    """`op`'s result and its canonicalized copy, both stored as floats, over
    16 elements (a vector loop): the select on the bits, bitcast back (as
    JAX leaves it), or on the floats, with the canonical NaN constant."""
    _, bits, canonical = _FLOATS[element]
    f, i = f"tensor<4x4x{element}>", f"tensor<4x4x{bits}>"
    if on_bits:
        select = f"""%b = stablehlo.bitcast_convert %v : ({f}) -> {i}
  %q = stablehlo.constant dense<{canonical}> : {i}
  %s = stablehlo.select %nan, %q, %b : tensor<4x4xi1>, {i}
  %c = stablehlo.bitcast_convert %s : ({i}) -> {f}"""
    else:
        select = f"""%q = stablehlo.constant dense<{canonical:#x}> : {f}
  %c = stablehlo.select %nan, %q, %v : tensor<4x4xi1>, {f}"""
    return f"""
func.func @main(%x: {f}, %y: {f}) -> ({f}, {f}) {{
  %v = {op} : {f}
  %nan = stablehlo.compare NE, %v, %v, FLOAT : ({f}, {f}) -> tensor<4x4xi1>
  {select}
  return %v, %c : {f}, {f}
}}"""


_OPS = [
    "stablehlo.sqrt %x",
    "stablehlo.rsqrt %x",
    "stablehlo.maximum %x, %y",
    "stablehlo.divide %x, %y",
    "stablehlo.log %x",
]


@pytest.mark.parametrize("target", ["cpu", "nvptx-emu"])
@pytest.mark.parametrize("element", list(_FLOATS))
@pytest.mark.parametrize("op", _OPS)
@pytest.mark.parametrize("on_bits", [True, False], ids=["bits", "floats"])
def test_canonical_nan_bits_match_the_evaluator(target, element, op, on_bits):
    dtype = _FLOATS[element][0]
    x = np.array(
        [-1, -0.0, 0.0, 4, -np.inf, np.inf, np.nan, -np.nan] * 2, dtype
    ).reshape(4, 4)
    y = np.array([0.0, -0.0, 2, np.nan, -np.inf, 1, -3, -np.nan] * 2, dtype)
    y = y.reshape(4, 4)
    text = _program(element, op, on_bits)
    _, want = xlir.compile(text, target="interpreter")(x, y)
    _, got = xlir.compile(text, target=target)(x, y)
    unsigned = f"u{np.dtype(dtype).itemsize}"
    np.testing.assert_array_equal(
        np.asarray(got).view(unsigned), np.asarray(want).view(unsigned)
    )
