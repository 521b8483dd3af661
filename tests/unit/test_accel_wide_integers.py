"""64-bit integers on XA-1 (`targets/accel/wide_integers.py`): each i64 op
emulated with pairs of 32-bit words gives the loop evaluator's bits, on
the values where a 32-bit emulation goes wrong first: carries and borrows
between the words, sign bits of either word, products whose cross terms
wrap, shifts by 0, 31, 32, 33, 63, 64 and more."""

from __future__ import annotations

import numpy as np
import pytest

import xlir
from tests.unit.test_accel_loop_lowering import _binary_kernel, _program, _same
from tests.unit.test_rng import PROGRAM

N = 37
I64 = f"memref<{N}xi64>"

WIDE_EDGES = np.array(
    [0, 1, -1, 2, -2, 3, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x100000000,
     0x1FFFFFFFF, -0x100000000, -0x80000000, -0x80000001, 2**63 - 1, -(2**63),
     0x123456789ABCDEF0, -0x123456789ABCDEF0, 0xFFFF, 0x10000, 0xFFFF0000FFFF,
     0x7FFFFFFF80000000],
    np.int64,
)  # fmt: skip
SHIFT_AMOUNTS = np.array(
    [0, 1, 5, 16, 31, 32, 33, 47, 63, 64, 65, 100, 2**32, 2**32 + 3, -1, -(2**63)],
    np.int64,
)


def _values(seed: int) -> np.ndarray:
    """The edges and random 64-bit patterns, N of them."""
    rng = np.random.default_rng(seed)
    random = rng.integers(-(2**63), 2**63 - 1, N, dtype=np.int64, endpoint=True)
    return np.where(rng.random(N) < 0.6, rng.choice(WIDE_EDGES, N), random)


@pytest.mark.parametrize(
    "op",
    ["arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori",
     "arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"],
)  # fmt: skip
def test_binary_ops(op: str) -> None:
    text = _program(_binary_kernel(op, "i64"), [I64, I64], [I64])
    _same(text, _values(0), _values(1))


def test_products_of_all_edge_pairs() -> None:
    """Every pair of edge values: the high word's 16-bit columns carry."""
    x, y = np.meshgrid(WIDE_EDGES, WIDE_EDGES)
    size = x.size
    kernel = _binary_kernel("arith.muli", "i64").replace(str(N), str(size))
    memref = f"memref<{size}xi64>"
    _same(_program(kernel, [memref, memref], [memref]), x.ravel(), y.ravel())


@pytest.mark.parametrize("op", ["arith.shli", "arith.shrui", "arith.shrsi"])
def test_shifts_by_values(op: str) -> None:
    amounts = np.random.default_rng(2).choice(SHIFT_AMOUNTS, N)
    _same(_program(_binary_kernel(op, "i64"), [I64, I64], [I64]), _values(3), amounts)


@pytest.mark.parametrize("op", ["arith.shli", "arith.shrui", "arith.shrsi"])
@pytest.mark.parametrize("amount", [0, 1, 31, 32, 33, 63, 64])
def test_shifts_by_constants(op: str, amount: int) -> None:
    kernel = f"""loop.kernel @k(%x: {I64}, %z: {I64}) {{
  %s = arith.constant {amount} : i64
  loop.parallel (%i) = (0) to ({N}) step (1) {{
    %a = loop.load %x[%i] : {I64}
    %c = {op} %a, %s : i64
    loop.store %c, %z[%i] : {I64}
  }}
  loop.return
}}"""
    _same(_program(kernel, [I64], [I64]), _values(4))


@pytest.mark.parametrize(
    "predicate",
    ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"],
)
def test_compares(predicate: str) -> None:
    kernel = _binary_kernel(f"arith.cmpi {predicate},", "i64", "i1")
    x = _values(5)
    y = np.where(np.arange(N) % 3 == 0, x, _values(6))  # equal pairs too
    y[1::5] = x[1::5] ^ 1  # equal high words, low words differing
    y[2::5] = x[2::5] ^ (1 << 40)  # equal low words
    _same(_program(kernel, [I64, I64], [f"memref<{N}xi1>"]), x, y)


def test_select_extensions_truncations_and_index_casts() -> None:
    """select by an i64 compare; extsi/extui from i32, i8 and i1; trunci to
    i32 and i8; index casts both ways (a loop index as an i64 and back)."""
    i32, i8 = f"memref<{N}xi32>", f"memref<{N}xi8>"
    kernel = f"""loop.kernel @k(%x: {I64}, %n: {i32}, %b: {i8}, %o0: {I64}, %o1: {I64}, %o2: {i32}, %o3: {i8}, %o4: {I64}) {{
  %big = arith.constant 4294967296 : i64
  loop.parallel (%i) = (0) to ({N}) step (1) {{
    %a = loop.load %x[%i] : {I64}
    %m = loop.load %n[%i] : {i32}
    %c = loop.load %b[%i] : {i8}
    %s = arith.extsi %m : i32 to i64
    %u = arith.extui %m : i32 to i64
    %lt = arith.cmpi slt, %a, %s : i64
    %pick = arith.select %lt, %u, %a : i64
    loop.store %pick, %o0[%i] : {I64}
    %cs = arith.extsi %c : i8 to i64
    %cu = arith.extui %c : i8 to i64
    %bit = arith.cmpi ult, %a, %big : i64
    %bs = arith.extsi %bit : i1 to i64
    %bu = arith.extui %bit : i1 to i64
    %sum = arith.addi %cs, %cu : i64
    %mix = arith.xori %sum, %bs : i64
    %all = arith.addi %mix, %bu : i64
    loop.store %all, %o1[%i] : {I64}
    %t = arith.trunci %a : i64 to i32
    loop.store %t, %o2[%i] : {i32}
    %t8 = arith.trunci %a : i64 to i8
    loop.store %t8, %o3[%i] : {i8}
    %wide = arith.index_cast %i : index to i64
    %shifted = arith.shli %wide, %big : i64
    %back = arith.index_cast %wide : i64 to index
    %v = loop.load %x[%back] : {I64}
    %w = arith.subi %v, %wide : i64
    %r = arith.ori %w, %shifted : i64
    loop.store %r, %o4[%i] : {I64}
  }}
  loop.return
}}"""
    text = _program(kernel, [I64, i32, i8], [I64, I64, i32, i8, I64])
    rng = np.random.default_rng(7)
    edges32 = np.array([0, 1, -1, 2**31 - 1, -(2**31), 12345, -54321], np.int32)
    edges8 = np.array([0, 1, -1, 127, -128, 42], np.int8)
    _same(text, _values(8), rng.choice(edges32, N), rng.choice(edges8, N))


@pytest.mark.parametrize("op", ["math.absi", "math.ctlz", "math.ctpop"])
def test_absolute_values_and_bit_counts(op: str) -> None:
    """Negation borrowing into the high word (and -2^63 staying itself),
    leading zeros in either word, and each word's ones."""
    kernel = f"""loop.kernel @k(%x: {I64}, %z: {I64}) {{
  loop.parallel (%i) = (0) to ({N}) step (1) {{
    %a = loop.load %x[%i] : {I64}
    %c = {op} %a : i64
    loop.store %c, %z[%i] : {I64}
  }}
  loop.return
}}"""
    values = _values(10)
    values[: WIDE_EDGES.size] = WIDE_EDGES
    _same(_program(kernel, [I64], [I64]), values)


def test_index_casts_saturate_before_a_clamp() -> None:
    """An i64 outside the 32-bit index range becomes the nearest index, so a
    start index clamped after the cast lands where the evaluator's 64-bit
    index does (0x80000000 at the end, -0x80000001 at the start)."""
    kernel = f"""loop.kernel @k(%x: {I64}, %o: {I64}) {{
  %zero = arith.constant 0 : index
  %last = arith.constant {N - 1} : index
  loop.parallel (%i) = (0) to ({N}) step (1) {{
    %a = loop.load %x[%i] : {I64}
    %j = arith.index_cast %a : i64 to index
    %low = arith.maxsi %j, %zero : index
    %k = arith.minsi %low, %last : index
    %v = loop.load %x[%k] : {I64}
    loop.store %v, %o[%i] : {I64}
  }}
  loop.return
}}"""
    _same(_program(kernel, [I64], [I64]), _values(9))


def test_carried_values_and_counters() -> None:
    """A loop carrying an i64 sum (wrapping past 2^63) and an i64 counter
    beside an i32 value, from a 0-d i64 buffer."""
    kernel = f"""loop.kernel @k(%x: {I64}, %start: memref<i64>, %o: memref<3xi64>) {{
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %zero32 = arith.constant 0 : i32
  %init = loop.load %start[] : memref<i64>
  %r:3 = loop.for %j = 0 to {N} step 1 iter_args(%acc = %init, %low = %zero32, %count = %z) -> (i64, i32, i64) {{
    %v = loop.load %x[%j] : {I64}
    %n = arith.addi %acc, %v : i64
    %t = arith.trunci %v : i64 to i32
    %l = arith.xori %low, %t : i32
    %c = arith.addi %count, %one : i64
    loop.yield %n, %l, %c : i64, i32, i64
  }}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %l64 = arith.extsi %r#1 : i32 to i64
  loop.store %r#0, %o[%c0] : memref<3xi64>
  loop.store %l64, %o[%c1] : memref<3xi64>
  loop.store %r#2, %o[%c2] : memref<3xi64>
  loop.return
}}"""
    text = _program(kernel, [I64, "memref<i64>"], ["memref<3xi64>"])
    _same(text, _values(9), np.array(2**63 - 5, np.int64))


@pytest.mark.parametrize(
    "algorithm, state, shape, element",
    [
        ("THREE_FRY", [2**64 - 3, 2**63], "40", "ui32"),
        ("PHILOX", [7, 2**64 - 1, 5], "24", "ui32"),
        ("PHILOX", [1, 2**64 - 1], "33", "ui64"),
        ("THREE_FRY", [3, 4], "16", "f32"),
        ("PHILOX", [7, 2**64 - 1, 5], "4x5", "ui32"),
        ("THREE_FRY", [2**64 - 3, 2**63], "3x7", "ui64"),
    ],
)
def test_rng_bit_generator(
    algorithm: str, state: list[int], shape: str, element: str
) -> None:
    """rng_bit_generator's ui64 state (its counter carrying into the high
    word) and ui64 bits, as the evaluator generates them; a 2-d output is
    written through a reshape of the buffer (of i64: of its words)."""
    text = PROGRAM.format(n=len(state), shape=shape, t=element, alg=algorithm)
    inputs = np.array(state, np.uint64)
    want = xlir.compile(text, target="interpreter")(inputs)
    got = xlir.compile(text, target="accel")(inputs)
    for have, expected in zip(got, want, strict=True):
        np.testing.assert_array_equal(have, expected)


def test_buffers_larger_than_the_scratchpad_move_in_tiles() -> None:
    """Three i64 buffers of 40,000 elements (8 bytes each in the
    scratchpad: twice the capacity) are tiled and streamed."""
    count = 40000
    memref = f"memref<{count}xi64>"
    kernel = _binary_kernel("arith.subi", "i64").replace(str(N), str(count))
    rng = np.random.default_rng(12)
    x, y = (rng.integers(-(2**63), 2**63 - 1, count, dtype=np.int64) for _ in "xy")
    _same(_program(kernel, [memref, memref], [memref]), x, y)
