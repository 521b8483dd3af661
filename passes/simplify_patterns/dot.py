"""dot_general of a transposed operand: the transpose folded into the
dimension numbers.

dot_general's result lists the batch dims (in the order of the batching
lists), then each operand's free dims in increasing order. Renaming the
batching and contracting dims through the permutation keeps the batch
order; the free dims keep their order only when the permutation maps them
in increasing order, so the fold is done only then (else the result would
come out transposed).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.attributes import DotDimensionNumbersAttr
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
            DotGeneralOp(lhs, rhs, numbers, op.precision_config, op.result.type),
        )


def dot_patterns() -> list[RewritePattern]:
    return [DotOfTranspose()]
