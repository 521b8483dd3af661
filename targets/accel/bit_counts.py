"""Population count and leading zeros on XA-1, which has no instruction for
either (manual table 4.12: software sequences), for a scalar in its 32-bit
container or for 16 i32 lanes; a narrow integer is counted on its own bits.

* `ctpop`: the bits summed in ever wider fields (pairs, nibbles, bytes),
  then the four byte counts added by one multiply into the top byte.
* `ctlz`: the exponent of the value converted to f32. The conversion rounds
  to 24 bits, which could carry into the next power of two; clearing the
  bit below the leading one first (`x & ~(x >> 1)`) keeps a value whose
  leading one is bit k under 1.5 * 2^k, so its f32 still has exponent k.
  Zero converts to exponent 0, which a minimum with the width turns into
  the width.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

if TYPE_CHECKING:
    from xlir.targets.accel.loop_to_accel import Builder

F32_EXPONENT_SHIFT = 23
EXPONENT_BIAS = 127


@dataclass
class Words:
    """32-bit integer operations on scalars or on lanes, by the same names."""

    build: Builder
    lanes: bool

    def constant(self, value: int) -> SSAValue:
        word = self.build.zero() if value == 0 else self.build.li(value)
        return self.build.splat(word) if self.lanes else word

    def __call__(self, name: str, a: SSAValue, b: SSAValue) -> SSAValue:
        if self.lanes:
            return self.build.v("v" + name, a, b)
        return self.build.x(name, a, b)

    def shift_right(self, value: SSAValue, amount: int) -> SSAValue:
        if self.lanes:
            return self("srl", value, self.constant(amount))
        return self.build.x("srli", value, imm=amount)

    def masked(self, value: SSAValue, width: int) -> SSAValue:
        """The low `width` bits of a container value, zero-extended."""
        if not self.lanes:
            return self.build.unsigned(value, width)
        if width >= 32:
            return value
        return self("and", value, self.constant((1 << width) - 1))


def population_count(words: Words, value: SSAValue, width: int) -> SSAValue:
    """The number of ones among the low `width` bits of `value`."""
    x = words.masked(value, width)
    if width == 1:
        return x
    pairs = words.constant(0x55555555)
    x = words("sub", x, words("and", words.shift_right(x, 1), pairs))
    nibbles = words.constant(0x33333333)
    low = words("and", x, nibbles)
    x = words("add", low, words("and", words.shift_right(x, 2), nibbles))
    x = words(
        "and", words("add", x, words.shift_right(x, 4)), words.constant(0x0F0F0F0F)
    )
    return words.shift_right(words("mul", x, words.constant(0x01010101)), 24)


def leading_zeros(words: Words, value: SSAValue, width: int) -> SSAValue:
    """The number of zeros above the highest one among the low `width` bits
    of `value` (`width` for zero)."""
    x = words.masked(value, width)
    below_leading = words("and", x, words.shift_right(x, 1))
    x = words("xor", x, below_leading)
    build = words.build
    lanes = x if words.lanes else build.splat(x)
    converted = build.v("vcvt.f32.u32", lanes)
    bits = converted if words.lanes else build.x("vext", converted, imm=0)
    exponent = words.shift_right(bits, F32_EXPONENT_SHIFT)
    # highest bit k = exponent - bias; zeros above it: width - 1 - k
    count = words("sub", words.constant(width - 1 + EXPONENT_BIAS), exponent)
    return words("minu", count, words.constant(width))
