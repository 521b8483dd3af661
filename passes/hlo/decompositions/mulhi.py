"""`chlo.mulhi`: the high half of the double-width product of two integers,
as plain stablehlo integer arithmetic.

Up to 32 bits, the operands are widened to 64 bits (signed or unsigned as
they are), multiplied exactly there and shifted right by the width; the
high half fits the original type, so the narrowing convert is exact. At 64
bits there is no wider type: the unsigned product is built from the four
32x32-bit partial products of the operands' halves (schoolbook
multiplication, each partial product and carry sum fitting 64 bits), and a
signed high half is the unsigned one minus `b` where `a < 0` and minus `a`
where `b < 0` (modulo 2^64), on the operands' bits read as unsigned.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, Signedness, TensorType
from xdsl.ir import SSAValue
from xlir.dialects import chlo
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
)
from xlir.dialects.stablehlo.types import element_type
from xlir.passes.hlo.decompositions.emitter import Emitter

si64 = IntegerType(64)
ui64 = IntegerType(64, Signedness.UNSIGNED)


def mulhi(e: Emitter, op: chlo.MulhiOp) -> SSAValue:
    element = element_type(op.lhs.type)
    assert isinstance(element, IntegerType)
    signed = element.signedness.data != Signedness.UNSIGNED
    width = element.width.data
    if width < 64:
        wide = si64 if signed else ui64
        product = e.mul(e.convert(op.lhs, wide), e.convert(op.rhs, wide))
        shift = ew.ShiftRightArithmeticOp if signed else ew.ShiftRightLogicalOp
        high = e.emit(shift(product, e.const(width, wide)))
        return e.convert(high, element)
    a, b = op.lhs, op.rhs
    if signed:
        a = e.emit(ew.BitcastConvertOp(a, e.tensor(ui64)))
        b = e.emit(ew.BitcastConvertOp(b, e.tensor(ui64)))
    high = _unsigned_high_half(e, a, b)
    if not signed:
        return high
    zero_signed, zero = e.const(0, si64), e.const(0, ui64)
    for negative, other in ((op.lhs, b), (op.rhs, a)):
        below = e.compare(ComparisonDirection.LT, negative, zero_signed)
        high = e.sub(high, e.select(below, other, zero))
    return e.emit(ew.BitcastConvertOp(high, TensorType(element, e.shape)))


def _unsigned_high_half(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    mask, half = e.const(0xFFFFFFFF, ui64), e.const(32, ui64)

    def high(x: SSAValue) -> SSAValue:
        return e.emit(ew.ShiftRightLogicalOp(x, half))

    a_low, a_high = e.and_(a, mask), high(a)
    b_low, b_high = e.and_(b, mask), high(b)
    middle = e.add(e.mul(a_high, b_low), high(e.mul(a_low, b_low)))
    other_middle = e.add(e.mul(a_low, b_high), e.and_(middle, mask))
    return e.add(e.add(e.mul(a_high, b_high), high(middle)), high(other_middle))
