"""log and log1p on f32.

A positive normal u is 2^e m with m in [sqrt(1/2), sqrt(2)): subtracting the
bits of sqrt(1/2) from u's bits leaves e in the bits above the mantissa, and
taking e back out of the exponent field leaves m. f = m - 1 is then exact
(Sterbenz), and `log1p(f) = f - f^2/2 + f^3 Q(f)`, Q of degree 7 fitted
minimax (Lawson's algorithm, relative error 2^-27 on [sqrt(1/2) - 1,
sqrt(2) - 1]), coefficients rounded to f32. The sum is ordered so that f,
the large exact term, is added last, and e ln2 is split in an exact high
part (ln2 with trailing zero bits) and a low part, as in Cody and Waite.

log scales a subnormal x by 2^23 first. log1p(x) takes u = 1 + x, rounded,
and adds log(1 + c/u) ~ c/u for the rounding error c = x - (u - 1), which
is exact whenever u <= 2^24 (above, c/u is far below an ulp of log(u)); for
|x| < 2^-24 it is x itself (keeps -0).

Special values: log(+-0) = -inf, log(+inf) = +inf, log(x < 0) and log(NaN)
are NaN; log1p(-1) = -inf, log1p(x < -1) is NaN.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i32
from xlir.passes.loop.math_approximations.exponential import (
    F32_MANTISSA_BITS,
    LN2_HI,
    LN2_LO,
)
from xlir.passes.loop.math_approximations.scalar_builder import (
    INF,
    NAN,
    ScalarBuilder,
    Value,
)

SQRT_HALF_BITS = 0x3F3504F3
LOG1P_Q = (
    0.3333333134651184,
    -0.2500081956386566,
    0.20001226663589478,
    -0.16623356938362122,
    0.14201758801937103,
    -0.13160184025764465,
    0.1276157647371292,
    -0.07634493708610535,
)
SMALLEST_NORMAL = 2.0**-126


def _log_of_normal(
    code: ScalarBuilder, u: Value, e_offset: Value | None, correction: Value | None
) -> Value:
    """log(u * 2^e_offset) + correction, for a positive normal finite u (no
    offset, no correction where None)."""
    bits = u.bits()
    e = (bits - SQRT_HALF_BITS).shr_s(F32_MANTISSA_BITS)
    f = (bits - (e << F32_MANTISSA_BITS)).as_float() - 1.0
    if e_offset is not None:
        e = e + e_offset
    e_float = e.to_float(u.type)
    half_square = 0.5 * (f * f)
    tail = f * (f * f) * code.polynomial(f, LOG1P_Q) + e_float * LN2_LO
    if correction is not None:
        tail = tail + correction
    return e_float * LN2_HI + (f - (half_square - tail))


def log(code: ScalarBuilder, x: Value) -> Value:
    subnormal = x.lt(SMALLEST_NORMAL)
    scaled = code.select(subnormal, x * 2.0**23, x)
    offset = code.select(subnormal, code.const(-23, i32), 0)
    result = _log_of_normal(code, scaled, offset, None)
    result = code.select(x.eq(INF), INF, result)
    result = code.select(x.eq(0.0), -INF, result)
    return code.select(x.compare("ult", 0.0), NAN, result)


def log1p(code: ScalarBuilder, x: Value) -> Value:
    u = x + 1.0
    correction = (x - (u - 1.0)) / u
    result = _log_of_normal(code, u, None, correction)
    result = code.select(x.abs().lt(2.0**-24), x, result)
    result = code.select(x.eq(INF), INF, result)
    result = code.select(x.eq(-1.0), -INF, result)
    return code.select(x.compare("ult", -1.0), NAN, result)
