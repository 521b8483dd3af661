"""top_k as a stable descending sort of (operand, iota) along the last
dimension, then a slice of the first k columns of both.

The comparator orders floats by `compare GT, TOTALORDER` (NaN above +inf, +0
above -0, as chlo.top_k does), integers as signed or unsigned numbers; the
stable sort keeps the lower index first among equal elements.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, TensorType, i64
from xdsl.ir import Block, Region, SSAValue
from xlir.dialects.chlo import TopKOp
from xlir.dialects.stablehlo.control_flow import ReturnOp
from xlir.dialects.stablehlo.data_movement import IotaOp, SliceOp
from xlir.dialects.stablehlo.elementwise import CompareOp
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
    ComparisonType,
)
from xlir.dialects.stablehlo.reduction import SortOp
from xlir.dialects.stablehlo.types import (
    element_type,
    is_bool,
    is_float,
    is_unsigned,
    shape,
)
from xlir.passes.hlo.decompositions.emitter import Emitter


def _compare_type(element) -> ComparisonType:
    if is_float(element):
        return ComparisonType.TOTALORDER
    if is_unsigned(element) or is_bool(element):
        return ComparisonType.UNSIGNED
    return ComparisonType.SIGNED


def _comparator(e: Emitter, element, index_element) -> Region:
    """(lhs, rhs, lhs_index, rhs_index) -> lhs > rhs."""
    value, index = TensorType(element, []), TensorType(index_element, [])
    block = Block(arg_types=[value, value, index, index])
    greater = CompareOp(
        block.args[0], block.args[1], ComparisonDirection.GT, _compare_type(element)
    )
    done = ReturnOp([greater.result])
    for op in (greater, done):
        op.location = e.op.location
    block.add_ops([greater, done])
    return Region(block)


def top_k(e: Emitter, op: TopKOp) -> list[SSAValue]:
    in_shape = shape(op.operand.type)
    rank, k = len(in_shape), op.k.value.data
    element = element_type(op.operand.type)
    index_element = element_type(op.indices.type)
    iota = e.emit(IotaOp(rank - 1, TensorType(index_element, in_shape)))
    sort = SortOp.create(
        operands=[op.operand, iota],
        result_types=[op.operand.type, iota.type],
        properties={
            "dimension": IntegerAttr(rank - 1, i64),
            "is_stable": BoolAttr.from_bool(True),
        },
        regions=[_comparator(e, element, index_element)],
    )
    e.emit(sort)
    limit = [*in_shape[:-1], k]
    return [e.emit(SliceOp(result, [0] * rank, limit)) for result in sort.results]
