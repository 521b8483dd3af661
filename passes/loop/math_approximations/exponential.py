"""exp and expm1 on f32, from one kernel: expm1 on a reduced argument.

Cody-Waite reduction: x = k ln2 + r with k = round(x / ln2) and |r| <= ln2/2.
k is rounded by adding and subtracting 1.5 * 2^23 (the "shifter"), which
leaves k in the low bits of the sum, so no float-to-int conversion (poison
in LLVM for NaN) is needed. ln2 is split in a high part with trailing zero
bits, so `k * LN2_HI` is exact, and a low part, so r carries about 32 bits.

On r, `expm1(r) = r + r^2/2 + r^3 P(r)`, P of degree 4 fitted minimax
(Lawson's algorithm, relative error 2^-31 on [-ln2/2, ln2/2]), its
coefficients rounded to f32. Then:

* exp(x) = 2^k (1 + expm1(r)), scaled by 2^(k/2) and 2^(k - k/2) in two
  multiplies so that k from -150 (underflow to 0, through the subnormals) to
  128 (overflow to inf) needs no special case: x is clamped to [-104, 89]
  first, beyond which the result is 0 or inf anyway.
* expm1(x) = (2^k - 1) + 2^k expm1(r), where `2^k - 1` is exact for
  |k| <= 24; above, expm1 is exp (the -1 is below half an ulp). For
  |x| < 2^-25 it is x itself (keeps -0).

NaN goes through every step as NaN: the clamps are selects on ordered
compares, which keep it.
"""

from __future__ import annotations

from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder, Value

LOG2E = 1.4426950216293335
LN2_HI = 0.693145751953125  # 0x3F317200: 15 significant bits
LN2_LO = 1.428606765330187e-06
SHIFTER = 12582912.0  # 1.5 * 2^23
SHIFTER_BITS = 0x4B400000
EXPM1_P = (
    0.1666666567325592,
    0.041666481643915176,
    0.0083334194496274,
    0.00139332446269691,
    0.0001982412941288203,
)
F32_EXPONENT_BIAS = 127
F32_MANTISSA_BITS = 23


def clamp(code: ScalarBuilder, x: Value, low: float, high: float) -> Value:
    """x limited to [low, high]; NaN stays NaN (ordered compares)."""
    x = code.select(x.lt(low), low, x)
    return code.select(x.gt(high), high, x)


def power_of_two(k: Value) -> Value:
    """2^k as an f32, for an i32 k in [-126, 127]."""
    return ((k + F32_EXPONENT_BIAS) << F32_MANTISSA_BITS).as_float()


class _Reduced:
    """x = k ln2 + r: expm1(r), and 2^k as two factors (each a normal f32 for
    k in [-150, 128], so multiplying by both rounds once)."""

    def __init__(self, code: ScalarBuilder, x: Value):
        shifted = x * LOG2E + SHIFTER
        k_float = shifted - SHIFTER
        self.k = shifted.bits() - SHIFTER_BITS
        r = (x - k_float * LN2_HI) - k_float * LN2_LO
        self.expm1_r = r + r * r * code.polynomial(r, (0.5, *EXPM1_P))
        half = self.k.shr_s(1)
        self.scales = power_of_two(half), power_of_two(self.k - half)

    def exp(self) -> Value:
        first, second = self.scales
        return ((self.expm1_r + 1.0) * first) * second


def exp(code: ScalarBuilder, x: Value) -> Value:
    return _Reduced(code, clamp(code, x, -104.0, 89.0)).exp()


def expm1(code: ScalarBuilder, x: Value) -> Value:
    x = clamp(code, x, -104.0, 89.0)
    reduced = _Reduced(code, x)
    first, second = reduced.scales
    scale = first * second  # exact where it is used: |k| <= 24
    moderate = (scale - 1.0) + scale * reduced.expm1_r
    result = code.select(reduced.k.gt(24), reduced.exp(), moderate)
    return code.select(x.abs().lt(2.0**-25), x, result)
