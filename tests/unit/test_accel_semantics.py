"""Every XA-1 compute instruction and DMA conversion mode on random and special
operands (NaN with any payload, +-inf, -0.0, subnormals, integer extremes, shifts
past the width) against a lane-by-lane reference written from the manual
(sections 4.1-4.2, 4.7-4.9, 5.1), run end to end through the assembler and the
simulator.

The reference computes floats in Python doubles and rounds once to binary32: for
+, -, *, / and sqrt that is correctly rounded (53 >= 2 * 24 + 2 bits)."""

from __future__ import annotations

import math
import struct
from collections.abc import Callable

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.isa import FLOAT_FUNCTIONS, INTEGER_FUNCTIONS, UNARY_FUNCTIONS
from xlir.targets.accel.simulator import Simulator

MASK = 0xFFFFFFFF
NAN = 0x7FC00000
SPECIALS = [
    0x7FC00000, 0xFFC00000, 0x7FA00001, 0xFF800001, 0x7F800000, 0xFF800000,
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0x3F800000,
    0xBFC00000, 0x3F000000, 0xBF000000, 0x40200000, 0xC0200000, 0x3EFFFFFF,
    0x4B000001, 0x4F000000, 0xCF000000, 0x4F800000, 0x7FFFFFFF, 0xFFFFFFFF,
    1, 2, 31, 32, 33, 0x80000001,
]  # fmt: skip
"""NaNs (quiet, signalling, negative), +-inf, +-0, subnormals, max, 1, -1.5,
+-0.5, +-2.5, 0.49999997, 2^23+2, +-2^31, 2^32, integer extremes, shift counts."""

WORD = st.one_of(st.sampled_from(SPECIALS), st.integers(0, MASK))
VECTOR = st.lists(WORD, min_size=16, max_size=16)


def s32(a: int) -> int:
    return a - (1 << 32) if a >> 31 else a


def to_float(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def from_float(value: float) -> int:
    """fl(value) as bits; NaN canonical."""
    if math.isnan(value):
        return NAN
    with np.errstate(over="ignore"):
        return int(np.array(value, np.float64).astype(np.float32).view(np.uint32))


def _div(a: int, b: int) -> int:
    if b == 0:
        return MASK
    q = abs(s32(a)) // abs(s32(b))
    return (-q if (s32(a) < 0) != (s32(b) < 0) else q) & MASK


def _rem(a: int, b: int) -> int:
    if b == 0:
        return a
    return (s32(a) - s32(b) * s32(_div(a, b))) & MASK


INTEGER: dict[str, Callable[[int, int], int]] = {
    "add": lambda a, b: (a + b) & MASK,
    "sub": lambda a, b: (a - b) & MASK,
    "mul": lambda a, b: (a * b) & MASK,
    "div": _div,
    "divu": lambda a, b: a // b if b else MASK,
    "rem": _rem,
    "remu": lambda a, b: a % b if b else a,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "sll": lambda a, b: 0 if b >= 32 else (a << b) & MASK,
    "srl": lambda a, b: 0 if b >= 32 else a >> b,
    "sra": lambda a, b: (s32(a) >> min(b, 31)) & MASK,
    "slt": lambda a, b: int(s32(a) < s32(b)),
    "sltu": lambda a, b: int(a < b),
    "sle": lambda a, b: int(s32(a) <= s32(b)),
    "sleu": lambda a, b: int(a <= b),
    "seq": lambda a, b: int(a == b),
    "sne": lambda a, b: int(a != b),
    "min": lambda a, b: a if s32(a) <= s32(b) else b,
    "minu": min,
    "max": lambda a, b: a if s32(a) >= s32(b) else b,
    "maxu": max,
}


def _float_binary(op: Callable[[float, float], float]) -> Callable[[int, int], int]:
    def apply(a: int, b: int) -> int:
        x, y = to_float(a), to_float(b)
        try:
            return from_float(op(x, y))
        except ZeroDivisionError:
            if x == 0 or math.isnan(x):
                return NAN
            negative = (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
            return 0xFF800000 if negative else 0x7F800000

    return apply


def _min_max(smaller: bool) -> Callable[[int, int], int]:
    def apply(a: int, b: int) -> int:
        x, y = to_float(a), to_float(b)
        if math.isnan(x) or math.isnan(y):
            return NAN
        if x != y:
            return a if (x < y) == smaller else b
        either_negative = a == 0x80000000 or b == 0x80000000
        both_negative = a == 0x80000000 and b == 0x80000000
        if x == 0:  # -0 < +0
            return 0x80000000 if (either_negative if smaller else both_negative) else 0
        return a

    return apply


def _compare(op: Callable[[float, float], bool]) -> Callable[[int, int], int]:
    return lambda a, b: int(op(to_float(a), to_float(b)))


FLOAT: dict[str, Callable[[int, int], int]] = {
    "vfadd": _float_binary(lambda x, y: x + y),
    "vfsub": _float_binary(lambda x, y: x - y),
    "vfmul": _float_binary(lambda x, y: x * y),
    "vfdiv": _float_binary(lambda x, y: x / y),
    "vfmin": _min_max(True),
    "vfmax": _min_max(False),
    "vfeq": _compare(lambda x, y: x == y),
    "vfne": _compare(lambda x, y: x != y),
    "vflt": _compare(lambda x, y: x < y),
    "vfle": _compare(lambda x, y: x <= y),
}


def _integral(round_: Callable[[float], float]) -> Callable[[int], int]:
    def apply(a: int) -> int:
        x = to_float(a)
        if math.isnan(x):
            return NAN
        if math.isinf(x) or x == 0:
            return a
        return from_float(math.copysign(round_(x), x))

    return apply


def _sqrt(a: int) -> int:
    x = to_float(a)
    if math.isnan(x) or (x < 0):
        return NAN
    return from_float(math.sqrt(x))


def _to_i32(a: int) -> int:
    x = to_float(a)
    if math.isnan(x):
        return 0
    if x >= 2**31:
        return 0x7FFFFFFF
    if x < -(2**31):
        return 0x80000000
    return math.trunc(x) & MASK


def _to_u32(a: int) -> int:
    x = to_float(a)
    if math.isnan(x) or x < 0:
        return 0
    return MASK if x >= 2**32 else math.trunc(x)


LANEWISE_UNARY: dict[str, Callable[[int], int]] = {
    "vfsqrt": _sqrt,
    "vcvt.f32.i32": lambda a: from_float(float(s32(a))),
    "vcvt.i32.f32": _to_i32,
    "vcvt.f32.u32": lambda a: from_float(float(a)),
    "vcvt.u32.f32": _to_u32,
    "vfround.rne": _integral(lambda x: float(round(x))),
    "vfround.rtz": _integral(lambda x: float(math.trunc(x))),
    "vfround.rdn": _integral(lambda x: float(math.floor(x))),
    "vfround.rup": _integral(lambda x: float(math.ceil(x))),
    "vfround.rmm": _integral(lambda x: float(math.floor(abs(x) + 0.5))),
}
REDUCTION_OPS: dict[str, Callable[[int, int], int]] = {
    "vredsum.f": FLOAT["vfadd"],
    "vredmax.f": FLOAT["vfmax"],
    "vredmin.f": FLOAT["vfmin"],
    "vredsum": INTEGER["add"],
    "vredmax": INTEGER["max"],
    "vredmin": INTEGER["min"],
}


def _reduce(op: Callable[[int, int], int], x: list[int]) -> list[int]:
    while len(x) > 1:
        half = len(x) // 2
        x = [op(x[i], x[i + half]) for i in range(half)]
    return x * 16


HARNESS = """
.kernel lanes, 2
    li t0, 1 ; dma.cfg t0, zero, zero, raw ; li t1, 256
    dma.ld zero, a0, t1, 0 ; dma.wait 0
    vld v1, 0(zero) ; vld v2, 64(zero) ; vld v3, 128(zero)
    lw t1, 192(zero) ; lw t2, 196(zero)
    {instruction}
    vst v0, 256(zero) ; sw t3, 320(zero)
    li t1, 128 ; li t4, 256 ; dma.st t4, a1, t1, 1 ; dma.wait 1 ; halt
"""


def execute(instruction: str, vectors: list[list[int]], scalars: tuple[int, int]):
    """Run `instruction` with v1..v3 and t1, t2 set; return (v0, t3)."""
    data = np.zeros(64, np.uint32)
    for i, vector in enumerate(vectors):
        data[16 * i : 16 * i + 16] = vector
    data[48:50] = scalars
    dram = np.zeros(0x10200, np.uint8)
    dram[0x10000:0x10100] = data.view(np.uint8)
    program = assemble(HARNESS.format(instruction=instruction))
    Simulator(program, dram).launch("lanes", [0x10000, 0x10100])
    out = dram[0x10100:0x10180].view(np.uint32)
    return out[:16].tolist(), int(out[16])


THREE = st.tuples(VECTOR, VECTOR, VECTOR)


@pytest.mark.parametrize("name", INTEGER_FUNCTIONS)
@settings(max_examples=25, deadline=None)
@given(vectors=THREE, a=WORD, b=WORD)
def test_integer(name: str, vectors: list[list[int]], a: int, b: int) -> None:
    v0, _ = execute(f"v{name} v0, v1, v2", vectors, (a, b))
    assert v0 == [
        INTEGER[name](p, q) for p, q in zip(vectors[0], vectors[1], strict=True)
    ]
    _, t3 = execute(f"{name} t3, t1, t2", vectors, (a, b))
    assert t3 == INTEGER[name](a, b)


IMMEDIATES = {
    "addi": ("add", -(1 << 15), (1 << 15) - 1),
    "andi": ("and", 0, 0xFFFF),
    "ori": ("or", 0, 0xFFFF),
    "xori": ("xor", 0, 0xFFFF),
    "slli": ("sll", 0, 31),
    "srli": ("srl", 0, 31),
    "srai": ("sra", 0, 31),
    "slti": ("slt", -(1 << 15), (1 << 15) - 1),
    "sltiu": ("sltu", -(1 << 15), (1 << 15) - 1),
}


@pytest.mark.parametrize("name", sorted(IMMEDIATES))
@settings(max_examples=25, deadline=None)
@given(a=WORD, data=st.data())
def test_scalar_immediate(name: str, a: int, data: st.DataObject) -> None:
    base, low, high = IMMEDIATES[name]
    imm = data.draw(st.integers(low, high))
    _, t3 = execute(f"{name} t3, t1, {imm}", [[0] * 16] * 3, (a, 0))
    assert t3 == INTEGER[base](a, imm & MASK)


def test_lui() -> None:
    assert execute("lui t3, 0xABCD", [[0] * 16] * 3, (0, 0))[1] == 0xABCD0000


@pytest.mark.parametrize("name", FLOAT_FUNCTIONS)
@settings(max_examples=40, deadline=None)
@given(vectors=THREE)
def test_float(name: str, vectors: list[list[int]]) -> None:
    v0, _ = execute(f"{name} v0, v1, v2", vectors, (0, 0))
    assert v0 == [
        FLOAT[name](p, q) for p, q in zip(vectors[0], vectors[1], strict=True)
    ]


@pytest.mark.parametrize("name", UNARY_FUNCTIONS)
@settings(max_examples=40, deadline=None)
@given(vectors=THREE)
def test_unary(name: str, vectors: list[list[int]]) -> None:
    v0, _ = execute(f"{name} v0, v1", vectors, (0, 0))
    if name in REDUCTION_OPS:
        assert v0 == _reduce(REDUCTION_OPS[name], vectors[0])
    else:
        assert v0 == [LANEWISE_UNARY[name](a) for a in vectors[0]]


@settings(max_examples=60, deadline=None)
@given(vectors=THREE)
def test_vfmadd_rounds_twice(vectors: list[list[int]]) -> None:
    v0, _ = execute("vfmadd v0, v1, v2, v3", vectors, (0, 0))
    product = [
        FLOAT["vfmul"](a, b) for a, b in zip(vectors[0], vectors[1], strict=True)
    ]
    assert v0 == [
        FLOAT["vfadd"](p, c) for p, c in zip(product, vectors[2], strict=True)
    ]


@settings(max_examples=30, deadline=None)
@given(vectors=THREE, a=WORD)
def test_moves_and_select(vectors: list[list[int]], a: int) -> None:
    v1, v2, v3 = vectors
    assert execute("vsel v0, v1, v2, v3", vectors, (0, 0))[0] == [
        q if p else r for p, q, r in zip(v1, v2, v3, strict=True)
    ]
    assert execute("vsplat v0, t1", vectors, (a, 0))[0] == [a] * 16
    assert execute("vidx v0", vectors, (0, 0))[0] == list(range(16))
    for lane in (0, 7, 15):
        assert execute(f"vext t3, v2, {lane}", vectors, (0, 0))[1] == v2[lane]
    assert execute("vmv v0, v3", vectors, (0, 0))[0] == v3


def test_manual_examples_of_section_4_8() -> None:
    """rne(-0.3) = -0, rmm(0.49999997) = 0, sqrt(-0) = -0."""
    vector = [0xBE99999A, 0x3EFFFFFF, 0x80000000] + [0] * 13
    vectors = [vector, vector, vector]
    assert execute("vfround.rne v0, v1", vectors, (0, 0))[0][0] == 0x80000000
    assert execute("vfround.rmm v0, v1", vectors, (0, 0))[0][1] == 0
    assert execute("vfsqrt v0, v1", vectors, (0, 0))[0][2] == 0x80000000


def _to_half(bits: int) -> int:
    """Table 5.1's f16 store: round to nearest even, overflow to inf, NaN 0x7E00."""
    value = to_float(bits)
    if math.isnan(value):
        return 0x7E00
    try:
        return struct.unpack("<H", struct.pack("<e", value))[0]
    except OverflowError:
        return 0xFC00 if value < 0 else 0x7C00


def _to_bfloat(bits: int) -> int:
    """Table 5.1's bf16 store, through ml_dtypes' (round to nearest even)."""
    if math.isnan(to_float(bits)):
        return 0x7FC0
    single = np.array([bits], np.uint32).view(np.float32)
    return int(single.astype(ml_dtypes.bfloat16).view(np.uint16)[0])


def _from_half(half: int) -> int:
    value = struct.unpack("<e", struct.pack("<H", half))[0]
    return NAN if math.isnan(value) else from_float(value)


def _from_bfloat(half: int) -> int:
    return NAN if math.isnan(to_float(half << 16)) else half << 16


DMA_MODES = {
    # mode: (store reference, load reference, DRAM element dtype)
    "i8": (
        lambda w: w & 0xFF,
        lambda b: s32(b - 256 if b > 127 else b) & MASK,
        np.uint8,
    ),
    "u8": (lambda w: w & 0xFF, lambda b: b, np.uint8),
    "i16": (
        lambda w: w & 0xFFFF,
        lambda h: (h - 65536 if h > 32767 else h) & MASK,
        np.uint16,
    ),
    "u16": (lambda w: w & 0xFFFF, lambda h: h, np.uint16),
    "f16": (_to_half, _from_half, np.uint16),
    "bf16": (_to_bfloat, _from_bfloat, np.uint16),
}

MMAC_HARNESS = """
.kernel mm, 2
    li t0, 1 ; dma.cfg t0, zero, zero, raw ; li t1, 5120 ; dma.ld zero, a0, t1, 0
    dma.wait 0 ; li t2, 64 ; mld m1, zero, t2
    li t3, 1024 ; li t4, 2048 ; {first} m1, t3, t4
    li t3, 3072 ; li t4, 4096 ; {second} m1, t3, t4
    li t5, 8192 ; mst m1, t5, t2 ; li t1, 1024 ; dma.st t5, a1, t1, 1 ; halt
"""
MMAC_FORMS = ("mmac", "mmac.ta", "mmac.tb", "mmac.tatb")


def _mmac(m: list[int], a: list[int], b: list[int], form: str) -> list[int]:
    """Section 4.10: for every (i, j), for k in order, M = fl(M + fl(A(i, k)
    B(k, j))), A and B read transposed by .ta / .tb."""
    a_at = (
        (lambda i, k: a[16 * k + i]) if "ta" in form else (lambda i, k: a[16 * i + k])
    )
    b_at = (
        (lambda k, j: b[16 * j + k])
        if form.endswith("tb")
        else (lambda k, j: b[16 * k + j])
    )
    out = list(m)
    for i in range(16):
        for j in range(16):
            for k in range(16):
                product = FLOAT["vfmul"](a_at(i, k), b_at(k, j))
                out[16 * i + j] = FLOAT["vfadd"](out[16 * i + j], product)
    return out


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    first=st.sampled_from(MMAC_FORMS),
    second=st.sampled_from(MMAC_FORMS),
)
def test_mmac(seed: int, first: str, second: str) -> None:
    """Two mmacs onto an accumulator loaded by mld: tiles M, A1, B1, A2, B2 of
    ordinary floats of many magnitudes (so that sums are mostly finite and
    every rounding shows) with 2 % specials and 2 % random words (too large
    for hypothesis to draw)."""
    rng = np.random.default_rng(seed)
    scale = np.exp2(rng.integers(-20, 20, 1280)).astype(np.float32)
    floats = (rng.standard_normal(1280).astype(np.float32) * scale).view(np.uint32)
    specials = np.array(SPECIALS, np.uint32)[rng.integers(0, len(SPECIALS), 1280)]
    random = rng.integers(0, 1 << 32, 1280, dtype=np.uint32)
    kind = rng.random(1280)
    words = np.where(kind < 0.02, specials, np.where(kind < 0.04, random, floats))
    dram = np.zeros(0x10000 + 6144, np.uint8)
    dram[0x10000 : 0x10000 + 5120] = words.view(np.uint8)
    program = assemble(MMAC_HARNESS.format(first=first, second=second))
    Simulator(program, dram).launch("mm", [0x10000, 0x11400])
    m, a1, b1, a2, b2 = words.reshape(5, 256).tolist()
    expected = _mmac(_mmac(m, a1, b1, first), a2, b2, second)
    assert dram[0x11400:0x11800].view(np.uint32).tolist() == expected


DMA_HARNESS = """
.kernel convert, 2
    li t0, 64 ; dma.ld zero, a0, t0, 0 ; dma.wait 0
    li t1, 1 ; dma.cfg t1, zero, zero, {mode} ; li t2, 16
    dma.st zero, a1, t2, 1 ; dma.wait 1
    li t3, 128 ; dma.ld t3, a1, t2, 2 ; dma.wait 2
    li t1, 1 ; dma.cfg t1, zero, zero, raw ; li t4, 0x10100
    dma.st t3, t4, t0, 3 ; halt
"""


@pytest.mark.parametrize("mode", sorted(DMA_MODES))
@settings(max_examples=40, deadline=None)
@given(vector=VECTOR)
def test_dma_conversions(mode: str, vector: list[int]) -> None:
    """Sixteen words stored to DRAM in `mode` (narrowed) and loaded back (widened)."""
    store, load, dtype = DMA_MODES[mode]
    dram = np.zeros(0x10140, np.uint8)
    dram[0x10000:0x10040] = np.array(vector, np.uint32).view(np.uint8)
    Simulator(assemble(DMA_HARNESS.format(mode=mode)), dram).launch(
        "convert", [0x10000, 0x10080]
    )
    narrow = (
        dram[0x10080 : 0x10080 + 16 * np.dtype(dtype).itemsize].view(dtype).tolist()
    )
    assert narrow == [store(w) for w in vector]
    assert dram[0x10100:0x10140].view(np.uint32).tolist() == [load(e) for e in narrow]
