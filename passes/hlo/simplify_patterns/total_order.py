"""A total-order compare of canonicalized floats is a few float compares.

JAX sorts floats (`jnp.sort`, `argsort`, `lax.sort`) with a comparator
that first canonicalizes each side, `select(x != x, NaN, select(x == 0, 0,
x))`, so that -0 sorts with +0 and every NaN as one positive NaN, then
compares with `compare LT, ..., TOTALORDER`. As it is, each comparison is
about twenty scalar ops (two canonicalizations, two integer keys of the
total order), and a sort kernel inlines its comparator many times
(`lowering/kernels/sort.py`: a sorting network and a merge step jammed over
several rows), which is most of what the kernel costs to compile.

On canonicalized sides the total order is the float order with NaN above
everything, so `canon(x) <T canon(y)` is "x < y, or y is NaN and x is
not", which is `!(x >= y) && x == x` on x and y themselves (`>=` and `==`
are ordered compares: false on NaN, and -0 >= +0), and `>T` is `<T` with
the sides swapped. The answer is the same for every pair of inputs, so a
sort's result is the same bit for bit. A negative canonical NaN (below -inf
in the total order) is left alone.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.elementwise import AndOp, CompareOp, NotOp, SelectOp
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
    ComparisonType,
)
from xlir.dialects.stablehlo.types import is_float
from xlir.passes.hlo.simplify_patterns.constants import splat_scalar


class CanonicalizedTotalOrder(RewritePattern):
    """compare(canon(x) LT canon(y), TOTALORDER) → !(x >= y) && x == x (GT:
    the sides swapped); see the module docstring."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CompareOp, rewriter: PatternRewriter) -> None:
        if _compare_type(op) != ComparisonType.TOTALORDER:
            return
        direction = op.comparison_direction.data
        a, b = _canonicalized(op.lhs), _canonicalized(op.rhs)
        if a is None or b is None or direction not in _DIRECTIONS:
            return
        if direction == ComparisonDirection.GT:
            a, b = b, a
        at_least = CompareOp(a, b, ComparisonDirection.GE, ComparisonType.FLOAT)
        below = NotOp(at_least.result)
        ordered = CompareOp(a, a, ComparisonDirection.EQ, ComparisonType.FLOAT)
        less = AndOp(below.result, ordered.result)
        ops = [at_least, below, ordered, less]
        for new in ops:
            new.location = op.location
        rewriter.replace(op, ops, [less.result])


def total_order_patterns() -> list[RewritePattern]:
    return [CanonicalizedTotalOrder()]


_DIRECTIONS = (ComparisonDirection.LT, ComparisonDirection.GT)


def _compare_type(compare: CompareOp) -> ComparisonType | None:
    kind = compare.compare_type
    return None if kind is None else kind.data


def _canonicalized(value: SSAValue) -> SSAValue | None:
    """The float x where `value` is `select(x != x, NaN, select(x == 0,
    zero, x))` with a positive NaN (above +inf in the total order, as every
    NaN then is) and a zero of either sign."""
    outer = value.owner
    if not isinstance(outer, SelectOp) or not _is_constant(outer.on_true, _is_nan):
        return None
    inner = outer.on_false.owner
    if not isinstance(inner, SelectOp) or not _is_constant(inner.on_true, _is_zero):
        return None
    x = inner.on_false
    if not (
        isinstance(x.type, TensorType)
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
