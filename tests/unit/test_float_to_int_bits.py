"""`float-to-int-bits` (passes/loop/float_to_int_bits.py): float to integer
conversions as float code give the loop evaluator's results for every
value, out-of-range ones and NaN included, and so do the cpu target's."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.evaluator.loop import LoopModule

import xlir
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

KERNEL = """
loop.kernel @k(%a: memref<{n}x{f}>, %out: memref<{n}x{i}>) {{
  loop.parallel (%j) = (0) to ({n}) step (1) {{
    %x = loop.load %a[%j] : memref<{n}x{f}>
    %r = {op} %x : {f} to {i}
    loop.store %r, %out[%j] : memref<{n}x{i}>
  }}
  loop.return
}}
func.func @main(%a: memref<{n}x{f}>) -> memref<{n}x{i}> {{
  %s = device.default_stream
  %out = device.alloc : memref<{n}x{i}>
  device.launch @k(%a, %out) on %s : memref<{n}x{f}>, memref<{n}x{i}>
  device.synchronize %s
  func.return %out : memref<{n}x{i}>
}}
"""

CASES = [
    ("f32", "i32", "arith.fptosi"),
    ("f64", "i32", "arith.fptosi"),
    ("f32", "i32", "arith.fptoui"),
    ("f64", "i8", "arith.fptosi"),
    ("f32", "i8", "arith.fptoui"),
    ("f16", "i16", "arith.fptosi"),
]


def values(dtype: np.dtype) -> np.ndarray:
    """The integer types' bounds and their neighbours, halves, signed
    zeros, infinities, NaN, the float's extremes and random values."""
    edges = [2.0**k for k in (7, 8, 15, 16, 31, 32)]
    points = [0.0, -0.0, 0.5, -0.5, 0.999, -0.999, 1.5, -1.5, np.inf, -np.inf, np.nan]
    for edge in edges:
        points += [edge, -edge, edge - 1, -edge + 1, edge - 0.5, edge + 0.5, -edge - 1]
    info = np.finfo(dtype)
    points += [float(info.max), float(-info.max), float(info.tiny)]
    random = np.random.default_rng(0).standard_normal(256) * 3e9
    with np.errstate(over="ignore"):
        return np.concatenate([np.array(points), random]).astype(dtype)


@pytest.mark.parametrize(("float_", "integer", "op"), CASES)
def test_same_results_as_before(float_: str, integer: str, op: str) -> None:
    dtype = np.dtype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[float_])
    x = values(dtype)
    text = KERNEL.format(n=x.size, f=float_, i=integer, op=op)
    before = parse_module(make_context(), text, "test.mlir")
    after = parse_module(make_context(), text, "test.mlir")
    run_pipeline(make_context(), after, "float-to-int-bits")
    assert "math.trunc" in str(after)
    want = LoopModule(before).call("main", [x])[0]
    got = LoopModule(after).call("main", [x])[0]
    np.testing.assert_array_equal(got, want)


def test_cpu_converts_as_the_interpreter() -> None:
    """Through the cpu pipeline (hlo-to-loop's own guard, then this pass)."""
    x = values(np.dtype(np.float32))
    for type_ in ("i32", "ui32", "i8", "ui8", "i16"):
        text = f"""func.func public @main(%a: tensor<{x.size}xf32>) -> tensor<{x.size}x{type_}> {{
  %0 = stablehlo.convert %a : (tensor<{x.size}xf32>) -> tensor<{x.size}x{type_}>
  return %0 : tensor<{x.size}x{type_}>
}}"""
        cpu = xlir.compile(text, target="cpu")
        want = xlir.compile(text, target="interpreter")(x)
        np.testing.assert_array_equal(np.asarray(cpu(x)), np.asarray(want))
