"""Complex arithmetic on real and imaginary parts: the formulas `split-complex`
(passes/hlo/split_complex.py) writes for each complex op, as stablehlo on the
real tensors of the parts.

The reference interpreter computes complex numbers with numpy, so the
formulas follow numpy's where it has one of its own: division is Smith's
algorithm as numpy writes it (the same bits), `expm1` and `log1p` are
numpy's, `power` handles a zero base and exponent as numpy does, and
`sign`, `rsqrt`, `logistic` and `atan2` are the interpreter's expressions
in complex operations. The others are the textbook formulas, written so
that they neither overflow early nor cancel: |z| scales by the larger
part, sqrt is the half-angle form, tanh is Kahan's. numpy multiplies with
fused multiply-adds where the host has them; the two roundings here differ
from them by an ulp of the larger product.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import SSAValue
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.data_movement import BroadcastInDimOp, ConstantOp
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
    ComparisonType,
)
from xlir.passes.hlo.decompositions.elementary import cosh, sinh
from xlir.passes.hlo.decompositions.emitter import Emitter

Complex = tuple[SSAValue, SSAValue]
"""(real parts, imaginary parts): two real tensors of one shape."""

EQ, NE = ComparisonDirection.EQ, ComparisonDirection.NE
LT, LE = ComparisonDirection.LT, ComparisonDirection.LE
GT, GE = ComparisonDirection.GT, ComparisonDirection.GE


def real(e: Emitter, x: SSAValue) -> Complex:
    """x + 0i."""
    return x, e.const(0.0)


def add(e: Emitter, x: Complex, y: Complex) -> Complex:
    return e.add(x[0], y[0]), e.add(x[1], y[1])


def sub(e: Emitter, x: Complex, y: Complex) -> Complex:
    return e.sub(x[0], y[0]), e.sub(x[1], y[1])


def neg(e: Emitter, x: Complex) -> Complex:
    return e.unary(ew.NegateOp, x[0]), e.unary(ew.NegateOp, x[1])


def mul(e: Emitter, x: Complex, y: Complex) -> Complex:
    (a, b), (c, d) = x, y
    return e.sub(e.mul(a, c), e.mul(b, d)), e.add(e.mul(a, d), e.mul(b, c))


def times_i(e: Emitter, x: Complex) -> Complex:
    """i x."""
    return e.unary(ew.NegateOp, x[1]), x[0]


def div(e: Emitter, x: Complex, y: Complex) -> Complex:
    """Smith's division, branch for branch as numpy computes it; a zero
    divisor divides each part by its zero (inf or NaN)."""
    (a, b), (c, d) = x, y
    abs_c, abs_d = e.unary(ew.AbsOp, c), e.unary(ew.AbsOp, d)
    one = e.const(1.0)
    # |c| >= |d|: r = d / c, s = 1 / (c + d r)
    r1 = e.div(d, c)
    s1 = e.div(one, e.add(c, e.mul(d, r1)))
    re1 = e.mul(e.add(a, e.mul(b, r1)), s1)
    im1 = e.mul(e.sub(b, e.mul(a, r1)), s1)
    # |c| < |d|: r = c / d, s = 1 / (d + c r)
    r2 = e.div(c, d)
    s2 = e.div(one, e.add(d, e.mul(c, r2)))
    re2 = e.mul(e.add(e.mul(a, r2), b), s2)
    im2 = e.mul(e.sub(e.mul(b, r2), a), s2)
    first = e.compare(GE, abs_c, abs_d)
    zero = e.const(0.0)
    both_zero = e.and_(e.compare(EQ, abs_c, zero), e.compare(EQ, abs_d, zero))
    re = e.select(first, re1, re2)
    im = e.select(first, im1, im2)
    re = e.select(both_zero, e.div(a, abs_c), re)
    im = e.select(both_zero, e.div(b, abs_d), im)
    return re, im


def _is_inf(e: Emitter, x: SSAValue) -> SSAValue:
    return e.compare(EQ, e.unary(ew.AbsOp, x), e.const(math.inf))


def abs_(e: Emitter, x: Complex) -> SSAValue:
    """hypot(re, im) = L sqrt(1 + (S/L)^2) for the larger and smaller
    magnitudes L and S: 0 for 0, inf where a part is infinite (even with a
    NaN beside it), NaN where a part is NaN."""
    a, b = e.unary(ew.AbsOp, x[0]), e.unary(ew.AbsOp, x[1])
    large = e.max(a, b)
    small = e.emit(ew.MinimumOp(a, b))
    ratio = e.div(small, large)
    result = e.mul(large, e.unary(ew.SqrtOp, e.add(e.const(1.0), e.mul(ratio, ratio))))
    result = e.select(e.compare(EQ, large, e.const(0.0)), e.const(0.0), result)
    infinite = e.or_(_is_inf(e, a), _is_inf(e, b))
    return e.select(infinite, e.const(math.inf), result)


def sign(e: Emitter, x: Complex) -> Complex:
    """z / |z| (0 for 0), NaN in both parts where either part is NaN."""
    magnitude = abs_(e, x)
    zero = e.compare(EQ, magnitude, e.const(0.0))
    unit = div(e, x, real(e, e.select(zero, e.const(1.0), magnitude)))
    nan = e.or_(e.compare(NE, x[0], x[0]), e.compare(NE, x[1], x[1]))
    not_a_number = e.const(math.nan)
    return e.select(nan, not_a_number, unit[0]), e.select(nan, not_a_number, unit[1])


def exp(e: Emitter, x: Complex) -> Complex:
    """e^re (cos im, sin im); a zero imaginary part stays exactly that (no
    inf * 0 for a large real part). With an infinite or NaN imaginary part,
    re = -inf gives 0 and re = +inf gives (inf, NaN), as C99's cexp."""
    a, b = x
    scale = e.unary(ew.ExponentialOp, a)
    re = e.mul(scale, e.unary(ew.CosineOp, b))
    im = e.mul(scale, e.unary(ew.SineOp, b))
    zero = e.const(0.0)
    im = e.select(e.compare(EQ, b, zero), b, im)
    not_finite = e.unary(ew.NotOp, e.emit(ew.IsFiniteOp(b)))
    below = e.and_(not_finite, e.compare(EQ, a, e.const(-math.inf)))
    above = e.and_(not_finite, e.compare(EQ, a, e.const(math.inf)))
    re = e.select(below, zero, e.select(above, a, re))
    im = e.select(below, zero, e.select(above, e.const(math.nan), im))
    return re, im


def expm1(e: Emitter, x: Complex) -> Complex:
    """numpy's: (expm1(re) cos(im) - 2 sin^2(im / 2), e^re sin(im))."""
    half = e.unary(ew.SineOp, e.mul(x[1], e.const(0.5)))
    re = e.mul(e.unary(ew.ExponentialMinusOneOp, x[0]), e.unary(ew.CosineOp, x[1]))
    re = e.sub(re, e.mul(e.const(2.0), e.mul(half, half)))
    im = e.mul(e.unary(ew.ExponentialOp, x[0]), e.unary(ew.SineOp, x[1]))
    return re, im


def log(e: Emitter, x: Complex) -> Complex:
    return e.unary(ew.LogOp, abs_(e, x)), e.atan2(x[1], x[0])


def log1p(e: Emitter, x: Complex) -> Complex:
    """numpy's: log(1 + z)."""
    return log(e, (e.add(x[0], e.const(1.0)), x[1]))


def _sign_bit(e: Emitter, x: SSAValue) -> SSAValue:
    """Whether x's sign bit is set (-0.0 included)."""
    element = e.element
    assert isinstance(element, AnyFloat)
    bits = TensorType(IntegerType(element.bitwidth), e.shape)
    as_int = e.emit(ew.BitcastConvertOp(x, bits))
    zero = e.emit(
        ConstantOp(
            DenseIntOrFPElementsAttr.from_list(TensorType(bits.element_type, []), [0])
        )
    )
    zeros = e.emit(BroadcastInDimOp(zero, [], bits))
    return e.emit(ew.CompareOp(as_int, zeros, LT, ComparisonType.SIGNED))


def sqrt(e: Emitter, x: Complex) -> Complex:
    """The principal root from t = sqrt((|z| + |re|) / 2): (t, im / 2t) for
    re >= 0, (|im| / 2t, ±t) with im's sign (-0.0's too) otherwise;
    sqrt(0) = (0, im), an infinite imaginary part gives (inf, im)."""
    a, b = x
    magnitude = abs_(e, x)
    t = e.unary(ew.SqrtOp, e.mul(e.add(magnitude, e.unary(ew.AbsOp, a)), e.const(0.5)))
    other = e.div(b, e.add(t, t))
    zero = e.const(0.0)
    non_negative = e.compare(GE, a, zero)
    re = e.select(non_negative, t, e.unary(ew.AbsOp, other))
    signed_t = e.select(_sign_bit(e, b), e.unary(ew.NegateOp, t), t)
    im = e.select(non_negative, other, signed_t)
    at_zero = e.compare(EQ, magnitude, zero)
    re, im = e.select(at_zero, zero, re), e.select(at_zero, b, im)
    infinite = _is_inf(e, b)
    return e.select(infinite, e.const(math.inf), re), e.select(infinite, b, im)


def rsqrt(e: Emitter, x: Complex) -> Complex:
    return div(e, real(e, e.const(1.0)), sqrt(e, x))


def _times(e: Emitter, factor: SSAValue, x: SSAValue) -> SSAValue:
    """factor * x, where either is an exact zero that zero (not 0 * inf or
    0 * NaN: C99's csin(x + 0i) has a zero imaginary part for any x)."""
    zero = e.const(0.0)
    product = e.select(e.compare(EQ, x, zero), x, e.mul(factor, x))
    return e.select(e.compare(EQ, factor, zero), factor, product)


def sin(e: Emitter, x: Complex) -> Complex:
    a, b = x
    return (
        _times(e, e.unary(ew.SineOp, a), cosh(e, b)),
        _times(e, sinh(e, b), e.unary(ew.CosineOp, a)),
    )


def cos(e: Emitter, x: Complex) -> Complex:
    a, b = x
    return (
        e.mul(e.unary(ew.CosineOp, a), cosh(e, b)),
        e.unary(ew.NegateOp, _times(e, e.unary(ew.SineOp, a), sinh(e, b))),
    )


def tanh(e: Emitter, x: Complex) -> Complex:
    """Kahan's: with t = tan(im), b = 1 + t^2, s = sinh(re), r = sqrt(1 +
    s^2), tanh z = (b r s + i t) / (1 + b s^2); past |re| = 20 (where
    e^-2|re| is below an ulp of 1) it is (±1, 4 sin(im) cos(im) e^-2|re|)."""
    a, b = x
    one = e.const(1.0)
    t = e.unary(ew.TanOp, b)
    beta = e.add(one, e.mul(t, t))
    s = sinh(e, a)
    rho = e.unary(ew.SqrtOp, e.add(one, e.mul(s, s)))
    denominator = e.add(one, e.mul(beta, e.mul(s, s)))
    re = e.div(e.mul(beta, e.mul(rho, s)), denominator)
    im = e.div(t, denominator)
    magnitude = e.unary(ew.AbsOp, a)
    far = e.compare(GT, magnitude, e.const(20.0))
    decay = e.unary(ew.ExponentialOp, e.mul(magnitude, e.const(-2.0)))
    sin_cos = e.mul(e.unary(ew.SineOp, b), e.unary(ew.CosineOp, b))
    far_im = _times(e, decay, e.mul(e.const(4.0), sin_cos))
    re = e.select(far, e.unary(ew.SignOp, a), re)
    im = e.select(far, far_im, im)
    # tanh(0 + iy) = i tan(y), tanh(x + 0i) = tanh(x): that part is the zero
    zero = e.const(0.0)
    re = e.select(e.compare(EQ, a, zero), a, re)
    return re, e.select(e.compare(EQ, b, zero), b, im)


def tan(e: Emitter, x: Complex) -> Complex:
    """tan z = -i tanh(i z)."""
    re, im = tanh(e, times_i(e, x))
    return im, e.unary(ew.NegateOp, re)


def power(e: Emitter, x: Complex, y: Complex) -> Complex:
    """exp(y log x), with numpy's cases: x^0 = 1; 0^y = 0 where re(y) > 0,
    NaN for other y."""
    re, im = exp(e, mul(e, y, log(e, x)))
    zero, one = e.const(0.0), e.const(1.0)
    y_zero = e.and_(e.compare(EQ, y[0], zero), e.compare(EQ, y[1], zero))
    x_zero = e.and_(e.compare(EQ, x[0], zero), e.compare(EQ, x[1], zero))
    positive = e.compare(GT, y[0], zero)
    at_zero = e.select(positive, zero, e.const(math.nan))
    re = e.select(x_zero, at_zero, re)
    im = e.select(x_zero, at_zero, im)
    return e.select(y_zero, one, re), e.select(y_zero, zero, im)


def cbrt(e: Emitter, x: Complex) -> Complex:
    """The interpreter's: z^(1/3)."""
    return power(e, x, real(e, e.const(1.0 / 3.0)))


def logistic(e: Emitter, x: Complex) -> Complex:
    one = real(e, e.const(1.0))
    return div(e, one, add(e, one, exp(e, neg(e, x))))


def atan2(e: Emitter, y: Complex, x: Complex) -> Complex:
    """The interpreter's: -i log((x + i y) / sqrt(x^2 + y^2))."""
    numerator = add(e, x, times_i(e, y))
    root = sqrt(e, add(e, mul(e, x, x), mul(e, y, y)))
    re, im = log(e, div(e, numerator, root))
    return im, e.unary(ew.NegateOp, re)


def compare(
    e: Emitter, direction: ComparisonDirection, total: bool, x: Complex, y: Complex
) -> SSAValue:
    """Equality part by part; orders are lexicographic on (re, im), with
    IEEE totalOrder on each part when `total`."""
    kind = ComparisonType.TOTALORDER if total else ComparisonType.FLOAT

    def cmp(d: ComparisonDirection, a: SSAValue, b: SSAValue) -> SSAValue:
        return e.emit(ew.CompareOp(a, b, d, kind))

    if direction == EQ:
        return e.and_(cmp(EQ, x[0], y[0]), cmp(EQ, x[1], y[1]))
    if direction == NE:
        return e.or_(cmp(NE, x[0], y[0]), cmp(NE, x[1], y[1]))
    if total:
        differs = cmp(NE, x[0], y[0])
        return e.select(differs, cmp(direction, x[0], y[0]), cmp(direction, x[1], y[1]))
    strict = {LE: LT, GE: GT}.get(direction, direction)
    tie = e.and_(cmp(EQ, x[0], y[0]), cmp(direction, x[1], y[1]))
    return e.or_(cmp(strict, x[0], y[0]), tie)


def greater(e: Emitter, x: Complex, y: Complex) -> SSAValue:
    """x > y lexicographically, as the interpreter orders maximum/minimum."""
    return compare(e, GT, False, x, y)


def select(e: Emitter, pred: SSAValue, x: Complex, y: Complex) -> Complex:
    return e.select(pred, x[0], y[0]), e.select(pred, x[1], y[1])
