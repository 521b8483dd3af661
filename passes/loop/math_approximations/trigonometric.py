"""sin, cos and tan on f32.

|x| is reduced to r in [-pi/4, pi/4] and a quadrant n (`angle_reduction`),
r as an f32 pair r + low, then with `sin(r) = r + r^3 S(r^2)` and
`cos(r) = 1 - r^2/2 + r^4 C(r^2)` (S and C of degree 2, fitted minimax by
Lawson's algorithm: relative error 2^-28 and 2^-33 on [0, pi/4],
coefficients rounded to f32), the low part added to first order, and the
rounding error of 1 - r^2/2 recovered exactly and added back:

* sin(x) = +-sin(r) or +-cos(r) by n mod 4, the sign flipped for x < 0;
* cos(x) likewise (cos is even);
* tan(x) = sin(r)/cos(r) for even n, -cos(r)/sin(r) for odd n.

Signs are applied by xoring the sign bit, so sin(-0) = tan(-0) = -0.
sin, cos and tan of +-inf and NaN are NaN.
"""

from __future__ import annotations

from xlir.passes.loop.math_approximations.angle_reduction import Reduced
from xlir.passes.loop.math_approximations.scalar_builder import (
    INF,
    NAN,
    ScalarBuilder,
    Value,
)

SIN_S = (-0.16666655242443085, 0.00833216030150652, -0.00019515218446031213)
COS_C = (0.04166664555668831, -0.0013887315290048718, 2.4433082217001356e-05)
SIGN_BIT = 0x80000000


class _Parts:
    """sin(r), cos(r) and the quadrant of a reduced argument."""

    def __init__(self, code: ScalarBuilder, x: Value):
        reduced = Reduced(code, x)
        r, low = reduced.angle, reduced.angle_low
        square = r * r
        # sin(r + low) ~ sin(r) + low, cos(r + low) ~ cos(r) - r low
        self.sin = r + (r * square * code.polynomial(square, SIN_S) + low)
        half = 0.5 * square
        rounded = 1.0 - half
        tail = square * square * code.polynomial(square, COS_C) - r * low
        self.cos = rounded + (((1.0 - rounded) - half) + tail)
        self.quadrant = reduced.quadrant
        self.odd = (self.quadrant & 1).eq(1)


def _flip_sign(value: Value, sign_bit: Value) -> Value:
    """value with its sign bit xored with `sign_bit` (an i32 of 0 or 1 << 31)."""
    return (value.bits() ^ sign_bit).as_float()


def _finite_only(code: ScalarBuilder, x: Value, result: Value) -> Value:
    return code.select(x.abs().lt(INF), result, NAN)


def sin(code: ScalarBuilder, x: Value) -> Value:
    parts = _Parts(code, x)
    value = code.select(parts.odd, parts.cos, parts.sin)
    sign = ((parts.quadrant & 2) << 30) ^ (x.bits() & SIGN_BIT)
    return _finite_only(code, x, _flip_sign(value, sign))


def cos(code: ScalarBuilder, x: Value) -> Value:
    parts = _Parts(code, x)
    value = code.select(parts.odd, parts.sin, parts.cos)
    sign = ((parts.quadrant + 1) & 2) << 30
    return _finite_only(code, x, _flip_sign(value, sign))


def tan(code: ScalarBuilder, x: Value) -> Value:
    parts = _Parts(code, x)
    numerator = code.select(parts.odd, -parts.cos, parts.sin)
    denominator = code.select(parts.odd, parts.sin, parts.cos)
    value = numerator / denominator
    return _finite_only(code, x, _flip_sign(value, x.bits() & SIGN_BIT))
