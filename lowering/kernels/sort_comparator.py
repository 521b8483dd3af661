"""A sort comparator that orders canonicalized floats by their total order,
rewritten as the few float compares that give the same answers.

JAX sorts floats (`jnp.sort`, `argsort`, `lax.sort`) with a comparator
that first canonicalizes each side, `select(x != x, NaN, select(x == 0, 0,
x))`, so that -0 sorts with +0 and every NaN as one positive NaN, then
compares with `compare LT, ..., TOTALORDER`. Inlined as it is, each
comparison is about twenty scalar ops (two canonicalizations, two integer
keys of the total order), and a sort kernel inlines the comparator many
times (`lowering/kernels/sort.py`: a sorting network and a merge step jammed
over several rows), which is most of what the kernel costs to compile.

On canonicalized sides the total order is the float order with NaN above
everything, so `a <T b` is "a < b, or b is NaN and a is not", which is
`!(a >= b) && a == a` (`>=` and `==` are ordered compares: false on NaN),
and `a >T b` is `b <T a`. The answer is the same for every pair of inputs,
so the sort's result is the same bit for bit.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, BlockArgument, SSAValue
from xlir.dialects.stablehlo.control_flow import ReturnOp
from xlir.dialects.stablehlo.elementwise import AndOp, CompareOp, NotOp, SelectOp
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
    ComparisonType,
)
from xlir.dialects.stablehlo.types import is_float
from xlir.passes.hlo.simplify_patterns.constants import splat_scalar


def cheaper_comparator(block: Block) -> Block:
    """`block`'s rewrite (a new block of the same arguments) where it is a
    total-order LT or GT of two canonicalized arguments; else `block`."""
    returned = block.last_op
    if not isinstance(returned, ReturnOp) or len(returned.operands) != 1:
        return block
    compare = returned.operands[0].owner
    if not (
        isinstance(compare, CompareOp)
        and _compare_type(compare) == ComparisonType.TOTALORDER
    ):
        return block
    direction = compare.comparison_direction.data
    lhs, rhs = _canonicalized(compare.lhs, block), _canonicalized(compare.rhs, block)
    if lhs is None or rhs is None or direction not in _DIRECTIONS:
        return block
    if direction == ComparisonDirection.GT:
        lhs, rhs = rhs, lhs
    rewritten = Block(arg_types=block.arg_types)
    a, b = rewritten.args[lhs.index], rewritten.args[rhs.index]
    at_least = CompareOp(a, b, ComparisonDirection.GE, ComparisonType.FLOAT)
    below = NotOp(at_least.result)
    ordered = CompareOp(a, a, ComparisonDirection.EQ, ComparisonType.FLOAT)
    less = AndOp(below.result, ordered.result)
    ops = [at_least, below, ordered, less, ReturnOp([less.result])]
    for op in ops:
        op.location = compare.location
    rewritten.add_ops(ops)
    return rewritten


_DIRECTIONS = (ComparisonDirection.LT, ComparisonDirection.GT)


def _compare_type(compare: CompareOp) -> ComparisonType | None:
    kind = compare.compare_type
    return None if kind is None else kind.data


def _canonicalized(value: SSAValue, block: Block) -> BlockArgument | None:
    """The float argument x of `block` where `value` is `select(x != x, NaN,
    select(x == 0, zero, x))` with a positive NaN (above +inf in the total
    order, as every NaN then is) and a zero of either sign."""
    outer = value.owner
    if not isinstance(outer, SelectOp) or not _is_constant(outer.on_true, _is_nan):
        return None
    inner = outer.on_false.owner
    if not isinstance(inner, SelectOp) or not _is_constant(inner.on_true, _is_zero):
        return None
    x = inner.on_false
    if not (
        isinstance(x, BlockArgument)
        and x.block is block
        and isinstance(x.type, TensorType)
        and is_float(x.type.get_element_type())
        and _is_compare(outer.pred, ComparisonDirection.NE, x, x)
        and _is_compare(inner.pred, ComparisonDirection.EQ, x, None)
    ):
        return None
    return x


def _is_compare(
    value: SSAValue, direction: ComparisonDirection, lhs: SSAValue, rhs: SSAValue | None
) -> bool:
    """Whether `value` is the float compare `lhs direction rhs`; `rhs` None:
    with a zero constant."""
    compare = value.owner
    if not (
        isinstance(compare, CompareOp)
        and compare.comparison_direction.data == direction
        and _compare_type(compare) in (None, ComparisonType.FLOAT)
        and compare.lhs is lhs
    ):
        return False
    if rhs is None:
        return _is_constant(compare.rhs, _is_zero)
    return compare.rhs is rhs


def _is_constant(value: SSAValue, test) -> bool:
    scalar = splat_scalar(value)
    return scalar is not None and bool(test(scalar.astype(np.float64)))


def _is_nan(x: np.ndarray) -> bool:
    return bool(np.isnan(x)) and not bool(np.signbit(x))


def _is_zero(x: np.ndarray) -> bool:
    return bool(x == 0)
