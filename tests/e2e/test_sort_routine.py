"""Sorts through the sort routine (targets/cpu/sort_routine.py) against the
inline merge sort kernel (`CompileOptions(sort_routines=False)`), bit for
bit: every order the routine takes (floats by totalOrder and by JAX's
canonicalizing comparator, signed and unsigned integers, ascending and
descending), keys full of NaNs of both signs and payloads, zeros of both
signs, infinities and ties, payloads moved along, rows short enough for
insertion and long enough for the radix sort, along every dimension."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xlir.targets.target import CompileOptions

import xlir

DTYPES = {
    "f32": np.float32,
    "f64": np.float64,
    "bf16": ml_dtypes.bfloat16,
    "f16": np.float16,
    "i32": np.int32,
    "ui8": np.uint8,
    "i64": np.int64,
    "i8": np.int8,
    "i1": np.bool_,
}

JAX_SIDE = """
    %{s}z = stablehlo.constant dense<0.0> : tensor<{t}>
    %{s}iz = stablehlo.compare EQ, %{s}, %{s}z, FLOAT : (tensor<{t}>, tensor<{t}>) -> tensor<i1>
    %{s}0 = stablehlo.select %{s}iz, %{s}z, %{s} : tensor<i1>, tensor<{t}>
    %{s}in = stablehlo.compare NE, %{s}, %{s}, FLOAT : (tensor<{t}>, tensor<{t}>) -> tensor<i1>
    %{s}nan = stablehlo.constant dense<0x{nan}> : tensor<{t}>
    %{s}c = stablehlo.select %{s}in, %{s}nan, %{s}0 : tensor<i1>, tensor<{t}>"""
"""JAX's canonicalization of one comparator argument `s`."""

POSITIVE_NAN = {
    "f32": "7FC00000",
    "f64": "7FF8000000000000",
    "bf16": "7FC0",
    "f16": "7E00",
}


def sort_program(
    shape: tuple[int, ...],
    dimension: int,
    key: str,
    order: str,
    direction: str,
    key_operand: int = 0,
) -> str:
    """A sort of a `key` operand (at `key_operand`) and an i32 payload (the
    other operand) by the comparator of `order`: `total`, `jax` or `int`."""
    dims = "x".join(map(str, shape))
    types = ["i32", "i32"]
    types[key_operand] = key
    tensors = [f"tensor<{dims}x{t}>" for t in types]
    a, b = f"a{key_operand}", f"b{key_operand}"
    scalar = f"tensor<{key}>"
    if order == "jax":
        body = JAX_SIDE.format(s=a, t=key, nan=POSITIVE_NAN[key])
        body += JAX_SIDE.format(s=b, t=key, nan=POSITIVE_NAN[key])
        lhs, rhs, kind = f"%{a}c", f"%{b}c", "TOTALORDER"
    else:
        body = ""
        lhs, rhs = f"%{a}", f"%{b}"
        kind = (
            "TOTALORDER"
            if order == "total"
            else ("UNSIGNED" if key in ("ui8", "i1") else "SIGNED")
        )
    signature = ", ".join(tensors)
    return f"""
func.func @main(%x: {tensors[0]}, %y: {tensors[1]}) -> ({signature}) {{
  %r:2 = "stablehlo.sort"(%x, %y) <{{dimension = {dimension} : i64, is_stable = true}}> ({{
  ^bb0(%a0: tensor<{types[0]}>, %b0: tensor<{types[0]}>, %a1: tensor<{types[1]}>, %b1: tensor<{types[1]}>):{body}
    %lt = stablehlo.compare {direction}, {lhs}, {rhs}, {kind} : ({scalar}, {scalar}) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }}) : ({signature}) -> ({signature})
  return %r#0, %r#1 : {signature}
}}
"""


def keys(key: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Values of `key` with many ties; for floats NaNs of both signs (with
    payloads), zeros of both signs and infinities among them."""
    dtype = np.dtype(DTYPES[key])
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        pool = np.array(
            [
                info.min,
                info.max,
                0,
                1,
                -1 % (info.max + 1) if dtype.kind == "u" else -1,
                7,
            ],
            dtype,
        )
        spread = rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
        return np.where(rng.random(shape) < 0.5, rng.choice(pool, shape), spread)
    bits = np.dtype(f"u{dtype.itemsize}")
    width = 8 * dtype.itemsize
    exponent = {2: 5, 4: 8, 8: 11}[dtype.itemsize] if key != "bf16" else 8
    quiet = 1 << (width - exponent - 2)
    sign = 1 << (width - 1)
    inf = ((1 << exponent) - 1) << (width - exponent - 1)
    special = np.array(
        [
            inf | quiet,
            inf | quiet | sign,
            inf | quiet | 3,
            inf | 1 | sign,
            inf,
            inf | sign,
            0,
            sign,
        ],
        dtype=bits,
    ).view(dtype)
    values = rng.standard_normal(shape).astype(dtype)
    ties = rng.choice(np.array([1.5, -2.0, 0.25], dtype), shape)
    pick = rng.random(shape)
    return np.where(
        pick < 0.3, rng.choice(special, shape), np.where(pick < 0.6, ties, values)
    )


def compile_both(text: str) -> tuple[xlir.Executable, xlir.Executable]:
    routine = xlir.compile(text, target="cpu")
    inline = xlir.compile(
        text, target="cpu", options=CompileOptions(sort_routines=False)
    )
    assert "xlir.sort_keys" in routine.llvm_ir
    assert "xlir.sort_keys" not in inline.llvm_ir
    return routine, inline


def assert_same_bits(got, want) -> None:
    for have, expected in zip(got, want, strict=True):
        assert have.dtype == expected.dtype and have.shape == expected.shape
        np.testing.assert_array_equal(
            np.ascontiguousarray(have).view(np.uint8),
            np.ascontiguousarray(expected).view(np.uint8),
        )


def run_case(shape, dimension, key, order, direction, key_operand=0) -> None:
    rng = np.random.default_rng(sum(shape) + dimension)
    text = sort_program(shape, dimension, key, order, direction, key_operand)
    payload = rng.permutation(np.prod(shape, dtype=int)).astype(np.int32).reshape(shape)
    inputs = [payload, payload]
    inputs[key_operand] = keys(key, shape, rng)
    routine, inline = compile_both(text)
    assert_same_bits(routine(*inputs), inline(*inputs))


FLOATS = ["f32", "f64", "bf16", "f16"]
INTEGERS = ["i32", "ui8", "i64", "i8", "i1"]


@pytest.mark.parametrize("direction", ["LT", "GT"])
@pytest.mark.parametrize("order", ["total", "jax"])
@pytest.mark.parametrize("key", FLOATS)
def test_floats(key: str, order: str, direction: str):
    run_case((3, 97), 1, key, order, direction)


@pytest.mark.parametrize("direction", ["LT", "GT"])
@pytest.mark.parametrize("key", INTEGERS)
def test_integers(key: str, direction: str):
    run_case((3, 97), 1, key, "int", direction)


@pytest.mark.parametrize("length", [2, 3, 7, 64, 65, 1000, 5000])
@pytest.mark.parametrize("key", ["f32", "i64"])
def test_lengths(length: int, key: str):
    """Rows sorted by insertion (up to 64) and by the radix sort."""
    run_case((length,), 0, key, "jax" if key == "f32" else "int", "LT")


@pytest.mark.parametrize(
    ("shape", "dimension"),
    [((70, 3), 0), ((4, 70, 3), 1), ((2, 3, 70), 2), ((5, 9), 0)],
)
def test_dimensions(shape: tuple[int, ...], dimension: int):
    run_case(shape, dimension, "f32", "jax", "GT")


def test_key_after_the_payload():
    run_case((4, 100), 1, "f64", "total", "LT", key_operand=1)


@pytest.mark.parametrize("shape", [(0,), (1,), (3, 0), (0, 5), (4, 1)])
def test_empty_and_single(shape: tuple[int, ...]):
    """Rows of no or one element need no sort (a copy), and no routine."""
    text = sort_program(shape, len(shape) - 1, "f32", "jax", "LT")
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    y = np.arange(np.prod(shape), dtype=np.int32).reshape(shape)
    got = xlir.compile(text, target="cpu")(x, y)
    assert_same_bits(got, (x, y))
