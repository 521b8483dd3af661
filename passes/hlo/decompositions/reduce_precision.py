"""`stablehlo.reduce_precision` as integer operations on the float's bits,
as XLA's elemental emitter does, so targets need no kernel for it.

Rounding to `mantissa_bits` adds half of the last kept bit's weight (less
one, plus the last kept bit: ties to even) and clears the dropped bits; an
exponent past the range of `exponent_bits` then gives infinity (too large)
or zero (too small), keeping the sign. NaN stays the operand's NaN, or is
infinity of its sign when no mantissa bits are left to hold it (the
interpreter's `reduce_precision` is the reference).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute, SSAValue
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
)
from xlir.dialects.stablehlo.types import element_type
from xlir.passes.hlo.decompositions.emitter import Emitter

FORMATS: dict[type[Attribute], tuple[int, int, int]] = {
    Float16Type: (16, 5, 10),
    BFloat16Type: (16, 8, 7),
    Float32Type: (32, 8, 23),
    Float64Type: (64, 11, 52),
}
"""Bits, exponent bits and mantissa bits of the float types decomposed."""


def can_decompose(op: ew.ReducePrecisionOp) -> bool:
    return type(element_type(op.operand.type)) in FORMATS


def reduce_precision(e: Emitter, op: ew.ReducePrecisionOp) -> SSAValue:
    element = element_type(op.operand.type)
    width, source_exponent, source_mantissa = FORMATS[type(element)]
    exponent_bits = op.exponent_bits.value.data
    mantissa_bits = op.mantissa_bits.value.data
    unsigned = IntegerType(width, Signedness.UNSIGNED)

    def const(value: int) -> SSAValue:
        return e.const(value, unsigned)

    def shift_right(x: SSAValue, by: int) -> SSAValue:
        return e.emit(ew.ShiftRightLogicalOp(x, const(by)))

    x = op.operand
    original = bits = e.emit(ew.BitcastConvertOp(x, e.tensor(unsigned)))
    if mantissa_bits < source_mantissa:
        dropped = source_mantissa - mantissa_bits
        last_kept = 1 << dropped
        last_bit = shift_right(e.and_(bits, const(last_kept)), dropped)
        bias = e.add(last_bit, const((last_kept >> 1) - 1))
        keep = ~(last_kept - 1) & ((1 << width) - 1)
        bits = e.and_(e.add(bits, bias), const(keep))
    sign_mask = 1 << (width - 1)
    exponent_mask = ((1 << source_exponent) - 1) << source_mantissa
    if exponent_bits < source_exponent:
        sign = e.and_(bits, const(sign_mask))
        exponent = e.and_(bits, const(exponent_mask))
        bias = (1 << (source_exponent - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        largest = const((bias + reduced_bias) << source_mantissa)
        smallest = const((bias - reduced_bias) << source_mantissa)
        infinity = e.or_(sign, const(exponent_mask))
        too_small = e.compare(ComparisonDirection.LE, exponent, smallest)
        bits = e.select(too_small, sign, bits)
        too_large = e.compare(ComparisonDirection.GT, exponent, largest)
        bits = e.select(too_large, infinity, bits)
    result = e.emit(ew.BitcastConvertOp(bits, e.tensor(element)))
    if mantissa_bits > 0:
        nan_result = x
    else:
        signed_infinity = e.or_(
            e.and_(original, const(sign_mask)), const(exponent_mask)
        )
        nan_result = e.emit(ew.BitcastConvertOp(signed_infinity, e.tensor(element)))
    is_nan = e.compare(ComparisonDirection.NE, x, x)
    return e.select(is_nan, nan_result, result)
