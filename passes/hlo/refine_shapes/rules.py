"""Result shapes of ops from their (refined) operand shapes, for `refine-shapes`.

Each rule returns one shape per result, with `DYNAMIC` where the operands do
not tell; the rules are StableHLO's (`dialects/stablehlo/shape_rules.py`,
which the verifiers use too). An op without a rule here keeps its declared
result types, and a dynamic one among them is reported by the pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX as DYNAMIC
from xdsl.ir import Operation
from xlir.dialects.chlo import CHLO_OPS, TopKOp
from xlir.dialects.stablehlo import shape_rules
from xlir.dialects.stablehlo.contraction import (
    ConvolutionOp,
    DotGeneralOp,
    DotOp,
)
from xlir.dialects.stablehlo.data_movement import (
    BroadcastInDimOp,
    ConcatenateOp,
    PadOp,
    ReshapeOp,
    SliceOp,
    TransposeOp,
)
from xlir.dialects.stablehlo.elementwise import ELEMENTWISE_OPS
from xlir.dialects.stablehlo.indexing import GatherOp, infer_gather_shape
from xlir.dialects.stablehlo.reduction import ReduceOp, ReduceWindowOp
from xlir.dialects.stablehlo.types import shape
from xlir.dialects.syntax import array_values

Shape = tuple[int, ...]

ELEMENTWISE: frozenset[str] = frozenset(
    [op.name for op in ELEMENTWISE_OPS]
    + [op.name for op in CHLO_OPS if op.name.startswith("chlo.") and op is not TopKOp]
    + [
        "stablehlo.map",
        "stablehlo.uniform_quantize",
        "stablehlo.uniform_dequantize",
    ]
)
"""Ops whose result has the shape of their operands of its rank (select and
clamp take rank-0 operands beside full ones)."""

LIKE_OPERANDS: frozenset[str] = frozenset(
    {
        "stablehlo.sort",
        "stablehlo.scatter",
        "stablehlo.optimization_barrier",
        "stablehlo.reverse",
        "stablehlo.cholesky",
    }
)
"""Ops whose result i has the shape of operand i."""

LIKE_FIRST_OPERAND: frozenset[str] = frozenset(
    {
        "stablehlo.dynamic_update_slice",
        "stablehlo.select_and_scatter",
    }
)
"""Ops whose results all have the shape of their first operand."""


def _merge(a: Sequence[int], b: Sequence[int]) -> Shape:
    """Two shapes of one value, each dimension the static one where either is."""
    return tuple(x if x != DYNAMIC else y for x, y in zip(a, b, strict=True))


def _elementwise(op: Operation) -> list[Shape]:
    rank = len(shape(op.results[0].type))
    merged: Shape = (DYNAMIC,) * rank
    for operand in op.operands:
        if len(shape(operand.type)) == rank:
            merged = _merge(merged, shape(operand.type))
    return [merged] * len(op.results)


def _broadcast_in_dim(op: BroadcastInDimOp) -> list[Shape]:
    out = list(shape(op.result.type))
    source = shape(op.operand.type)
    for i, d in enumerate(array_values(op.broadcast_dimensions)):
        if source[i] not in (1, DYNAMIC):
            out[d] = source[i]
    return [tuple(out)]


def _reshape(op: ReshapeOp) -> list[Shape]:
    """A single unknown result dimension is the element count over the rest."""
    out = shape(op.result.type)
    source = shape(op.operand.type)
    if DYNAMIC in source or list(out).count(DYNAMIC) != 1:
        return [out]
    known = 1
    for d in out:
        known *= d if d != DYNAMIC else 1
    total = 1
    for d in source:
        total *= d
    if known == 0 or total % known:
        return [out]
    return [tuple(total // known if d == DYNAMIC else d for d in out)]


def _dot_general(op: DotGeneralOp) -> list[Shape]:
    dims = op.dot_dimension_numbers
    return [
        shape_rules.infer_dot_general(
            shape(op.lhs.type),
            shape(op.rhs.type),
            dims.lhs_batching_dimensions.data,
            dims.rhs_batching_dimensions.data,
            dims.lhs_contracting_dimensions.data,
            dims.rhs_contracting_dimensions.data,
        )
    ]


def _convolution(op: ConvolutionOp) -> list[Shape]:
    return [op.inferred_shape()]


def _reduce(op: ReduceOp) -> list[Shape]:
    reduced = shape_rules.infer_reduce(
        shape(op.inputs[0].type), array_values(op.dimensions)
    )
    return [reduced] * len(op.outputs)


def _top_k(op: TopKOp) -> list[Shape]:
    operand = shape(op.operand.type)
    values = (*operand[:-1], op.k.value.data)
    return [values, values]


RULES: dict[str, Callable[[Operation], list[Shape]]] = {
    BroadcastInDimOp.name: _broadcast_in_dim,  # pyright: ignore[reportAssignmentType]
    ReshapeOp.name: _reshape,  # pyright: ignore[reportAssignmentType]
    TransposeOp.name: lambda op: [
        shape_rules.infer_transpose(
            shape(op.operands[0].type),
            array_values(op.permutation),  # pyright: ignore[reportAttributeAccessIssue]
        )
    ],
    ConcatenateOp.name: lambda op: [
        shape_rules.infer_concatenate(
            [shape(v.type) for v in op.operands],
            op.dimension.value.data,  # pyright: ignore[reportAttributeAccessIssue]
        )
    ],
    SliceOp.name: lambda op: [
        shape_rules.infer_slice(
            shape(op.operands[0].type),
            array_values(op.start_indices),  # pyright: ignore[reportAttributeAccessIssue]
            array_values(op.limit_indices),  # pyright: ignore[reportAttributeAccessIssue]
            array_values(op.strides),  # pyright: ignore[reportAttributeAccessIssue]
        )
    ],
    PadOp.name: lambda op: [
        shape_rules.infer_pad(
            shape(op.operands[0].type),
            array_values(op.edge_padding_low),  # pyright: ignore[reportAttributeAccessIssue]
            array_values(op.edge_padding_high),  # pyright: ignore[reportAttributeAccessIssue]
            array_values(op.interior_padding),  # pyright: ignore[reportAttributeAccessIssue]
        )
    ],
    DotGeneralOp.name: _dot_general,  # pyright: ignore[reportAssignmentType]
    DotOp.name: lambda op: [
        shape_rules.infer_dot(shape(op.operands[0].type), shape(op.operands[1].type))
    ],
    ConvolutionOp.name: _convolution,  # pyright: ignore[reportAssignmentType]
    GatherOp.name: lambda op: [
        infer_gather_shape(
            shape(op.operands[0].type),
            shape(op.operands[1].type),
            op.dimension_numbers,  # pyright: ignore[reportAttributeAccessIssue]
            array_values(op.slice_sizes),  # pyright: ignore[reportAttributeAccessIssue]
        )
    ],
    ReduceOp.name: _reduce,  # pyright: ignore[reportAssignmentType]
    ReduceWindowOp.name: lambda op: [op.inferred_shape()] * len(op.results),  # pyright: ignore[reportAttributeAccessIssue]
    TopKOp.name: _top_k,  # pyright: ignore[reportAssignmentType]
}
"""Rules by op name, beyond the families above."""


def inferred_shapes(op: Operation) -> list[Shape] | None:
    """The result shapes the op's operands give, or None without a rule.
    Raises `shape_rules.ShapeError` when the operands break the op's rule."""
    if op.name in ELEMENTWISE:
        return _elementwise(op)
    if op.name in LIKE_OPERANDS:
        return [shape(v.type) for v in op.operands[: len(op.results)]]
    if op.name in LIKE_FIRST_OPERAND:
        return [shape(op.operands[0].type)] * len(op.results)
    rule = RULES.get(op.name)
    return rule(op) if rule is not None else None
