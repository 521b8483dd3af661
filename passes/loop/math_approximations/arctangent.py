"""atan2 on f32.

With a = min(|x|, |y|) and b = max(|x|, |y|), atan2 is atan(a/b) moved into
its octant: pi/2 - it when |y| > |x|, pi - that when x is negative (sign bit
set, so -0 too), then given y's sign. atan(a/b) in [0, pi/4] is reduced once
more: above tan(pi/8), atan(a/b) = pi/4 + atan(t) with t = (a - b)/(a + b)
(a and b halved first near the top of the range, so a + b cannot overflow),
so one division gives t in [-tan(pi/8), tan(pi/8)], where
`atan(t) = t + t^3 A(t^2)`, A of degree 4 fitted minimax (Lawson's
algorithm: relative error 2^-30), coefficients rounded to f32.

All the octant moves make the result `k pi/4 +- atan(t)` for k in 0..4: k
pi/4 is a high part (pi/4 rounded to 21 bits, so k times it is exact) plus a
low part, added in the order that rounds once at the end.

Special values as C99's: both zero gives +-0 or +-pi by x's sign bit, both
infinite +-pi/4 or +-3pi/4 (handled as |x| = |y| = 1), an infinite y
+-pi/2, an infinite x +-0 or +-pi, NaN anywhere NaN.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i32
from xlir.passes.loop.math_approximations.scalar_builder import (
    INF,
    NAN,
    ScalarBuilder,
    Value,
)

ATAN_A = (
    -0.33333316445350647,
    0.19998469948768616,
    -0.14243511855602264,
    0.10593640059232712,
    -0.06077760085463524,
)
TAN_PI_OVER_8 = 0.4142135679721832
QUARTER_PI_HI = 0.785398006439209  # 0x3F490FD8: 21 significant bits
QUARTER_PI_LO = 1.5695823663008923e-07


def atan2(code: ScalarBuilder, y: Value, x: Value) -> Value:
    ax, ay = x.abs(), y.abs()
    both_infinite = ax.eq(INF) & ay.eq(INF)
    ax = code.select(both_infinite, 1.0, ax)
    ay = code.select(both_infinite, 1.0, ay)
    ax = code.select(ax.eq(0.0) & ay.eq(0.0), 1.0, ax)
    swapped = ay.gt(ax)
    big, small = code.select(swapped, ay, ax), code.select(swapped, ax, ay)
    near_one = small.gt(big * TAN_PI_OVER_8)
    halve = big.ge(2.0**126)
    big_h = code.select(halve, big * 0.5, big)
    small_h = code.select(halve, small * 0.5, small)
    t = code.select(near_one, small_h - big_h, small) / code.select(
        near_one, small_h + big_h, big
    )
    square = t * t
    atan_t = t + t * square * code.polynomial(square, ATAN_A)

    one, zero = code.const(1, i32), code.const(0, i32)
    octant = code.select(near_one, one, zero)
    octant = code.select(swapped, 2 - octant, octant)
    negative_x = x.bits().lt(0)
    octant = code.select(negative_x, 4 - octant, octant)
    subtract = swapped ^ negative_x
    signed_atan = code.select(subtract, -atan_t, atan_t)
    k = octant.to_float(x.type)
    angle = k * QUARTER_PI_HI + (signed_atan + k * QUARTER_PI_LO)
    result = angle.copysign(y)
    return code.select(x.is_nan() | y.is_nan(), NAN, result)
