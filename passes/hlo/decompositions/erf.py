"""erf, erfc and erf_inv as polynomials, accurate to f32 and to f64.

The coefficients are Chebyshev (near-minimax) fits computed with mpmath at 40
digits, then written in the power basis of a variable centred on the fitted
interval; each table notes its largest relative error against mpmath.

* erfc(a), a >= 0: with t = 2 / (2 + a), erfc(a) = t * exp(-a^2 + h(t)), where
  h is smooth on (0, 1] (Numerical Recipes' `erfccheb` form). a^2 is split as
  ah^2 + al * (a + ah), with ah = a rounded to half the precision, so ah^2 is
  exact and the large exponent loses nothing to rounding. a is clamped where
  erfc underflows (11 in f32, 28 in f64), which also makes +inf safe.
* erf(x) = x * P(x^2) for |x| < 1, else sign(x) * (1 - erfc(|x|)).
* erf_inv(y) = y * P(w), w = -log((1 - y)(1 + y)), with P a polynomial in w
  for small w and in sqrt(w) beyond (Giles' split of the range: two pieces in
  f32, three in f64); y = +-1 gives +-inf and |y| > 1 NaN.
"""

from __future__ import annotations

from xdsl.dialects.builtin import f16, f32
from xdsl.ir import SSAValue
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
)
from xlir.passes.hlo.decompositions.emitter import Emitter

LT, EQ = ComparisonDirection.LT, ComparisonDirection.EQ

ERF_SMALL_F32 = (  # max error 1.2e-9
    7.875875062685488e-05, -0.000801686428716587, 0.005189087423433974,
    -0.026854212010626412, 0.11283594715160218, -0.37612626666720334,
    1.1283791658483509
)  # fmt: skip

ERFC_F32 = (  # max error 3.3e-9
    -6.606836722046125e-06, -2.5000233883950823e-05, 8.424927406617115e-05,
    0.00013431604733165763, -0.0006282736926723668, -0.00023573880951794057,
    0.0040330178117103, -0.0014163409356321161, -0.03077613835898263,
    0.01763402425762068, 0.5785679655403442, -0.5673654767021532
)  # fmt: skip

ERF_INV_F32_0 = (  # max error 4.0e-9
    4.671932509038665e-10, -8.739010702830122e-09, 1.598430613390006e-08,
    4.6541741050231655e-07, -3.4234142742220455e-06, -4.9596917942159365e-06,
    0.00021825772396383332, -0.0012527485028416628, -0.004177320040540122,
    0.24664028942745514, 1.501409351110792
)  # fmt: skip

ERF_INV_F32_1 = (  # max error 5.9e-9
    -3.33615194344914e-05, 0.00016656544307062067, -0.00027334885408425983,
    -0.00012860832903119573, 0.0014738469806999277, -0.003562940905127309,
    0.005687786812432366, -0.007643523128893251, 0.009445304641683694,
    1.0016752744476463, 2.8329768015323213
)  # fmt: skip

ERF_SMALL_F64 = (  # max error 7.4e-18
    -7.795898827002142e-10, 1.3720064546777686e-08, -1.6208483801871705e-07,
    1.6447424703317362e-06, -1.492473690741966e-05, 0.00012055294904839707,
    -0.0008548325975389692, 0.0052239776071164225, -0.02686617064323777,
    0.11283791670945006, -0.37612638903183543, 1.1283791670955126
)  # fmt: skip

ERFC_F64 = (  # max error 1.0e-17
    7.788440830735752e-10, -2.405136083012013e-09, -3.2804003440212792e-09,
    2.34070251203542e-08, -1.995138793510263e-08, -8.894621370132492e-08,
    2.428192862055469e-07, 2.2947271079205238e-08, -1.1240541264889017e-06,
    1.5589436606108243e-06, 2.5880173183554557e-06, -9.949706283498384e-06,
    1.998807932239005e-06, 3.8018059134224584e-05, -5.1209772341785935e-05,
    -9.95768101032068e-05, 0.0003082789495894876, 0.00013326776305264406,
    -0.0014316031465361964, 0.00043779950034903293, 0.006592903682520597,
    -0.005189062827117352, -0.039942324416966435, 0.032864859357458545,
    0.6330982682940194, -0.6267548660108485
)  # fmt: skip

ERF_INV_F64_0 = (  # max error 6.8e-18
    -3.5932028927020693e-22, 3.194015548136271e-21, 1.999259988861535e-20,
    -3.4734793888538036e-19, 6.075050702072414e-19, 1.5510787009902526e-17,
    -1.2215637192404172e-16, -3.94018812230432e-17, 6.521333511502239e-15,
    -4.0020031087558496e-14, -8.07192593899004e-14, 2.6305268312595183e-12,
    -1.2978805369932565e-11, -5.414303283919504e-11, 1.051223377050429e-09,
    -4.1126604371632185e-09, -2.907039127564132e-08, 4.23478816822246e-07,
    -1.3654691758785656e-06, -1.3882523393957483e-05, 0.00018673420801981186,
    -0.0007407025341546431, -0.006033670871426851, 0.24015818242558834,
    1.6536545626831027
)  # fmt: skip

ERF_INV_F64_1 = (  # max error 3.8e-18
    7.680200479077053e-09, -1.5305397964152548e-08, -2.091453334773126e-08,
    1.3158663683192966e-07, -2.4549818963339823e-07, -2.761716223816241e-08,
    1.4815977874022539e-06, -3.985705945648173e-06, 2.93257845538535e-06,
    1.2465028224217455e-05, -4.732068066544697e-05, 6.828711739251955e-05,
    2.4031512865758357e-05, -0.0003550378137852452, 0.0009532893415794137,
    -0.0016882755354488555, 0.00249144209795696, -0.0037512085082247342,
    0.005370914553555033, 1.0052589676941655, 3.0838856104922208
)  # fmt: skip

ERF_INV_F64_2 = (  # max error 2.1e-18
    5.7986206454269834e-12, -2.048927131624733e-11, 1.5086575032752953e-11,
    6.995450923121963e-11, -3.8140845242464593e-10, 1.3153902244770238e-09,
    -3.533548810959029e-09, 7.821906553821998e-09, -1.5213984358341287e-08,
    2.9018457250405067e-08, -6.75726355244661e-08, 2.2905285568768412e-07,
    -9.930255140026085e-07, 4.526052523594537e-06, -1.968177119387723e-05,
    7.599527809662709e-05, -0.00021503011979930007, -0.00013871931838012897,
    1.0103004648645448, 4.849906401408584
)  # fmt: skip


_ERFC_CLAMP = {False: 11.0, True: 28.0}
"""Where erfc is below the smallest subnormal: f32, f64."""


def _erfc_nonnegative(e: Emitter, a: SSAValue) -> SSAValue:
    """erfc(a) for a >= 0 (NaN propagates)."""
    high = _ERFC_CLAMP[e.is_f64]
    a = e.clamp(0.0, a, high)
    t_min = 2.0 / (2.0 + high)
    t = e.div(e.const(2.0), e.add(e.const(2.0), a))
    # u maps t in [t_min, 1] onto [-1, 1], the variable of the fit.
    u = e.sub(
        e.mul(t, e.const(2.0 / (1.0 - t_min))),
        e.const((1.0 + t_min) / (1.0 - t_min)),
    )
    h = e.polynomial(u, ERFC_F64 if e.is_f64 else ERFC_F32)
    half = f32 if e.is_f64 else f16
    ah = e.convert(e.convert(a, half), e.element)
    al = e.sub(a, ah)
    big = e.unary(ew.ExponentialOp, e.unary(ew.NegateOp, e.mul(ah, ah)))
    small = e.unary(ew.ExponentialOp, e.sub(h, e.mul(al, e.add(a, ah))))
    return e.mul(e.mul(t, big), small)


def erfc(e: Emitter, x: SSAValue) -> SSAValue:
    c = _erfc_nonnegative(e, e.unary(ew.AbsOp, x))
    return e.select(e.compare(LT, x, e.const(0.0)), e.sub(e.const(2.0), c), c)


def erf(e: Emitter, x: SSAValue) -> SSAValue:
    a = e.unary(ew.AbsOp, x)
    near_zero = e.mul(
        x, e.polynomial(e.mul(x, x), ERF_SMALL_F64 if e.is_f64 else ERF_SMALL_F32)
    )
    tail = e.sub(e.const(1.0), _erfc_nonnegative(e, a))
    signed_tail = e.select(
        e.compare(LT, x, e.const(0.0)), e.unary(ew.NegateOp, tail), tail
    )
    return e.select(e.compare(LT, a, e.const(1.0)), near_zero, signed_tail)


def erf_inv(e: Emitter, y: SSAValue) -> SSAValue:
    one = e.const(1.0)
    w = e.unary(
        ew.NegateOp,
        e.unary(ew.LogOp, e.mul(e.sub(one, y), e.add(one, y))),
    )
    root = e.unary(ew.SqrtOp, w)
    if e.is_f64:
        p = e.select(
            e.compare(LT, w, e.const(6.25)),
            e.polynomial(e.sub(w, e.const(3.125)), ERF_INV_F64_0),
            e.select(
                e.compare(LT, w, e.const(16.0)),
                e.polynomial(e.sub(root, e.const(3.25)), ERF_INV_F64_1),
                e.polynomial(e.sub(root, e.const(5.0)), ERF_INV_F64_2),
            ),
        )
    else:
        p = e.select(
            e.compare(LT, w, e.const(5.0)),
            e.polynomial(e.sub(w, e.const(2.5)), ERF_INV_F32_0),
            e.polynomial(e.sub(root, e.const(3.0)), ERF_INV_F32_1),
        )
    return e.select(
        e.compare(EQ, e.unary(ew.AbsOp, y), one),
        e.mul(y, e.const(float("inf"))),
        e.mul(y, p),
    )
