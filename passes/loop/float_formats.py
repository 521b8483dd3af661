"""Narrow float formats as integer code: decoding to f32, rounding to them.

bf16, the float8 family, float6 and float4 have no arithmetic on a CPU
(LLVM's `bfloat` type has little more than conversions, which call compiler
runtime functions the JIT does not have). `widen-floats` computes on them in
f32 and converts with the `arith` integer code here, which LLVM vectorizes
like any other: the element's bits are taken apart and put together again.

* `decode`: a narrow value to f32, exactly (every format here fits f32).
* `encode`: an f32 or f64 value to the narrow format, rounded once to the
  nearest value, ties to even (the conversion `ml_dtypes` and the evaluator
  make, special values included: see `Format.kind`).

`FORMATS` gives each format's exponent and mantissa widths, bias and kind
(how it spells infinity, NaN and zero).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import ml_dtypes
import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float64Type,
    IntegerType,
    f32,
)
from xdsl.ir import Attribute

if TYPE_CHECKING:
    from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder, Value


@dataclass(frozen=True)
class Format:
    exponent: int
    mantissa: int
    bias: int
    kind: str
    """`ieee`: infinities and NaNs (the exponent all ones), signed zeros;
    `fn`: no infinities, NaN is every bit of the magnitude set, signed zeros;
    `fnuz`: no infinities, no -0, NaN is the sign bit alone; `finite`: no
    infinities nor NaNs, signed zeros (overflow saturates; NaN becomes a
    zero of the opposite sign, as `ml_dtypes` converts it); `e8m0`: no sign
    and no mantissa, powers of two 2^-127..2^127 and NaN (all ones), ties
    rounded up."""
    dtype: type
    """The `ml_dtypes` scalar type of the format."""

    @property
    def width(self) -> int:
        return self.exponent + self.mantissa + (self.kind != "e8m0")

    @property
    def storage(self) -> IntegerType:
        """The integer type that holds its bits in memory (a whole byte for
        the 4- and 6-bit formats, as `ml_dtypes` stores them)."""
        return IntegerType(16 if self.width > 8 else 8)

    @property
    def magnitude_bits(self) -> int:
        return self.exponent + self.mantissa

    @property
    def max_finite(self) -> int:
        """The largest finite magnitude's code."""
        all_ones = (1 << self.magnitude_bits) - 1
        if self.kind == "ieee":
            return all_ones - (1 << self.mantissa)
        if self.kind == "fn":
            return all_ones - 1
        if self.kind == "e8m0":
            return all_ones - 1
        return all_ones


FORMATS: dict[type[Attribute], Format] = {
    BFloat16Type: Format(8, 7, 127, "ieee", ml_dtypes.bfloat16),
    Float8E5M2Type: Format(5, 2, 15, "ieee", ml_dtypes.float8_e5m2),
    Float8E4M3Type: Format(4, 3, 7, "ieee", ml_dtypes.float8_e4m3),
    Float8E3M4Type: Format(3, 4, 3, "ieee", ml_dtypes.float8_e3m4),
    Float8E4M3FNType: Format(4, 3, 7, "fn", ml_dtypes.float8_e4m3fn),
    Float8E4M3FNUZType: Format(4, 3, 8, "fnuz", ml_dtypes.float8_e4m3fnuz),
    Float8E5M2FNUZType: Format(5, 2, 16, "fnuz", ml_dtypes.float8_e5m2fnuz),
    Float8E4M3B11FNUZType: Format(4, 3, 11, "fnuz", ml_dtypes.float8_e4m3b11fnuz),
    Float8E8M0FNUType: Format(8, 0, 127, "e8m0", ml_dtypes.float8_e8m0fnu),
    Float6E2M3FNType: Format(2, 3, 1, "finite", ml_dtypes.float6_e2m3fn),
    Float6E3M2FNType: Format(3, 2, 3, "finite", ml_dtypes.float6_e3m2fn),
    Float4E2M1FNType: Format(2, 1, 1, "finite", ml_dtypes.float4_e2m1fn),
}
"""The float types the CPU holds as integers, by their xDSL type."""


def bits_of(value: float, fmt: Format) -> int:
    """The code of the format's value nearest `value` (an integer)."""
    array = np.asarray(value, np.float64).astype(fmt.dtype)
    return int(array.view(np.uint16 if fmt.width > 8 else np.uint8))


def format_of(type_: Attribute) -> Format | None:
    """The narrow format of a float type (None for f16, f32, f64 and
    non-floats, which LLVM has)."""
    return FORMATS.get(type(type_))


def bits_in_storage(x: Value, fmt: Format) -> Value:
    """A narrow float's bits as its storage integer (zero-extended from 4 or
    6 bits: `arith.bitcast` keeps the width)."""
    bits = x.bitcast(IntegerType(fmt.width))
    return bits if fmt.width % 8 == 0 else bits.extend(fmt.storage)


def from_storage(bits: Value, fmt: Format, type_: Attribute) -> Value:
    """The narrow float of type `type_` whose bits the storage integer holds."""
    if fmt.width % 8:
        bits = bits.truncate(IntegerType(fmt.width))
    return bits.bitcast(type_)


def decode(code: ScalarBuilder, bits: Value, fmt: Format) -> Value:
    """The f32 value of a narrow float given as its bits (`fmt.storage`)."""
    wide = bits.extend(IntegerType(32))
    if fmt.kind == "e8m0":
        value = code.select(wide.eq(0), 0x00400000, wide << 23)  # 2^-127
        return code.select(wide.eq(0xFF), 0x7FC00000, value).as_float()
    if fmt.exponent == 8:  # bf16: the top half of an f32
        return (wide << 16).as_float()
    magnitude_mask = (1 << fmt.magnitude_bits) - 1
    magnitude = wide & magnitude_mask
    sign = wide.shr_u(fmt.magnitude_bits) << 31
    exponent = magnitude.shr_u(fmt.mantissa)
    normal = (magnitude << (23 - fmt.mantissa)) + ((127 - fmt.bias) << 23)
    # a subnormal: its mantissa times the smallest subnormal, exactly
    tiny = code.const(2.0 ** (1 - fmt.bias - fmt.mantissa), f32)
    subnormal = ((magnitude.to_float(f32)) * tiny).bits()
    normal = code.select(exponent.eq(0), subnormal, normal)
    # NaNs as ml_dtypes makes them: quiet, no payload, the sign kept (FNUZ's
    # negative)
    if fmt.kind == "ieee":
        top = (1 << fmt.exponent) - 1
        infinity = top << fmt.mantissa
        special = code.select(
            magnitude.eq(infinity), 0x7F800000, normal.coerce(0x7FC00000)
        )
        normal = code.select(exponent.eq(top), special, normal)
    elif fmt.kind == "fn":
        normal = code.select(magnitude.eq(magnitude_mask), 0x7FC00000, normal)
    value = normal | sign
    if fmt.kind == "fnuz":
        value = code.select(wide.eq(1 << fmt.magnitude_bits), 0xFFC00000, value)
    return value.as_float()


def encode(code: ScalarBuilder, x: Value, fmt: Format) -> Value:
    """`x` (f32 or f64) rounded to the nearest value of the format, ties to
    even, as its bits (`fmt.storage`)."""
    source = x.type
    assert isinstance(source, AnyFloat)
    if fmt.kind == "e8m0" and isinstance(source, Float64Type):
        x = x.truncate(f32)  # as ml_dtypes converts f64 to it
        source = f32
    double = isinstance(source, Float64Type)
    width, precision, bias = (64, 52, 1023) if double else (32, 23, 127)
    bits = x.bits()
    magnitude = bits & ((1 << (width - 1)) - 1)
    negative = bits.lt(0)
    infinity = ((1 << (width - precision - 1)) - 1) << precision
    nan = magnitude.compare("ugt", infinity)
    if fmt.kind == "e8m0":
        return _encode_e8m0(code, magnitude, negative, nan, precision, fmt)
    drop = precision - fmt.mantissa
    if fmt.kind == "ieee" and (fmt.exponent, fmt.bias) == (width - precision - 1, bias):
        # bf16 from f32: the same exponent, so rounding the whole bits (the
        # sign stays put: no finite magnitude carries past infinity) is the
        # conversion, NaN aside, in a third of the ops of the general case
        quiet = bits.shr_u(drop) | (1 << (fmt.mantissa - 1))
        return code.select(nan, quiet, _round_shift(code, bits, drop)).truncate(
            fmt.storage
        )
    # normal in the format: round off the extra mantissa bits (a carry
    # moves into the exponent), then rebias
    rounded = _round_shift(code, magnitude, drop)
    if bias != fmt.bias:
        rounded = rounded - ((bias - fmt.bias) << fmt.mantissa)
    # below the format's normal range: the mantissa with its hidden bit,
    # shifted down to the subnormal unit, rounded (at most past every bit)
    lowest = bias - fmt.bias + 1  # the source exponent of the smallest normal
    if lowest > 1:
        exponent = magnitude.shr_u(precision)
        mantissa = magnitude & ((1 << precision) - 1)
        hidden = code.select(exponent.eq(0), 0, magnitude.coerce(1 << precision))
        effective = code.select(exponent.eq(0), 1, exponent)
        shift = (drop + lowest) - effective
        shift = code.select(shift.compare("ugt", precision + 2), precision + 2, shift)
        small = _round_shift(code, mantissa | hidden, shift)
        rounded = code.select(exponent.compare("ult", lowest), small, rounded)
    overflow = rounded.compare("ugt", fmt.max_finite) | magnitude.eq(infinity)
    sign_bit = 1 << fmt.magnitude_bits
    if fmt.kind == "ieee":
        top = ((1 << fmt.exponent) - 1) << fmt.mantissa
        quiet = magnitude.shr_u(drop) | (1 << (fmt.mantissa - 1))
        rounded = code.select(overflow, top, rounded)
        rounded = code.select(nan, quiet & ((1 << fmt.magnitude_bits) - 1), rounded)
    elif fmt.kind == "fn":
        rounded = code.select(overflow | nan, (1 << fmt.magnitude_bits) - 1, rounded)
    elif fmt.kind == "finite":
        rounded = code.select(overflow, fmt.max_finite, rounded)
        rounded = code.select(nan, 0, rounded)
        negative = code.select(nan, negative ^ 1, negative)
    result = rounded | code.select(negative, sign_bit, rounded.coerce(0))
    if fmt.kind == "fnuz":  # no -0; NaN is the sign bit alone
        result = code.select(rounded.eq(0), 0, result)
        result = code.select(overflow | nan, sign_bit, result)
    return result.truncate(fmt.storage)


STICKY_BITS = 0x1FF
"""The bits of an integer of 2^24 or more `integer_in_f32` folds into the
top one of them."""


def integer_in_f32(code: ScalarBuilder, value: Value, unsigned: bool) -> Value:
    """An integer of up to 32 bits as an f32 from which `encode` rounds to
    each format here as from the integer itself: exact below 2^24; from
    there, bits 0-8 folded into bit 8 (a sticky bit: f32 keeps bit 8 of
    every integer below 2^32, and each format rounds at bit 16 or above,
    so the value is on the same side of every rounding boundary)."""
    source = value.type
    assert isinstance(source, IntegerType)
    if source.width.data < 32:
        kind = arith.ExtUIOp if unsigned else arith.ExtSIOp
        value = code.emit(kind(value.ssa, IntegerType(32)))
    negative = None if unsigned else value.lt(0)
    magnitude = value if negative is None else code.select(negative, 0 - value, value)
    nonzero = (magnitude & STICKY_BITS).compare("ne", 0)
    sticky = code.select(nonzero, magnitude.coerce(0x100), 0)
    folded = (magnitude & ~STICKY_BITS) | sticky
    magnitude = code.select(magnitude.compare("uge", 1 << 24), folded, magnitude)
    result = code.emit(arith.UIToFPOp(magnitude.ssa, f32))
    return result if negative is None else code.select(negative, -result, result)


def _round_shift(code: ScalarBuilder, value: Value, shift: Value | int) -> Value:
    """`value >> shift` rounded to nearest, ties to even (shift >= 1; value
    small enough that adding half an ulp does not overflow)."""
    lsb = value.shr_u(shift) & 1
    one = value.coerce(1)
    half_less = (one << (shift - 1 if isinstance(shift, int) else shift - one)) - 1
    return (value + half_less + lsb).shr_u(shift)


def _encode_e8m0(
    code: ScalarBuilder,
    magnitude: Value,
    negative: Value,
    nan: Value,
    precision: int,
    fmt: Format,
) -> Value:
    """A power of two: the exponent, one more when the mantissa's top bit is
    set (ties up); an f32 subnormal is 2^-127 up to it, 2^-126 above; zeros,
    negatives, NaN and overflow are NaN (as `ml_dtypes` converts)."""
    exponent = magnitude.shr_u(precision)
    half = magnitude.shr_u(precision - 1) & 1
    rounded = exponent + half
    above = magnitude.compare("ugt", 1 << (precision - 1))
    subnormal = code.select(above, 1, magnitude.coerce(0))
    rounded = code.select(exponent.eq(0), subnormal, rounded)
    bad = nan | negative | magnitude.eq(0) | rounded.compare("sgt", 254)
    return code.select(bad, 0xFF, rounded).truncate(fmt.storage)
