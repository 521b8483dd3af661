"""`stablehlo.map` whose computation is elementwise as the same ops on whole
tensors, as XLA's map inliner does.

The computation runs on 0-d tensors, one element of each input at a time.
When each of its ops is elementwise (its result is 0-d like its operands)
or a constant, running those ops once on the whole inputs gives every
element at once: each op is copied with its result widened to the map's
shape, and each constant broadcast to it. Any other op in the computation
(a reduce, a call), or a value read from outside the map, leaves the map
as it is.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xlir.dialects.stablehlo.control_flow import ReturnOp
from xlir.dialects.stablehlo.data_movement import BroadcastInDimOp, ConstantOp
from xlir.dialects.stablehlo.reduction import MapOp
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.passes.hlo.fusion.op_classes import (
    DIVISIONS,
    ELEMENTWISE_CHEAP,
    ELEMENTWISE_EXPENSIVE,
)

ELEMENTWISE = ELEMENTWISE_CHEAP | ELEMENTWISE_EXPENSIVE | DIVISIONS


def _is_scalar_op(op: Operation) -> bool:
    """An op of the computation that maps elements to elements."""
    if isinstance(op, ReturnOp):
        return True
    if any(shape(r.type) for r in op.results):
        return False  # a bitcast_convert between widths adds a dimension
    return isinstance(op, ConstantOp) or op.name in ELEMENTWISE


def can_inline(op: MapOp) -> bool:
    """Every op maps elements to elements and reads only the computation's
    arguments and its own values (not a value from outside the map)."""
    block = op.computation.block
    return all(
        _is_scalar_op(inner)
        and all(
            v.owner is block or v.owner.parent_block() is block  # type: ignore[union-attr]
            for v in inner.operands
        )
        for inner in block.ops
    )


def inline_map(op: MapOp) -> tuple[list[Operation], SSAValue]:
    """The ops that replace the map, and the value of its result."""
    dims = list(shape(op.result.type))
    block = op.computation.block
    values: dict[SSAValue, SSAValue] = dict(zip(block.args, op.inputs, strict=True))
    made: list[Operation] = []
    for inner in block.ops:
        if isinstance(inner, ReturnOp):
            break
        if isinstance(inner, ConstantOp):
            constant = inner.clone()
            wide = BroadcastInDimOp(
                constant.results[0],
                [],
                TensorType(element_type(inner.results[0].type), dims),
            )
            new = [constant, wide]
        else:
            new = [
                type(inner).create(
                    operands=[values[v] for v in inner.operands],
                    result_types=[
                        TensorType(element_type(r.type), dims) for r in inner.results
                    ],
                    properties=dict(inner.properties),
                    attributes=dict(inner.attributes),
                )
            ]
        for created in new:
            created.location = op.location
        made += new
        values[inner.results[0]] = new[-1].results[0]
    (returned,) = block.last_op.operands  # type: ignore[union-attr]
    return made, values.get(returned, returned)
