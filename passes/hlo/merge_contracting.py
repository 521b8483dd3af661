"""A dot_general's contracting dims that lie together in both operands
merged into one, through reshapes of the operands: the contraction part
of XLA's DotDecomposer (which brings a dot to `[batch, m, k] x [batch, k,
n]` form).

The loop level makes a dot one nest over its result with a loop per
contracting dim, and the CPU's prebuilt GEMM routine (`gemm-calls`) and
`register-tile` take one: an einsum contracting `[.., 16, 32] x [16, 32,
..]` is one sum of 512 terms. Merged: runs of at least two contracting
pairs whose lhs dims and rhs dims are each consecutive and ascending (the
lists may give the pairs in any order; they are taken sorted by the lhs
dim). Row-major, consecutive dims are one dim of their product, so the
reshapes move no data (`passes/hlo/buffers/sharing.py`: views); the
result keeps its dims, so the dot keeps its fused consumers (merging free
dims too, as DotDecomposer does, would reshape the result, and the
elementwise ops after it would no longer fuse into the dot's fusion:
`gemm-calls` merges rows at the loop level instead).

The merged loop sums the same terms in the lhs's row-major order, the
nest's order (outer dim first) where the list ascends, and `block-sums`
chunks a nest by whole inner iterations, so `[16, 32]` is summed as 512
terms are: the same bits where the inner extent divides 256. The dot's
`algorithm` stays; not for the byte quads of `int-dot-quads` (their layout).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.attributes import DotDimensionNumbersAttr
from xlir.dialects.stablehlo.contraction import DotGeneralOp
from xlir.dialects.stablehlo.data_movement import ReshapeOp
from xlir.dialects.stablehlo.types import shape
from xlir.passes.hlo.int_dot_quads import is_byte_quad_dot


def contracting_runs(
    lhs: Sequence[int], rhs: Sequence[int]
) -> list[tuple[list[int], list[int]]]:
    """The contracting pairs `(lhs[i], rhs[i])`, sorted by the lhs dim and
    cut where either dim does not follow the one before: the lhs dims and
    the rhs dims of each piece."""
    runs: list[tuple[list[int], list[int]]] = []
    for left, right in sorted(zip(lhs, rhs, strict=True)):
        if runs and runs[-1][0][-1] + 1 == left and runs[-1][1][-1] + 1 == right:
            runs[-1][0].append(left)
            runs[-1][1].append(right)
        else:
            runs.append(([left], [right]))
    return runs


def merged_dims(rank: int, runs: Sequence[list[int]]) -> list[list[int]]:
    """An operand's dims in order, each run of `runs` as one."""
    first = {run[0]: run for run in runs}
    inside = {dim for run in runs for dim in run[1:]}
    return [first.get(dim, [dim]) for dim in range(rank) if dim not in inside]


class MergeContractingDims(RewritePattern):
    """dot_general(a, b) with contracting dims that lie together →
    dot_general(reshape(a), reshape(b)) with them merged (module
    docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DotGeneralOp, rewriter: PatternRewriter) -> None:
        if is_byte_quad_dot(op):
            return
        dims = op.dot_dimension_numbers
        runs = contracting_runs(
            dims.lhs_contracting_dimensions.data, dims.rhs_contracting_dimensions.data
        )
        if all(len(lhs) == 1 for lhs, _ in runs):
            return
        reshapes: list[Operation] = []

        def merged(
            value: SSAValue, batch: Sequence[int], contract: list[list[int]]
        ) -> tuple[SSAValue, list[int], list[int]]:
            """`value` reshaped, and where its batch and contracting dims
            are then."""
            type_ = value.type
            assert isinstance(type_, TensorType)
            sizes = shape(type_)
            groups = merged_dims(len(sizes), contract)
            new_dim = {group[0]: i for i, group in enumerate(groups)}
            reshape = ReshapeOp(
                value,
                TensorType(
                    type_.element_type,
                    [math.prod(sizes[d] for d in group) for group in groups],
                ),
            )
            reshape.location = op.location
            reshapes.append(reshape)
            return (
                reshape.result,
                [new_dim[d] for d in batch],
                [new_dim[run[0]] for run in contract],
            )

        lhs, lhs_batch, lhs_contract = merged(
            op.lhs, dims.lhs_batching_dimensions.data, [lhs for lhs, _ in runs]
        )
        rhs, rhs_batch, rhs_contract = merged(
            op.rhs, dims.rhs_batching_dimensions.data, [rhs for _, rhs in runs]
        )
        dot = DotGeneralOp(
            lhs,
            rhs,
            DotDimensionNumbersAttr.get(
                lhs_batch, rhs_batch, lhs_contract, rhs_contract
            ),
            op.precision_config,
            op.result.type,
            op.algorithm,
        )
        dot.location = op.location
        rewriter.replace(op, [*reshapes, dot], [dot.result])
