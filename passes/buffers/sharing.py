"""Which results may reuse an operand's buffer, and how.

Two ways, both for row-major buffers:

* **views** move no data: the result *is* the operand's bytes. `reshape`,
  `bitcast_convert`, a `broadcast_in_dim` that only inserts unit dimensions
  (same element count, dimensions in order), `optimization_barrier`, and an
  `hlo.fusion` output that is one of its inputs seen through such views.
* **in place**: the op may write its result over an operand that dies there,
  because it reads element i of that operand only to write element i of the
  result (XLA's CanShareBuffer): elementwise ops on a full-shape operand,
  `loop` fusions whose input reaches the output only through elementwise ops
  and views, and the operand of `dynamic_update_slice` and `scatter` (also as
  the root of a loop fusion). Not dot, reduce, transpose, gather, …: they read
  elements they have already overwritten. The caller checks byte sizes.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xlir.dialects.hlo import FusionKind, FusionOp
from xlir.dialects.stablehlo.control_flow import OptimizationBarrierOp
from xlir.dialects.stablehlo.data_movement import (
    BroadcastInDimOp,
    DynamicUpdateSliceOp,
    ReshapeOp,
)
from xlir.dialects.stablehlo.elementwise import (
    ELEMENTWISE_OPS,
    BitcastConvertOp,
)
from xlir.dialects.stablehlo.indexing import ScatterOp
from xlir.dialects.syntax import array_values

_ELEMENTWISE = tuple(t for t in ELEMENTWISE_OPS if t is not BitcastConvertOp)


def _num_elements(value: SSAValue) -> int | None:
    if not isinstance(value.type, TensorType):
        return None
    return prod(value.type.get_shape())


def _is_view_op(op: Operation) -> bool:
    if isinstance(op, ReshapeOp | BitcastConvertOp):
        return True
    if isinstance(op, BroadcastInDimOp):
        dims = array_values(op.broadcast_dimensions)
        return _num_elements(op.operand) == _num_elements(op.results[0]) and list(
            dims
        ) == sorted(set(dims))
    return False


def view_source(op: Operation, index: int) -> SSAValue | None:
    """The operand whose bytes result `index` of `op` is, or None."""
    if _is_view_op(op):
        return op.operands[0]
    if isinstance(op, OptimizationBarrierOp):
        return op.operands[index]
    if isinstance(op, FusionOp):
        value = op.yield_op.values[index]
        while isinstance(value, SSAValue) and not isinstance(value, BlockArgument):
            if not _is_view_op(value.owner):  # pyright: ignore[reportArgumentType]
                return None
            value = value.owner.operands[0]  # pyright: ignore[reportAttributeAccessIssue]
        return op.inputs[value.index]
    return None


def in_place_operands(op: Operation, index: int) -> list[int]:
    """The operands result `index` of `op` may overwrite when they die at `op`."""
    result = op.results[index]
    if isinstance(op, _ELEMENTWISE):
        return [
            i
            for i, v in enumerate(op.operands)
            if _num_elements(v) == _num_elements(result)
        ]
    if isinstance(op, DynamicUpdateSliceOp):
        return [0]
    if isinstance(op, ScatterOp):
        return [index]
    if isinstance(op, FusionOp) and op.fusion_kind == FusionKind.LOOP:
        target = op.yield_op.values[index]
        return [i for i, arg in enumerate(op.block.args) if _reads_in_step(arg, target)]
    return []


def _reads_in_step(arg: BlockArgument, target: SSAValue) -> bool:
    """Inside a loop fusion: `arg` reaches `target` and every read of it is of
    the element being written (elementwise ops, views, or the updated operand
    of a dynamic_update_slice/scatter)."""
    if _num_elements(arg) != _num_elements(target):
        return False
    reaches = False
    pending: list[SSAValue] = [arg]
    while pending:
        value = pending.pop()
        reaches |= value is target
        for use in value.uses:
            user = use.operation
            if user.name == "hlo.yield":
                continue
            if not _keeps_element(user, use.index):
                return False
            pending.extend(user.results)
    return reaches


def _keeps_element(op: Operation, operand: int) -> bool:
    if _is_view_op(op):
        return True
    if isinstance(op, _ELEMENTWISE):
        return _num_elements(op.operands[operand]) == _num_elements(op.results[0])
    if isinstance(op, DynamicUpdateSliceOp):
        return operand == 0
    if isinstance(op, ScatterOp):
        return operand < len(op.inputs)
    return False
