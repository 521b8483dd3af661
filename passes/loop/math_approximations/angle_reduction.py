"""Reduction of an f32 angle modulo pi/2, exact over the whole f32 range.

sin(1e30) needs 1e30 mod pi/2 to 24 bits, so pi/2 must be known to over 120
bits: Cody-Waite's two or three f32 parts of pi/2 only reach |x| ~ 1e4. This
is Payne and Hanek's method in integer arithmetic. |x| = m 2^q with m the
24-bit significand; x * 2/pi mod 4 only needs the bits of 2/pi from 2^(1-q)
on (earlier bits give multiples of 4), so a 96-bit window W of them, picked
by q, gives `m * W mod 2^96` = (x * 2/pi mod 4) * 2^94 within 2^-70: its top
two bits are the quadrant n, the rest the fraction. Rounding to the nearest
quadrant leaves the fraction in [-1/2, 1/2), read as a signed 64-bit integer
and converted to radians in f64 (53 bits however small it is; the closest an
f32 comes to a multiple of pi/2, 2^-29.9 quadrants at 7.729e28, still
leaves 32 of them).

The window is three 32-bit words, each a funnel shift of two words of a
table, itself a run of the words of 2/pi; the table words are chosen with
selects on the window's offset, not loaded, so the code stays branch-free
and needs no global. The products `m * word` are 24 x 32 bit, exact in i64.

Arguments below pi/4 are their own reduction (quadrant 0); the integer path
computes garbage for them, which a select drops.
"""

from __future__ import annotations

from xdsl.dialects.builtin import f32, f64, i32, i64
from xlir.passes.loop.math_approximations.exponential import F32_MANTISSA_BITS
from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder, Value

TWO_OVER_PI_HEX = (
    "a2f9836e4e441529fc2757d1f534ddc0db6295993c439041fe5163abdebbc561b7246e3a"
)
"""The first 288 bits of the fraction of 2/pi (0.a2f9... in hex)."""

TABLE_OFFSET = 26
"""Zero bits in front of 2/pi in the table, so that the window of the
smallest reduced argument (q = -24, |x| >= pi/4) starts at bit 0."""

TABLE_WORDS = 9
"""Enough for the largest offset (q = 105, infinities: 129) plus 128 bits."""


def _table() -> list[int]:
    bits = int(TWO_OVER_PI_HEX, 16) >> TABLE_OFFSET
    width = 32 * TABLE_WORDS
    return [(bits >> (width - 32 * (j + 1))) & 0xFFFFFFFF for j in range(TABLE_WORDS)]


TABLE = _table()
HALF_PI_TIMES_2_TO_MINUS_64 = 1.5707963267948966 * 2.0**-64
QUARTER_PI = 0.78539816


class Reduced:
    """|x| = n pi/2 + r with |r| <= pi/4: `quadrant` n (i32, only n mod 4 is
    meaningful) and r as the f32 sum `angle + angle_low`, the low part below
    half an ulp of the high one."""

    def __init__(self, code: ScalarBuilder, x: Value):
        magnitude = x.abs()
        small = magnitude.lt(QUARTER_PI)
        angle, quadrant = self._payne_hanek(code, magnitude)
        high = angle.truncate(f32)
        low = (angle - high.extend(f64)).truncate(f32)
        self.angle = code.select(small, magnitude, high)
        self.angle_low = code.select(small, 0.0, low)
        self.quadrant = code.select(small, code.const(0, i32), quadrant)

    @staticmethod
    def _payne_hanek(code: ScalarBuilder, magnitude: Value) -> tuple[Value, Value]:
        """The angle in f64 and the quadrant."""
        bits = magnitude.bits()
        exponent = bits.shr_u(F32_MANTISSA_BITS)
        exponent = code.select(exponent.lt(126), 126, exponent)
        significand = ((bits & 0x7FFFFF) | 0x800000).extend(i64)
        offset = exponent - 126  # the window's first bit in the table
        word_index = offset.shr_u(5)
        shift = (offset & 31).extend(i64)
        # table[word_index + j] for j = 0..4, by selects over word_index 0..4
        picked: list[Value] = []
        for j in range(5):
            word = code.const(TABLE[j + 4], i64)
            for index in range(3, -1, -1):
                word = code.select(word_index.eq(index), TABLE[j + index], word)
            picked.append(word)
        window = [
            ((picked[j] << 32 | picked[j + 1]) << shift).shr_u(32) for j in range(3)
        ]
        products = [significand * word for word in window]
        top = (products[0] << 32) + products[1] + products[2].shr_u(32)
        quadrant = (top + (1 << 61)).shr_u(62).truncate(i32)
        fraction = (top << 2).to_float(f64)
        return fraction * HALF_PI_TIMES_2_TO_MINUS_64, quadrant
