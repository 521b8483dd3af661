"""powf and cbrt on f32.

powf(x, y) = 2^(y log2|x|) is computed in f64: an error e in y log2|x|
becomes a relative error e ln2 in the result, and y log2|x| reaches 150
before the result leaves the f32 range, so log2|x| needs some 36 good bits,
more than f32 holds. In f64 (which vectorizes too, at half the lanes):

* log2|x| = e + log(m)/ln2 with |x| = 2^e m, m in [sqrt(1/2), sqrt(2)), as
  in `logarithm` but with `log(m) = 2s + s^3 R(s^2)`, s = (m-1)/(m+1), R of
  degree 4 fitted minimax (Lawson's algorithm: relative error 2^-44);
* 2^z with z = n + r, n = round(z) by the f64 shifter, |r| <= 1/2:
  `2^r = 1 + r E(r)`, E of degree 7 fitted minimax (relative error 2^-40),
  times 2^n built from n's bits (z clamped to [-200, 200], where f32 has long
  overflowed or underflowed);

and the f64 result is rounded to f32 once, so overflow and subnormal results
come out right. The special values are C99's: pow(x, +-0) = pow(1, y) = 1
even for NaN, pow(-1, +-inf) = 1, a negative finite x to a non-integer y is
NaN, an odd integer y keeps x's sign (-0 and -inf included); the zero and
infinite cases follow from log2(0) = -inf and log2(inf) = inf.

cbrt(x) starts from a guess built on x's bits (a third of the exponent, the
offset chosen to bring the error under 3.2% on [1, 8)) and takes two Halley
steps in f64 (cubic: 3e-2, 3e-5, 3e-14), rounded to f32 once; subnormal x
are scaled by 2^24 first. cbrt keeps +-0, +-inf and NaN.
"""

from __future__ import annotations

from xdsl.dialects.builtin import f32, f64, i32
from xlir.passes.loop.math_approximations.exponential import clamp
from xlir.passes.loop.math_approximations.scalar_builder import (
    INF,
    NAN,
    ScalarBuilder,
    Value,
)

F64_MANTISSA_BITS = 52
F64_EXPONENT_BIAS = 1023
F64_SQRT_HALF_BITS = 0x3FE6A09E667F3BCD
F64_SHIFTER = 6755399441055744.0  # 1.5 * 2^52
F64_SHIFTER_BITS = 0x4338000000000000
F64_LOG2E = 1.4426950408889634
LOG_R = (
    0.666666666757647,
    0.3999999563398552,
    0.2857210788816295,
    0.22176241099492,
    0.19583406089984298,
)
EXP2_E = (
    0.693147180548212,
    0.2402265069811061,
    0.05550410935267702,
    0.009618128616122035,
    0.0013333454859334108,
    0.00015403825460999615,
    1.530915646095325e-05,
    1.31789342028885e-06,
)
CBRT_GUESS_OFFSET = 0x2A510800


def _log2(code: ScalarBuilder, magnitude: Value) -> Value:
    """log2 of a positive f32, in f64 (-inf for 0, inf for inf)."""
    wide = magnitude.extend(f64)
    bits = wide.bits()
    e = (bits - F64_SQRT_HALF_BITS).shr_s(F64_MANTISSA_BITS)
    m = (bits - (e << F64_MANTISSA_BITS)).as_float()
    s = (m - 1.0) / (m + 1.0)
    square = s * s
    log_m = (s + s) + s * square * code.polynomial(square, LOG_R)
    result = e.to_float(f64) + log_m * F64_LOG2E
    result = code.select(magnitude.eq(0.0), -INF, result)
    return code.select(magnitude.eq(INF), INF, result)


def _exp2(code: ScalarBuilder, z: Value) -> Value:
    """2^z for an f64 z, rounded to f32."""
    z = clamp(code, z, -200.0, 200.0)
    shifted = z + F64_SHIFTER
    n = shifted.bits() - F64_SHIFTER_BITS
    r = z - (shifted - F64_SHIFTER)
    mantissa = 1.0 + r * code.polynomial(r, EXP2_E)
    scale = ((n + F64_EXPONENT_BIAS) << F64_MANTISSA_BITS).as_float()
    return (mantissa * scale).truncate(f32)


def powf(code: ScalarBuilder, x: Value, y: Value) -> Value:
    magnitude = _exp2(code, y.extend(f64) * _log2(code, x.abs()))
    # y's integer part where |y| < 2^24 (above, every f32 is an even integer)
    below = y.abs().lt(2.0**24)
    whole = code.select(below, y, 0.0).to_int(i32)
    integer = whole.to_float(f32).eq(y) | y.abs().ge(2.0**24)
    odd = below & (whole & 1).eq(1) & integer
    result = code.select(x.bits().lt(0) & odd, -magnitude, magnitude)
    negative_finite = x.lt(0.0) & x.gt(-INF)
    result = code.select(negative_finite & ~integer, NAN, result)
    result = code.select(x.is_nan() | y.is_nan(), NAN, result)
    result = code.select(x.abs().eq(1.0) & y.abs().eq(INF), 1.0, result)
    return code.select(y.eq(0.0) | x.eq(1.0), 1.0, result)


def cbrt(code: ScalarBuilder, x: Value) -> Value:
    magnitude = x.abs()
    subnormal = magnitude.lt(2.0**-126)
    scaled = code.select(subnormal, magnitude * 2.0**24, magnitude)
    guess = (scaled.bits().div_u(3) + CBRT_GUESS_OFFSET).as_float()
    target = scaled.extend(f64)
    root = guess.extend(f64)
    for _ in range(2):
        cube = root * root * root
        root = root * (cube + target + target) / (cube + cube + target)
    result = root.truncate(f32)
    result = code.select(subnormal, result * 2.0**-8, result)
    special = magnitude.eq(0.0) | magnitude.eq(INF) | x.is_nan()
    return code.select(special, x, result.copysign(x))
