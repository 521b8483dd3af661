"""Trigonometric and hyperbolic functions from exp, log, sqrt and atan2,
written to avoid the overflow and cancellation of the textbook formulas.

* sinh, cosh: e = exp(|x|) (or expm1 for sinh, exact near 0) below 20, where
  e^-|x| still matters; above, (h / 2) * h with h = exp(|x| / 2), which stays
  finite as long as the result does.
* asinh(a) = log1p(a + a^2 / (1 + sqrt(1 + a^2))), no cancellation near 0;
  for a above 1/sqrt(eps) it is log(a) + log(2), before a^2 overflows.
* acosh(x) = log1p(y + sqrt(y) sqrt(x + 1)) with y = x - 1 (exact near 1),
  and log(x) + log(2) for large x; NaN below 1 from sqrt(y).
* atanh(a) = log1p(2a / (1 - a)) / 2 on |x|, signed afterwards.
* asin(x) = atan2(x, sqrt((1 - x)(1 + x))), acos(x) = atan2(sqrt((1 - x)(1 +
  x)), x): (1 - x)(1 + x) keeps 1 - x^2 accurate near |x| = 1, and atan2
  gives the right quadrant (acos(-1) = pi) and NaN for |x| > 1.
* atan(x) = atan2(x, 1); tan is `stablehlo.tan`.

Odd functions are computed on |x| and multiplied by sign(x), which keeps -0.
"""

from __future__ import annotations

import math

from xdsl.ir import SSAValue
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
)
from xlir.passes.hlo.decompositions.emitter import Emitter

LT = ComparisonDirection.LT

_EXP_SPLIT = 20.0
"""Above this |x|, e^-|x| is below half an ulp of e^|x| in f64 (and f32)."""


def _large_cosh(e: Emitter, a: SSAValue) -> SSAValue:
    """cosh(a) = sinh(a) for a above _EXP_SPLIT, without overflowing early."""
    h = e.unary(ew.ExponentialOp, e.mul(a, e.const(0.5)))
    return e.mul(e.mul(h, e.const(0.5)), h)


def _sign_of(e: Emitter, x: SSAValue, magnitude: SSAValue) -> SSAValue:
    return e.mul(e.unary(ew.SignOp, x), magnitude)


def _is_small(e: Emitter, a: SSAValue, bound: float) -> SSAValue:
    return e.compare(LT, a, e.const(bound))


def sinh(e: Emitter, x: SSAValue) -> SSAValue:
    a = e.unary(ew.AbsOp, x)
    m = e.unary(ew.ExponentialMinusOneOp, a)
    # e^a - e^-a = m + m / (m + 1) with m = e^a - 1.
    small = e.mul(e.add(m, e.div(m, e.add(m, e.const(1.0)))), e.const(0.5))
    return _sign_of(
        e, x, e.select(_is_small(e, a, _EXP_SPLIT), small, _large_cosh(e, a))
    )


def cosh(e: Emitter, x: SSAValue) -> SSAValue:
    a = e.unary(ew.AbsOp, x)
    p = e.unary(ew.ExponentialOp, a)
    small = e.mul(e.add(p, e.div(e.const(1.0), p)), e.const(0.5))
    return e.select(_is_small(e, a, _EXP_SPLIT), small, _large_cosh(e, a))


def _large_log(e: Emitter, a: SSAValue) -> SSAValue:
    """log(2a), for asinh and acosh of large a."""
    return e.add(e.unary(ew.LogOp, a), e.const(math.log(2.0)))


def _large_bound(e: Emitter) -> float:
    """1/sqrt(eps): beyond it 1 is negligible next to a^2."""
    return 2.0**26 if e.is_f64 else 2.0**12


def asinh(e: Emitter, x: SSAValue) -> SSAValue:
    a = e.unary(ew.AbsOp, x)
    one = e.const(1.0)
    square = e.mul(a, a)
    root = e.unary(ew.SqrtOp, e.add(one, square))
    small = e.unary(ew.LogPlusOneOp, e.add(a, e.div(square, e.add(one, root))))
    return _sign_of(
        e, x, e.select(_is_small(e, a, _large_bound(e)), small, _large_log(e, a))
    )


def acosh(e: Emitter, x: SSAValue) -> SSAValue:
    one = e.const(1.0)
    y = e.sub(x, one)
    # sqrt(y) is NaN below 1, as acosh is.
    root = e.mul(e.unary(ew.SqrtOp, y), e.unary(ew.SqrtOp, e.add(x, one)))
    small = e.unary(ew.LogPlusOneOp, e.add(y, root))
    return e.select(_is_small(e, x, _large_bound(e)), small, _large_log(e, x))


def atanh(e: Emitter, x: SSAValue) -> SSAValue:
    a = e.unary(ew.AbsOp, x)
    ratio = e.div(e.add(a, a), e.sub(e.const(1.0), a))
    return _sign_of(e, x, e.mul(e.unary(ew.LogPlusOneOp, ratio), e.const(0.5)))


def _cosine_side(e: Emitter, x: SSAValue) -> SSAValue:
    """sqrt(1 - x^2), accurate near |x| = 1."""
    one = e.const(1.0)
    return e.unary(ew.SqrtOp, e.mul(e.sub(one, x), e.add(one, x)))


def asin(e: Emitter, x: SSAValue) -> SSAValue:
    return e.atan2(x, _cosine_side(e, x))


def acos(e: Emitter, x: SSAValue) -> SSAValue:
    return e.atan2(_cosine_side(e, x), x)


def atan(e: Emitter, x: SSAValue) -> SSAValue:
    return e.atan2(x, e.const(1.0))


def tan(e: Emitter, x: SSAValue) -> SSAValue:
    return e.unary(ew.TanOp, x)
