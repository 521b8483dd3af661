"""tanh on f32 without exp: a rational function at half the argument, then
the double-argument formula. About 20 ops and two divisions, where going
through expm1 (a range reduction, a polynomial, 2^k from its bits) took
about 50.

The usual fast tanh, one clamped rational x P(x^2)/Q(x^2), is not accurate
enough in f32 (measured: 6 ulp, for degrees 4/4, 5/4, 5/5 and 6/3 fitted
on [0, 9.1]): Horner's rule on x^2 up to 83 piles up rounding errors, and
for small x, P and Q lie just above 1, where an ulp is up to twice as
coarse relative to the value as the result's, so their roundings alone cost
an ulp each. Instead, with a = |x| clamped to 9.1 (tanh is 1 in f32 from
9.01 on):

* v = 2 tanh(a/2) = a - a^3 D(a^2) / Q(a^2), D and Q of degree 2. For
  small a, D/Q only feeds a correction of relative size a^2/12, so its
  rounding errors barely reach v.
* tanh(a) = v / (1 + v^2/4) (tanh 2y = 2 tanh y / (1 + tanh^2 y)). It
  divides v's relative error by (1 + t^2)/(1 - t^2), t = tanh(a/2): by 10
  at a = 3, by thousands near the clamp, where the Horner errors are.
* The result takes x's sign (copysign).

D/Q fits h(s) = (1 - tanh(y)/y) / s, s = y^2, on y in [0, 4.55], weighted
by how much a relative error of h reaches tanh(2y), (y - t)/t (1 - t^2)/
(1 + t^2) with t = tanh y: near-minimax by Loeb's linearization (least
squares of (D - h Q) / Q_previous) with Lawson's reweighting, in float64
with numpy, to a weighted error of 2^-26; then rescaled from (a/2)^2 to a^2
and rounded to f32. Measured on every f32: at most 2 ulp.

Special values need no select: for |x| below 2^-12, a^3 D/Q is under half
an ulp of a, so v = a and 1 + v^2/4 = 1: tanh(x) = x, signed zeros and
subnormals included. Infinities are clamped to 9.1, where the formula gives
exactly 1. NaN stays NaN (the clamp is a select on an ordered compare).
"""

from __future__ import annotations

from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder, Value

SATURATION = 9.1
"""|x| is clamped here: tanh rounds to 1 in f32 above 9.01, and the
approximation gives exactly 1 at 9.1."""
HALF_ARGUMENT_D = (0.08333326876163483, 0.0009743664413690567, 6.940379648767703e-08)
HALF_ARGUMENT_Q = (1.0, 0.11169160902500153, 0.0010511912405490875)
"""D and Q of the module docstring, in powers of a^2 from the constant."""


def tanh(code: ScalarBuilder, x: Value) -> Value:
    magnitude = x.abs()
    magnitude = code.select(magnitude.gt(SATURATION), SATURATION, magnitude)
    square = magnitude * magnitude
    correction = (magnitude * square) * code.polynomial(square, HALF_ARGUMENT_D)
    twice_tanh_half = magnitude - correction / code.polynomial(square, HALF_ARGUMENT_Q)
    quarter_square = twice_tanh_half * twice_tanh_half * 0.25
    return (twice_tanh_half / (quarter_square + 1.0)).copysign(x)
