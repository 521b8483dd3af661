"""A threshold test reads the clamped value when the program clamps anyway.

compare(x > c) → compare(max(x, m) > c) when `max(x, m)` (m, c splats,
m ≤ c) is already computed before the compare, and likewise c < x. It is
exact: where x > c ≥ m the maximum is x; where x ≤ c both x and m are at
most c, so the maximum is too; and a NaN x stays NaN through StableHLO's
NaN-propagating maximum, failing the test on both sides. TOTALORDER
compares are left alone (there a NaN may compare greater).

Why it pays: backpropagation through relu tests `x > 0` on the
pre-activation x, long after the forward pass computed relu(x) = max(x, 0).
Reading relu(x), which the weight gradient keeps alive anyway, lets the
pre-activation buffer die at the end of the forward pass (one activation
per layer less at peak, as in XLA's schedule).
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.elementwise import CompareOp, MaximumOp
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
    ComparisonType,
)
from xlir.passes.hlo.simplify_patterns.constants import splat_scalar


def _clamped(x: SSAValue, bound, before: Operation) -> SSAValue | None:
    """A `max(x, m)` result with splat m ≤ `bound`, of x's type, defined in
    the block of `before` ahead of it."""
    for use in x.uses:
        user = use.operation
        if not isinstance(user, MaximumOp) or user.result.type != x.type:
            continue
        if user.parent_block() is not before.parent_block():
            continue
        other = user.rhs if use.index == 0 else user.lhs
        m = splat_scalar(other)
        if m is not None and m <= bound and user.is_before_in_block(before):
            return user.result
    return None


class CompareReadsClamped(RewritePattern):
    """x > c → max(x, m) > c, c < x → c < max(x, m); see the module docstring."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CompareOp, rewriter: PatternRewriter) -> None:
        if (
            op.compare_type is not None
            and op.compare_type.data == ComparisonType.TOTALORDER
        ):
            return
        direction = op.comparison_direction.data
        if direction == ComparisonDirection.GT:
            x_index, c = 0, op.rhs
        elif direction == ComparisonDirection.LT:
            x_index, c = 1, op.lhs
        else:
            return
        bound = splat_scalar(c)
        if bound is None:
            return
        clamped = _clamped(op.operands[x_index], bound, op)
        if clamped is not None:
            op.operands[x_index] = clamped
            rewriter.notify_op_modified(op)


def compare_clamped_patterns() -> list[RewritePattern]:
    return [CompareReadsClamped()]
