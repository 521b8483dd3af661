"""The lane operations of XA-1's vector unit (manual sections 4.1, 4.7, 4.8), as
numpy functions over uint32 bit patterns: one call per vector instruction.

Float arguments and results are bit patterns too; every float result is passed
through `canonical`, since the manual makes every produced NaN 0x7FC00000."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

U32 = NDArray[np.uint32]
CANONICAL_NAN = np.uint32(0x7FC00000)
Binary = Callable[[U32, U32], U32]
Unary = Callable[[U32], U32]


def f32(a: U32) -> NDArray[np.float32]:
    return a.view(np.float32)


def i32(a: U32) -> NDArray[np.int32]:
    return a.view(np.int32)


def canonical(r: NDArray[np.float32]) -> U32:
    """The bits of float result `r` (a fresh array: changed in place), every NaN
    made the canonical NaN."""
    bits = r.view(np.uint32)
    np.putmask(bits, r != r, CANONICAL_NAN)
    return bits


def _u(a: NDArray) -> U32:
    return a.astype(np.uint32)


def _div(a: U32, b: U32) -> U32:
    x, y = i32(a).astype(np.int64), i32(b).astype(np.int64)
    q = np.abs(x) // np.maximum(np.abs(y), 1) * np.sign(x) * np.sign(y)
    return np.where(b == 0, np.uint32(0xFFFFFFFF), q.astype(np.uint32))


def _rem(a: U32, b: U32) -> U32:
    x, y = i32(a).astype(np.int64), i32(b).astype(np.int64)
    r = np.abs(x) % np.maximum(np.abs(y), 1) * np.sign(x)
    return np.where(b == 0, a, r.astype(np.uint32))


def _shift(a: U32, b: U32, op: Callable[[U32, U32], U32]) -> U32:
    return np.where(b >= 32, np.uint32(0), op(a, b & np.uint32(31)))


INTEGER: dict[str, Binary] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": _div,
    "divu": lambda a, b: np.where(b == 0, np.uint32(0xFFFFFFFF), a // np.maximum(b, 1)),
    "rem": _rem,
    "remu": lambda a, b: np.where(b == 0, a, a % np.maximum(b, 1)),
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "sll": lambda a, b: _shift(a, b, np.left_shift),
    "srl": lambda a, b: _shift(a, b, np.right_shift),
    "sra": lambda a, b: (i32(a) >> i32(np.minimum(b, 31))).view(np.uint32),
    "slt": lambda a, b: _u(i32(a) < i32(b)),
    "sltu": lambda a, b: _u(a < b),
    "sle": lambda a, b: _u(i32(a) <= i32(b)),
    "sleu": lambda a, b: _u(a <= b),
    "seq": lambda a, b: _u(a == b),
    "sne": lambda a, b: _u(a != b),
    "min": lambda a, b: np.minimum(i32(a), i32(b)).view(np.uint32),
    "minu": np.minimum,
    "max": lambda a, b: np.maximum(i32(a), i32(b)).view(np.uint32),
    "maxu": np.maximum,
}
"""Table 3.3 by name; the scalar unit's semantics too (section 4.1)."""


def _min_max(a: U32, b: U32, smaller: bool) -> U32:
    x, y = f32(a), f32(b)
    first, second = (x < y, y < x) if smaller else (x > y, y > x)
    # Equal values differ only as -0/+0: min ors the sign bits, max ands them.
    equal = (a | b) if smaller else (a & b)
    r = np.where(first, a, np.where(second, b, equal))
    return np.where((x != x) | (y != y), CANONICAL_NAN, r)


FLOAT: dict[str, Binary] = {
    "vfadd": lambda a, b: canonical(f32(a) + f32(b)),
    "vfsub": lambda a, b: canonical(f32(a) - f32(b)),
    "vfmul": lambda a, b: canonical(f32(a) * f32(b)),
    "vfdiv": lambda a, b: canonical(f32(a) / f32(b)),
    "vfmin": lambda a, b: _min_max(a, b, True),
    "vfmax": lambda a, b: _min_max(a, b, False),
    "vfeq": lambda a, b: _u(f32(a) == f32(b)),
    "vfne": lambda a, b: _u(f32(a) != f32(b)),
    "vflt": lambda a, b: _u(f32(a) < f32(b)),
    "vfle": lambda a, b: _u(f32(a) <= f32(b)),
}
"""Section 4.7 by mnemonic."""


def _to_int(a: U32, low: float, high: float, dtype: type) -> U32:
    """Truncate toward zero, NaN to 0, saturating to [low, high]."""
    x = np.trunc(f32(a).astype(np.float64))
    x = np.where(x != x, 0.0, np.clip(x, low, high))
    return x.astype(dtype).view(np.uint32) if dtype is np.int32 else x.astype(np.uint32)


def _round_half_away(a: U32) -> U32:
    x = f32(a)
    t = np.trunc(x)
    away = np.abs(x - t) >= np.float32(0.5)
    return canonical(np.where(away, t + np.copysign(np.float32(1.0), x), t))


def _tree(op: Binary) -> Unary:
    """Section 4.8's reduction tree over the 16 lanes, its result in every lane."""

    def reduce(a: U32) -> U32:
        a = op(a[:8], a[8:])
        a = op(a[:4], a[4:])
        a = op(a[:2], a[2:])
        return np.repeat(op(a[:1], a[1:]), 16)

    return reduce


UNARY: dict[str, Unary] = {
    "vfsqrt": lambda a: canonical(np.sqrt(f32(a))),
    "vcvt.f32.i32": lambda a: canonical(i32(a).astype(np.float32)),
    "vcvt.i32.f32": lambda a: _to_int(a, -(2.0**31), 2.0**31 - 1, np.int32),
    "vcvt.f32.u32": lambda a: canonical(a.astype(np.float64).astype(np.float32)),
    "vcvt.u32.f32": lambda a: _to_int(a, 0.0, 2.0**32 - 1, np.uint32),
    "vfround.rne": lambda a: canonical(np.rint(f32(a))),
    "vfround.rtz": lambda a: canonical(np.trunc(f32(a))),
    "vfround.rdn": lambda a: canonical(np.floor(f32(a))),
    "vfround.rup": lambda a: canonical(np.ceil(f32(a))),
    "vfround.rmm": _round_half_away,
    "vredsum.f": _tree(FLOAT["vfadd"]),
    "vredmax.f": _tree(FLOAT["vfmax"]),
    "vredmin.f": _tree(FLOAT["vfmin"]),
    "vredsum": _tree(INTEGER["add"]),
    "vredmax": _tree(INTEGER["max"]),
    "vredmin": _tree(INTEGER["min"]),
}
"""Section 4.8 by mnemonic."""


def fmadd(a: U32, b: U32, c: U32) -> U32:
    """fl(fl(a*b) + c): two roundings."""
    return canonical(f32(a) * f32(b) + f32(c))
