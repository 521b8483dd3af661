"""`int-in-float` (passes/loop/int_in_float.py): integer quotients and
remainders through float division are the integer ones, on the values where
a float quotient is closest to rounding across an integer; float to integer
conversions as float code give the loop evaluator's results for every
value, out-of-range ones and NaN included; and so does the cpu target."""

from __future__ import annotations

import functools

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, i1, i32
from xdsl.ir import Block
from xlir.analysis.known_integers import known
from xlir.evaluator.loop import LoopModule

import xlir
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

PROGRAM = """
func.func public @main(%a: tensor<{n}x{t}>, %b: tensor<{n}x{t}>) -> (tensor<{n}x{t}>, tensor<{n}x{t}>) {{
  %q = stablehlo.divide %a, %b : tensor<{n}x{t}>
  %r = stablehlo.remainder %a, %b : tensor<{n}x{t}>
  return %q, %r : tensor<{n}x{t}>, tensor<{n}x{t}>
}}
"""


def hard_pairs(
    dtype: np.dtype, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Dividends next to multiples of the divisor at the ends of the range
    (a = q b - 1: the quotient just below an integer), the extremes, zero
    divisors (hlo-to-loop's guard) and random pairs."""
    info = np.iinfo(dtype)
    divisors = [1, -1, 2, 3, 7, 255, 65535, 46341, info.max, info.min, 0]
    a, b = [], []
    for d in divisors:
        if d < info.min or d > info.max:
            continue
        for base in (info.max, info.min, info.max // 3, 0):
            if d not in (0,):
                q = base // d
                for delta in (-1, 0, 1):
                    a.append(q * d + delta)
                    b.append(d)
            a.append(base)
            b.append(d)
    big = rng.integers(info.min, info.max, 4096, dtype=np.int64, endpoint=True)
    small = rng.integers(-300, 300, 4096, dtype=np.int64)
    a += list(big) + list(big)
    b += list(small) + list(rng.integers(info.min, info.max, 4096, endpoint=True))
    a64 = np.clip(np.array(a, np.int64), info.min, info.max)
    b64 = np.clip(np.array(b, np.int64), info.min, info.max)
    return a64.astype(dtype), b64.astype(dtype)


@pytest.mark.parametrize(
    ("type_", "dtype"), [("i32", np.int32), ("ui32", np.uint32), ("i16", np.int16)]
)
def test_cpu_quotients_are_the_interpreters(type_: str, dtype: type) -> None:
    a, b = hard_pairs(np.dtype(dtype), np.random.default_rng(0))
    text = PROGRAM.format(n=a.size, t=type_)
    cpu = xlir.compile(text, target="cpu")
    assert "arith.divf" in cpu.as_text() or "fdiv" in cpu.llvm_ir
    want = xlir.compile(text, target="interpreter")(a, b)
    got = cpu(a, b)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def test_known_sees_through_the_zero_divisor_guard() -> None:
    """hlo-to-loop's guard of a constant divisor comes to the constant, so
    that division is left for LLVM's multiply; a guard of an unknown divisor
    does not."""
    block = Block(arg_types=[i1, i32])
    flag, loaded = block.args
    seven = arith.ConstantOp(IntegerAttr(7, i32))
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    one = arith.ConstantOp(IntegerAttr(1, i32))
    minus_one = arith.ConstantOp(IntegerAttr(-1, i32))
    is_zero = arith.CmpiOp(seven, zero, "eq")
    overflow = arith.AndIOp(flag, arith.CmpiOp(seven, minus_one, "eq"))
    guarded = arith.SelectOp(arith.OrIOp(is_zero, overflow), one, seven)
    assert known(guarded.result) == 7
    assert known(arith.SelectOp(flag, one, seven).result) is None
    assert (
        known(arith.SelectOp(arith.CmpiOp(loaded, zero, "eq"), one, loaded).result)
        is None
    )
    assert known(arith.CmpiOp(minus_one, one, "ugt").result) == 1
    assert known(arith.CmpiOp(minus_one, one, "sgt").result) == 0
    index_one = arith.ConstantOp(IntegerAttr(1, IndexType()))
    index_two = arith.ConstantOp(IntegerAttr(2, IndexType()))
    assert known(arith.CmpiOp(index_one, index_two, "slt").result) == 1


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
    ("f32", "i8", "arith.fptosi"),
    ("f32", "i16", "arith.fptoui"),
    ("f16", "i16", "arith.fptosi"),
    ("f16", "i8", "arith.fptoui"),
]


def float_values(dtype: np.dtype) -> np.ndarray:
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
    x = float_values(dtype)
    text = KERNEL.format(n=x.size, f=float_, i=integer, op=op)
    before = parse_module(make_context(), text, "test.mlir")
    after = parse_module(make_context(), text, "test.mlir")
    run_pipeline(make_context(), after, "int-in-float")
    assert "math.trunc" in str(after)
    want = LoopModule(before).call("main", [x])[0]
    got = LoopModule(after).call("main", [x])[0]
    np.testing.assert_array_equal(got, want)


def test_cpu_converts_as_the_interpreter() -> None:
    """Through the cpu pipeline (hlo-to-loop's own guard, then this pass)."""
    x = float_values(np.dtype(np.float32))
    for type_ in ("i32", "ui32", "i8", "ui8", "i16", "ui16"):
        text = f"""func.func public @main(%a: tensor<{x.size}xf32>) -> tensor<{x.size}x{type_}> {{
  %0 = stablehlo.convert %a : (tensor<{x.size}xf32>) -> tensor<{x.size}x{type_}>
  return %0 : tensor<{x.size}x{type_}>
}}"""
        cpu = xlir.compile(text, target="cpu")
        want = xlir.compile(text, target="interpreter")(x)
        np.testing.assert_array_equal(np.asarray(cpu(x)), np.asarray(want))


EDGES = [
    edge + delta
    for k in (7, 8, 15, 16, 31, 32)
    for edge in (2.0**k, -(2.0**k))
    for delta in (-1.0, -0.5, 0.0, 0.5, 1.0)
] + [0.0, -0.0, 0.5, -0.5, 0.999, -0.999, np.inf, -np.inf, np.nan, 65504.0, 3.4e38]
SOURCES = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f32": np.float32,
    "f64": np.float64,
}
TARGETS = ("i8", "ui8", "i16", "ui16", "i32", "ui32")
SIZE = 64


@functools.cache
def converters(source: str, target: str) -> tuple[xlir.Executable, xlir.Executable]:
    """The cpu's and the interpreter's `convert` of `SIZE` `source` floats
    to `target` integers."""
    text = f"""func.func public @main(%a: tensor<{SIZE}x{source}>) -> tensor<{SIZE}x{target}> {{
  %0 = stablehlo.convert %a : (tensor<{SIZE}x{source}>) -> tensor<{SIZE}x{target}>
  return %0 : tensor<{SIZE}x{target}>
}}"""
    return xlir.compile(text, target="cpu"), xlir.compile(text, target="interpreter")


@pytest.mark.parametrize("source", sorted(SOURCES))
@settings(max_examples=15, deadline=None)
@given(
    data=st.data(),
    values=st.lists(
        st.one_of(st.sampled_from(EDGES), st.floats(width=64)),
        min_size=1,
        max_size=SIZE,
    ),
)
def test_guarded_conversions_are_the_interpreters(
    source: str, data: st.DataObject, values: list[float]
) -> None:
    """hlo-to-loop's guard dropped for int-in-float's float code: every
    source float type to every integer type, NaN, infinities, the bounds
    and their neighbours included, bit for bit the interpreter's."""
    target = data.draw(st.sampled_from(TARGETS))
    with np.errstate(over="ignore", invalid="ignore"):
        x = np.resize(np.array(values), SIZE).astype(SOURCES[source])
    cpu, interpreter = converters(source, target)
    np.testing.assert_array_equal(np.asarray(cpu(x)), np.asarray(interpreter(x)))
