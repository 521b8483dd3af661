"""The integer a value always is, where its ops alone say so.

A small constant folder over `arith` for passes that choose by a value's
constancy before LLVM folds it: a constant or a splat of one, a
`vector.broadcast` of one, an `arith.select` whose condition is known (or
whose sides agree), an `andi`/`ori` with an absorbing side (`x & 0`,
`x | -1`) or two known sides, and an `arith.cmpi` of two known sides.
`hlo-to-loop`'s guard of a division by a constant `b`, `select(b == 0 |
(a == MIN & b == -1), 1, b)`, comes to `b` so. `known_float` gives the
float a constant (a splat, a broadcast of one) is.
"""

from __future__ import annotations

from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue


def known(value: SSAValue, depth: int = 8) -> int | None:
    """The integer `value` always is (an i1 as 0 or 1), where its ops alone
    say so, else None; `depth` bounds the search up the operands."""
    op = value.owner
    if depth == 0 or not isinstance(op, Operation):
        return None
    if isinstance(op, arith.ConstantOp):
        attribute = _constant(value)
        if isinstance(attribute, IntegerAttr):
            return _signed(attribute.value.data, value.type)
        return None
    if isinstance(op, vector.BroadcastOp):
        return known(op.source, depth - 1)
    if isinstance(op, arith.SelectOp):
        condition = known(op.cond, depth - 1)
        if condition is not None:
            return known(op.lhs if condition else op.rhs, depth - 1)
        chosen = known(op.lhs, depth - 1)
        return chosen if chosen == known(op.rhs, depth - 1) else None
    if isinstance(op, arith.AndIOp | arith.OrIOp):
        lhs, rhs = known(op.lhs, depth - 1), known(op.rhs, depth - 1)
        absorbing = 0 if isinstance(op, arith.AndIOp) else _signed(-1, value.type)
        if absorbing in (lhs, rhs):
            return absorbing
        if lhs is None or rhs is None:
            return None
        both = lhs & rhs if isinstance(op, arith.AndIOp) else lhs | rhs
        return _signed(both, value.type)
    if isinstance(op, arith.CmpiOp):
        lhs, rhs = known(op.lhs, depth - 1), known(op.rhs, depth - 1)
        if lhs is None or rhs is None:
            return None
        return int(_compare(op.predicate.value.data, lhs, rhs, _width(op.lhs.type)))
    return None


def known_float(value: SSAValue) -> float | None:
    """The float a constant, a splat of one or a broadcast of one is, else
    None."""
    attribute = _constant(value)
    return attribute.value.data if isinstance(attribute, FloatAttr) else None


def _constant(value: SSAValue) -> Attribute | None:
    """The attribute of a constant, of a splat's lanes, or of the scalar a
    `vector.broadcast` spreads, else None."""
    op = value.owner
    while isinstance(op, vector.BroadcastOp):
        op = op.source.owner
    if not isinstance(op, arith.ConstantOp):
        return None
    attribute = op.value
    if isinstance(attribute, DenseIntOrFPElementsAttr) and attribute.is_splat():
        attribute = attribute.get_attrs()[0]
    return attribute


def _width(type_: Attribute) -> int:
    """Bits of an integer (or `index`: 64, the CPU's) or of a vector's lanes."""
    element = type_.element_type if isinstance(type_, VectorType) else type_
    if isinstance(element, IndexType):
        return 64
    assert isinstance(element, IntegerType)
    return element.width.data


def _signed(number: int, type_: Attribute) -> int:
    """`number` as a signed value of the type's width (an i1: 0 or 1)."""
    width = _width(type_)
    if width == 1:
        return number & 1
    number &= (1 << width) - 1
    return number - (1 << width) if number >> (width - 1) else number


def _compare(predicate: int, lhs: int, rhs: int, width: int) -> bool:
    """`arith.cmpi`'s predicates in order: eq, ne, slt, sle, sgt, sge, ult,
    ule, ugt, uge (operands signed, as `known` gives them)."""
    if predicate >= 6:
        lhs, rhs = lhs % (1 << width), rhs % (1 << width)
        predicate -= 4
    return [
        lhs == rhs,
        lhs != rhs,
        lhs < rhs,
        lhs <= rhs,
        lhs > rhs,
        lhs >= rhs,
    ][predicate]
