"""dot_general and transposes: a transposed operand folded into the
dimension numbers, and a transposed result computed directly by swapping the
operands.

dot_general's result lists the batch dims (in the order of the batching
lists), then each operand's free dims in increasing order. Renaming the
batching and contracting dims through the permutation keeps the batch
order; the free dims keep their order only when the permutation maps them
in increasing order, so the fold is done only then (else the result would
come out transposed).

A transpose of a dot_general's result that keeps the batch dims in place and
swaps the block of lhs free dims with the block of rhs free dims (each block
in order) is the dot_general of the swapped operands: JAX's weight gradients
(`dot(x, dy)` transposed back) are then produced in their final layout, so
the update that consumes them is elementwise and can run in place.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.attributes import (
    DotDimensionNumbersAttr,
)
from xlir.dialects.stablehlo.contraction import DotGeneralOp
from xlir.dialects.stablehlo.data_movement import TransposeOp


def _fold(
    operand: SSAValue, batch: Sequence[int], contract: Sequence[int]
) -> tuple[SSAValue, tuple[int, ...], tuple[int, ...]] | None:
    """The transpose's operand and the renamed dims, when the fold is valid."""
    transpose = operand.owner
    if not isinstance(transpose, TransposeOp):
        return None
    perm = transpose.dims
    used = set(batch) | set(contract)
    free = [perm[d] for d in range(len(perm)) if d not in used]
    if free != sorted(free):
        return None
    return (
        transpose.operand,
        tuple(perm[d] for d in batch),
        tuple(perm[d] for d in contract),
    )


class DotOfTranspose(RewritePattern):
    """dot_general(transpose(a), b) → dot_general(a, b) with renamed dims
    (either operand, or both)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DotGeneralOp, rewriter: PatternRewriter) -> None:
        dims = op.dot_dimension_numbers
        lhs, lhs_batch, lhs_contract = (
            op.lhs,
            dims.lhs_batching_dimensions.data,
            dims.lhs_contracting_dimensions.data,
        )
        rhs, rhs_batch, rhs_contract = (
            op.rhs,
            dims.rhs_batching_dimensions.data,
            dims.rhs_contracting_dimensions.data,
        )
        if folded := _fold(lhs, lhs_batch, lhs_contract):
            lhs, lhs_batch, lhs_contract = folded
        if folded := _fold(rhs, rhs_batch, rhs_contract):
            rhs, rhs_batch, rhs_contract = folded
        if lhs is op.lhs and rhs is op.rhs:
            return
        numbers = DotDimensionNumbersAttr.get(
            lhs_batch, rhs_batch, lhs_contract, rhs_contract
        )
        rewriter.replace(
            op,
            DotGeneralOp(
                lhs, rhs, numbers, op.precision_config, op.result.type, op.algorithm
            ),
        )


class TransposeOfDot(RewritePattern):
    """transpose(dot_general(a, b)) → dot_general(b, a) when the permutation
    swaps the two free blocks; only for a dot with no other user, so no dot
    is computed twice."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter) -> None:
        dot = op.operand.owner
        if not isinstance(dot, DotGeneralOp) or not dot.result.has_one_use():
            return
        if dot.algorithm is not None:  # its lhs and rhs fields would swap too
            return
        dims = dot.dot_dimension_numbers
        lhs_batch = dims.lhs_batching_dimensions.data
        batch = len(lhs_batch)
        lhs_rank = len(dot.lhs.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
        lhs_free = lhs_rank - batch - len(dims.lhs_contracting_dimensions.data)
        rank = len(op.dims)
        rhs_free = rank - batch - lhs_free
        swapped = [
            *range(batch),
            *range(batch + lhs_free, rank),
            *range(batch, batch + lhs_free),
        ]
        if list(op.dims) != swapped or lhs_free == 0 or rhs_free == 0:
            return
        numbers = DotDimensionNumbersAttr.get(
            dims.rhs_batching_dimensions.data,
            lhs_batch,
            dims.rhs_contracting_dimensions.data,
            dims.lhs_contracting_dimensions.data,
        )
        precision = dot.precision_config
        if precision is not None and len(precision.data) == 2:
            precision = type(precision)(tuple(reversed(precision.data)))
        rewriter.replace(
            op, DotGeneralOp(dot.rhs, dot.lhs, numbers, precision, op.result.type)
        )
        rewriter.erase(dot)


def dot_patterns() -> list[RewritePattern]:
    return [DotOfTranspose(), TransposeOfDot()]
