"""`chlo.ragged_dot` with a ragged non-contracting lhs dimension (its mode
1, a mixture of experts' grouped matmul) as one `dot_general` per group.

The lhs rows along the ragged dimension fall into consecutive groups of
`group_sizes` rows (rows past the last group are in none); the rows of
group `g` are multiplied by the rhs's slice `g` along its group dimension.
Each group's dot runs over all rows and is kept only on its own rows (a
select on the row index between the group's start and end, sums of the
sizes computed at run time); the groups' parts are then added up, as the
interpreter's kernel does. The other modes (ragged contracting or batch
dimensions) stay.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xlir.dialects.chlo_structured import RaggedDotOp
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.attributes import (
    DotDimensionNumbersAttr,
)
from xlir.dialects.stablehlo.contraction import DotGeneralOp
from xlir.dialects.stablehlo.data_movement import (
    BroadcastInDimOp,
    ConstantOp,
    IotaOp,
    ReshapeOp,
    SliceOp,
)
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
    Precision,
    PrecisionAttr,
)
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.passes.hlo.decompositions.emitter import scalar


def _fields(op: RaggedDotOp, name: str) -> list[int]:
    return list(op.ragged_dot_dimension_numbers.field(name))


def can_decompose(op: RaggedDotOp) -> bool:
    """A ragged lhs dimension that is neither batch nor contracting, and a
    result of integers or floats."""
    if not isinstance(element_type(op.result.type), IntegerType | AnyFloat):
        return False
    (ragged,) = _fields(op, "lhs_ragged_dimensions")
    batch = _fields(op, "lhs_batching_dimensions")
    contracting = _fields(op, "lhs_contracting_dimensions")
    return ragged not in batch + contracting


def ragged_dot(rewriter: PatternRewriter, op: RaggedDotOp) -> SSAValue:
    lb, rb = (
        _fields(op, "lhs_batching_dimensions"),
        _fields(op, "rhs_batching_dimensions"),
    )
    lc, rc = (
        _fields(op, "lhs_contracting_dimensions"),
        _fields(op, "rhs_contracting_dimensions"),
    )
    (ragged,) = _fields(op, "lhs_ragged_dimensions")
    (group,) = _fields(op, "rhs_group_dimensions")
    numbers = DotDimensionNumbersAttr.get(
        lb, [d - (d > group) for d in rb], lc, [d - (d > group) for d in rc]
    )
    lhs_free = [d for d in range(len(shape(op.lhs.type))) if d not in lb + lc]
    ragged_axis = len(lb) + lhs_free.index(ragged)
    result_type = op.result.type
    dims = list(shape(result_type))

    def emit(new: Operation) -> SSAValue:
        new.location = op.location
        rewriter.insert(new)
        return new.results[0]

    def spread(scalar: SSAValue) -> SSAValue:
        return emit(BroadcastInDimOp(scalar, [], TensorType(i64, dims)))

    rows = emit(IotaOp(ragged_axis, TensorType(i64, dims)))
    sizes = emit(
        ew.ConvertOp(op.group_sizes, TensorType(i64, shape(op.group_sizes.type)))
    )
    zero = scalar(element_type(result_type), 0)
    zeros = emit(BroadcastInDimOp(emit(ConstantOp(zero)), [], result_type))
    end = emit(ConstantOp(scalar(i64, 0)))
    rhs_shape = list(shape(op.rhs.type))
    total: SSAValue | None = None
    for g in range(rhs_shape[group]):
        size = emit(ReshapeOp(emit(SliceOp(sizes, [g], [g + 1])), TensorType(i64, [])))
        start, end = end, emit(ew.AddOp(end, size))
        after_start = ew.CompareOp(rows, spread(start), ComparisonDirection.GE, None)
        before_end = ew.CompareOp(rows, spread(end), ComparisonDirection.LT, None)
        mine = emit(ew.AndOp(emit(after_start), emit(before_end)))
        part = _group_dot(emit, op, g, group, rhs_shape, numbers, result_type)
        kept = emit(ew.SelectOp(mine, part, zeros))
        total = kept if total is None else emit(ew.AddOp(total, kept))
    assert total is not None, "ragged_dot's rhs has at least one group (verified)"
    return total


def _group_dot(
    emit,
    op: RaggedDotOp,
    g: int,
    group: int,
    rhs_shape: list[int],
    numbers: DotDimensionNumbersAttr,
    result_type: Attribute,
) -> SSAValue:
    """lhs times the rhs's slice `g` along the group dimension."""
    start = [0] * len(rhs_shape)
    limit = list(rhs_shape)
    start[group], limit[group] = g, g + 1
    kept = rhs_shape[:group] + rhs_shape[group + 1 :]
    element = element_type(op.rhs.type)
    rhs = emit(
        ReshapeOp(emit(SliceOp(op.rhs, start, limit)), TensorType(element, kept))
    )
    return emit(DotGeneralOp(op.lhs, rhs, numbers, _precision(op), result_type))


def _precision(op: RaggedDotOp) -> ArrayAttr[PrecisionAttr] | None:
    """The op's `#chlo<precision X>` list as stablehlo's precisions."""
    if op.precision_config is None:
        return None
    return ArrayAttr(
        [PrecisionAttr(Precision(p.data)) for p in op.precision_config.data]  # type: ignore[attr-defined]
    )
