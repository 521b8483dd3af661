"""The lane operations of XA-1's vector unit (manual sections 4.1, 4.7, 4.8), as
numpy functions over the lanes of registers: one or a few numpy calls per
vector instruction, writing into the destination's lanes in place.

A register's lanes are `Lanes`: its uint32 bit patterns with their float32
and int32 views, made once per register (a view costs as much as the
arithmetic on 16 lanes). An operation may write into one of its operands.
Every float result is passed through `canonical`, since the manual makes
every produced NaN 0x7FC00000."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

U32 = NDArray[np.uint32]
CANONICAL_NAN = np.uint32(0x7FC00000)
_CANONICAL_FLOAT = CANONICAL_NAN.view(np.float32)


class Lanes(NamedTuple):
    """The same words as u32, f32 and i32."""

    u: U32
    f: NDArray[np.float32]
    i: NDArray[np.int32]


def lanes_of(words: U32) -> Lanes:
    return Lanes(words, words.view(np.float32), words.view(np.int32))


Binary = Callable[[Lanes, Lanes, Lanes], object]
"""op(a, b, out): writes out (what it returns is ignored)."""
Unary = Callable[[Lanes, Lanes], object]
"""op(a, out): writes out."""


def f32(a: U32) -> NDArray[np.float32]:
    return a.view(np.float32)


def i32(a: U32) -> NDArray[np.int32]:
    return a.view(np.int32)


def canonical(r: NDArray[np.float32]) -> None:
    """Make every NaN of float result `r` the canonical NaN, in place. The sum
    of squares is NaN exactly when a lane is (squares are never -inf), and is
    one call where the fix-up is two."""
    if math.isnan(r.dot(r)):
        np.copyto(r, _CANONICAL_FLOAT, where=r != r)


def _float(op: np.ufunc) -> Binary:
    def run(a: Lanes, b: Lanes, out: Lanes) -> None:
        op(a.f, b.f, out=out.f)
        canonical(out.f)

    return run


def _via(compute: Callable[[U32, U32], NDArray]) -> Binary:
    """An operation computed into a new array, then copied to `out`."""
    return lambda a, b, out: np.copyto(out.u, compute(a.u, b.u), casting="unsafe")


def _via_unary(compute: Callable[[U32], NDArray]) -> Unary:
    return lambda a, out: np.copyto(out.u, compute(a.u), casting="unsafe")


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
    "add": lambda a, b, out: np.add(a.u, b.u, out=out.u),
    "sub": lambda a, b, out: np.subtract(a.u, b.u, out=out.u),
    "mul": lambda a, b, out: np.multiply(a.u, b.u, out=out.u),
    "div": _via(_div),
    "divu": _via(
        lambda a, b: np.where(b == 0, np.uint32(0xFFFFFFFF), a // np.maximum(b, 1))
    ),
    "rem": _via(_rem),
    "remu": _via(lambda a, b: np.where(b == 0, a, a % np.maximum(b, 1))),
    "and": lambda a, b, out: np.bitwise_and(a.u, b.u, out=out.u),
    "or": lambda a, b, out: np.bitwise_or(a.u, b.u, out=out.u),
    "xor": lambda a, b, out: np.bitwise_xor(a.u, b.u, out=out.u),
    "sll": _via(lambda a, b: _shift(a, b, np.left_shift)),
    "srl": _via(lambda a, b: _shift(a, b, np.right_shift)),
    "sra": _via(lambda a, b: i32(a) >> i32(np.minimum(b, 31))),
    "slt": lambda a, b, out: np.less(a.i, b.i, out=out.u),
    "sltu": lambda a, b, out: np.less(a.u, b.u, out=out.u),
    "sle": lambda a, b, out: np.less_equal(a.i, b.i, out=out.u),
    "sleu": lambda a, b, out: np.less_equal(a.u, b.u, out=out.u),
    "seq": lambda a, b, out: np.equal(a.u, b.u, out=out.u),
    "sne": lambda a, b, out: np.not_equal(a.u, b.u, out=out.u),
    "min": lambda a, b, out: np.minimum(a.i, b.i, out=out.i),
    "minu": lambda a, b, out: np.minimum(a.u, b.u, out=out.u),
    "max": lambda a, b, out: np.maximum(a.i, b.i, out=out.i),
    "maxu": lambda a, b, out: np.maximum(a.u, b.u, out=out.u),
}
"""Table 3.3 by name; the scalar unit's semantics too (section 4.1)."""


def _min_max(smaller: bool) -> Binary:
    """IEEE 754-2019 minimum / maximum: NaN if either lane is, and -0 < +0."""
    op = np.minimum if smaller else np.maximum
    signs = np.bitwise_or if smaller else np.bitwise_and

    def run(a: Lanes, b: Lanes, out: Lanes) -> None:
        # Equal lanes differ only as -0/+0: min ors the sign bits, max ands them.
        # Both before `out` is written: it may be a or b.
        equal, bits = a.f == b.f, signs(a.u, b.u)
        op(a.f, b.f, out=out.f)
        np.copyto(out.u, bits, where=equal)
        canonical(out.f)

    return run


FLOAT: dict[str, Binary] = {
    "vfadd": _float(np.add),
    "vfsub": _float(np.subtract),
    "vfmul": _float(np.multiply),
    "vfdiv": _float(np.divide),
    "vfmin": _min_max(smaller=True),
    "vfmax": _min_max(smaller=False),
    "vfeq": lambda a, b, out: np.equal(a.f, b.f, out=out.u),
    "vfne": lambda a, b, out: np.not_equal(a.f, b.f, out=out.u),
    "vflt": lambda a, b, out: np.less(a.f, b.f, out=out.u),
    "vfle": lambda a, b, out: np.less_equal(a.f, b.f, out=out.u),
}
"""Section 4.7 by mnemonic."""


def _to_int(a: U32, low: float, high: float, dtype: type) -> U32:
    """Truncate toward zero, NaN to 0, saturating to [low, high]."""
    x = np.trunc(f32(a).astype(np.float64))
    x = np.where(x != x, 0.0, np.clip(x, low, high))
    return x.astype(dtype).view(np.uint32) if dtype is np.int32 else x.astype(np.uint32)


def _round_half_away(x: NDArray[np.float32]) -> NDArray[np.float32]:
    t = np.trunc(x)
    away = np.abs(x - t) >= np.float32(0.5)
    return np.where(away, t + np.copysign(np.float32(1.0), x), t)


def _tree(op: Binary) -> Unary:
    """Section 4.8's reduction tree over the 16 lanes, its result in every lane."""

    def reduce(a: Lanes, out: Lanes) -> None:
        words = a.u.copy()
        for half in (8, 4, 2, 1):
            low = lanes_of(words[:half])
            op(low, lanes_of(words[half : 2 * half]), low)
        out.u[...] = words[0]

    return reduce


def _float_unary(
    compute: Callable[[NDArray[np.float32]], NDArray[np.float32]],
) -> Unary:
    """A float result computed into a new array from the float lanes."""

    def run(a: Lanes, out: Lanes) -> None:
        np.copyto(out.f, compute(a.f))
        canonical(out.f)

    return run


UNARY: dict[str, Unary] = {
    "vfsqrt": _float_unary(np.sqrt),
    "vcvt.f32.i32": lambda a, out: np.copyto(out.f, a.i.astype(np.float32)),
    "vcvt.i32.f32": _via_unary(lambda a: _to_int(a, -(2.0**31), 2.0**31 - 1, np.int32)),
    "vcvt.f32.u32": lambda a, out: np.copyto(
        out.f, a.u.astype(np.float64).astype(np.float32)
    ),
    "vcvt.u32.f32": _via_unary(lambda a: _to_int(a, 0.0, 2.0**32 - 1, np.uint32)),
    "vfround.rne": _float_unary(np.rint),
    "vfround.rtz": _float_unary(np.trunc),
    "vfround.rdn": _float_unary(np.floor),
    "vfround.rup": _float_unary(np.ceil),
    "vfround.rmm": _float_unary(_round_half_away),
    "vredsum.f": _tree(FLOAT["vfadd"]),
    "vredmax.f": _tree(FLOAT["vfmax"]),
    "vredmin.f": _tree(FLOAT["vfmin"]),
    "vredsum": _tree(INTEGER["add"]),
    "vredmax": _tree(INTEGER["max"]),
    "vredmin": _tree(INTEGER["min"]),
}
"""Section 4.8 by mnemonic."""


def fmadd(a: Lanes, b: Lanes, c: Lanes, out: Lanes) -> None:
    """fl(fl(a*b) + c): two roundings."""
    np.add(a.f * b.f, c.f, out=out.f)
    canonical(out.f)
