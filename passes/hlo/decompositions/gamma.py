"""lgamma and digamma: reflection, a shift by 8, then Stirling's series.

* x < 0.5 is reflected: lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x)
  and digamma(x) = digamma(1 - x) - pi / tan(pi x), with the sine and tangent
  taken of r = x - round(x), exact, so large |x| loses nothing to pi * x
  (and log(pi / |sin(pi r)|) is taken as -log|r| - log(sin(pi r) / (pi r)),
  so tiny and subnormal r keep their digits).
* z < 8 is shifted to z + 8: lgamma(z) = lgamma(z + 8) - log(z (z+1) ...
  (z+7)), digamma(z) = digamma(z + 8) - sum 1 / (z + k).
* For z >= 8 the asymptotic series with Bernoulli numbers converges fast:
  4 terms reach f32 accuracy, 9 terms f64.

Poles: lgamma is +inf at 0, -1, -2, …; digamma is NaN there (as XLA's);
lgamma(+-inf) = +inf. Near the zeros of lgamma (1 and 2) and of digamma
(1.4616…) the result is accurate in absolute, not relative, terms, since it
is a difference of two numbers near 2 (XLA's Lanczos form shares this).
"""

from __future__ import annotations

import math
from fractions import Fraction

from xdsl.ir import SSAValue
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
)
from xlir.passes.hlo.decompositions.emitter import Emitter

LT, EQ, LE = ComparisonDirection.LT, ComparisonDirection.EQ, ComparisonDirection.LE

_SHIFT = 8
_BERNOULLI = [Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30),
              Fraction(5, 66), Fraction(-691, 2730), Fraction(7, 6),
              Fraction(-3617, 510), Fraction(43867, 798)]  # fmt: skip
"""B_2, B_4, …, B_18."""


def _series(e: Emitter, scale) -> list[float]:
    """Coefficients B2k * scale(k), highest k first, as many as the type
    needs."""
    terms = list(enumerate(_BERNOULLI[: 9 if e.is_f64 else 4], start=1))
    return [float(b * scale(k)) for k, b in reversed(terms)]


def _reflect(e: Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue, SSAValue]:
    """(x < 0.5, the argument the series sees, r = x - round(x), pi * r)."""
    reflected = e.compare(LT, x, e.const(0.5))
    z = e.select(reflected, e.sub(e.const(1.0), x), x)
    r = e.sub(x, e.unary(ew.RoundNearestEvenOp, x))
    return reflected, z, r, e.mul(r, e.const(math.pi))


def _shift(e: Emitter, z: SSAValue) -> tuple[SSAValue, SSAValue, list[SSAValue]]:
    """(z < 8, z or z + 8, [z, z + 1, …, z + 7])."""
    shifted = e.compare(LT, z, e.const(float(_SHIFT)))
    steps = [z] + [e.add(z, e.const(float(k))) for k in range(1, _SHIFT)]
    return shifted, e.select(shifted, e.add(z, e.const(float(_SHIFT))), z), steps


def _pole(e: Emitter, x: SSAValue, pi_r: SSAValue) -> SSAValue:
    """x is 0, -1, -2, …"""
    return e.and_(e.compare(LE, x, e.const(0.0)), e.compare(EQ, pi_r, e.const(0.0)))


def lgamma(e: Emitter, x: SSAValue) -> SSAValue:
    reflected, z0, r, pi_r = _reflect(e, x)
    shifted, z, steps = _shift(e, z0)
    product = steps[0]
    for step in steps[1:]:
        product = e.mul(product, step)
    # Stirling: (z - 1/2)(log z - 1) - 1/2 + log(2 pi)/2 + sum B2k / (2k(2k-1) z^(2k-1))
    w = e.div(e.const(1.0), e.mul(z, z))
    series = e.div(
        e.polynomial(w, _series(e, lambda k: Fraction(1, 2 * k * (2 * k - 1)))),
        z,
    )
    stirling = e.add(
        e.mul(
            e.sub(z, e.const(0.5)),
            e.sub(e.unary(ew.LogOp, z), e.const(1.0)),
        ),
        e.add(e.const(0.5 * math.log(2 * math.pi) - 0.5), series),
    )
    core = e.select(shifted, e.sub(stirling, e.unary(ew.LogOp, product)), stirling)
    # log(pi / |sin(pi r)|) = -log|r| - log(sin(pi r) / (pi r)); the ratio
    # lies in (0.63, 1], so a subnormal r loses nothing to pi * r.
    ratio = e.div(e.unary(ew.SineOp, pi_r), pi_r)
    log_r = e.unary(ew.LogOp, e.unary(ew.AbsOp, r))
    reflection = e.sub(
        e.unary(ew.NegateOp, e.add(log_r, e.unary(ew.LogOp, ratio))), core
    )
    result = e.select(reflected, reflection, core)
    infinite = e.compare(EQ, e.unary(ew.AbsOp, x), e.const(math.inf))
    return e.select(e.or_(_pole(e, x, pi_r), infinite), e.const(math.inf), result)


def digamma(e: Emitter, x: SSAValue) -> SSAValue:
    reflected, z0, _, pi_r = _reflect(e, x)
    shifted, z, steps = _shift(e, z0)
    one = e.const(1.0)
    total = e.div(one, steps[0])
    for step in steps[1:]:
        total = e.add(total, e.div(one, step))
    # log z - 1/(2z) - sum B2k / (2k z^2k)
    w = e.div(one, e.mul(z, z))
    series = e.mul(
        w,
        e.polynomial(w, _series(e, lambda k: Fraction(1, 2 * k))),
    )
    asymptotic = e.sub(e.sub(e.unary(ew.LogOp, z), e.div(e.const(0.5), z)), series)
    core = e.select(shifted, e.sub(asymptotic, total), asymptotic)
    reflection = e.sub(core, e.div(e.const(math.pi), e.unary(ew.TanOp, pi_r)))
    result = e.select(reflected, reflection, core)
    return e.select(_pole(e, x, pi_r), e.const(math.nan), result)
