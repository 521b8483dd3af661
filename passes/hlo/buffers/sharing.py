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
* **reduction in place**: the reduce result of an `input` fusion may
  overwrite an operand that the fusion reads only at the output's own index:
  the operand is broadcast along the reduced dimensions (e.g. softmax's row
  sums over its row maxima). A reduction nest reads all of row i before it
  stores result i, and no other row reads element i, so this is safe for any
  lowering that stores a reduction's result after its loop (hlo-to-loop's
  accumulators are loop-carried values).
"""

from __future__ import annotations

from functools import cache
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
from xlir.dialects.stablehlo.reduction import ReduceOp
from xlir.dialects.syntax import array_values

_ELEMENTWISE = tuple(t for t in ELEMENTWISE_OPS if t is not BitcastConvertOp)


@cache
def _elementwise_class(kind: type[Operation]) -> bool:
    return issubclass(kind, _ELEMENTWISE)


def _is_elementwise(op: Operation) -> bool:
    """Whether `op` is one of `_ELEMENTWISE`, answered once per op class:
    `isinstance` with the tuple calls `ABCMeta.__instancecheck__` once per
    class in it (~50), the most of assign-buffers' time."""
    return _elementwise_class(type(op))


def _num_elements(value: SSAValue) -> int | None:
    if not isinstance(value.type, TensorType):
        return None
    return prod(value.type.get_shape())


def _is_view_op(op: Operation) -> bool:
    """Ops told by their exact class: asked of every op, and a failing
    `isinstance` on xDSL's op classes goes through `ABCMeta`."""
    if type(op) is ReshapeOp or type(op) is BitcastConvertOp:
        return True
    if type(op) is BroadcastInDimOp:
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
    if _is_elementwise(op):
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
    if isinstance(op, FusionOp) and op.fusion_kind == FusionKind.INPUT:
        target = op.yield_op.values[index]
        if isinstance(target.owner, ReduceOp):
            if len(target.owner.results) != 1:
                return []
            return [
                i
                for i, arg in enumerate(op.block.args)
                if _read_at_reduced_index(arg, target.owner)
            ]
        reduce = _passenger_reduce(op, target)
        if reduce is None:
            return []
        return [
            i
            for i, arg in enumerate(op.block.args)
            if _reads_in_step(arg, target, reduce)
        ]
    return []


def _passenger_reduce(fusion: FusionOp, target: SSAValue) -> ReduceOp | None:
    """The reduce whose loop stores `target` as it goes: the fusion's only
    reduce, one result yielded as an output, and `target` shaped like its
    input (hlo-to-loop stores such an output inside the reduction nest, at
    the index of the input element being reduced)."""
    reduces = [o for o in fusion.block.ops if isinstance(o, ReduceOp)]
    if len(reduces) != 1 or len(reduces[0].results) != 1:
        return None
    (reduce,) = reduces
    if reduce.results[0] not in fusion.yield_op.values:
        return None
    if _shape(target) != _shape(reduce.inputs[0]):
        return None
    return reduce


def _read_at_reduced_index(arg: BlockArgument, reduce: ReduceOp) -> bool:
    """Inside an input fusion: every read of `arg` feeding `reduce` (through
    unit-dim views, broadcasts and elementwise ops) is of the element at the
    reduce's output index, and `arg` reaches nothing else but the fusion's
    other outputs. Tracks, per value, which of its dims carries each non-unit
    dim of `arg`."""
    if _num_elements(arg) != _num_elements(reduce.results[0]):
        return False
    arg_shape = arg.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    start = tuple(d for d, n in enumerate(arg_shape) if n != 1)
    carried: dict[SSAValue, tuple[int, ...]] = {arg: start}
    pending: list[SSAValue] = [arg]
    reaches = False
    while pending:
        value = pending.pop()
        dims = carried[value]
        for use in value.uses:
            user = use.operation
            if user.name == "hlo.yield":
                continue
            if user is reduce:
                if use.index >= len(reduce.inputs) or not _kept_in_order(dims, reduce):
                    return False
                reaches = True
                continue
            mapped = _carry(user, use.index, dims)
            if mapped is None:
                return False
            for result in user.results:
                if carried.setdefault(result, mapped) != mapped:
                    return False
                pending.append(result)
    return reaches


def _carry(
    op: Operation, operand: int, dims: tuple[int, ...]
) -> tuple[int, ...] | None:
    """The dims of `op`'s result that carry the operand's `dims`, or None when
    `op` may read other elements."""
    if _is_elementwise(op):
        return dims if _shape(op.operands[operand]) == _shape(op.results[0]) else None
    if isinstance(op, BroadcastInDimOp):
        mapping = array_values(op.broadcast_dimensions)
        return tuple(mapping[d] for d in dims)
    if isinstance(op, ReshapeOp):
        source, target = _shape(op.operand), _shape(op.results[0])
        if [n for n in source if n != 1] != [n for n in target if n != 1]:
            return None
        order = [d for d, n in enumerate(target) if n != 1]
        rank = {
            d: order[i] for i, d in enumerate(x for x, n in enumerate(source) if n != 1)
        }
        return tuple(rank[d] for d in dims)
    return None


def _kept_in_order(dims: tuple[int, ...], reduce: ReduceOp) -> bool:
    """The carried dims are exactly the reduce input's non-unit kept dims, in
    order, so element i of the operand is read for output element i."""
    reduced = set(array_values(reduce.dimensions))
    shape = _shape(reduce.inputs[0])
    kept = [d for d in range(len(shape)) if d not in reduced and shape[d] != 1]
    return list(dims) == kept and not (set(dims) & reduced)


def _shape(value: SSAValue) -> tuple[int, ...]:
    return tuple(value.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]


def _reads_in_step(
    arg: BlockArgument, target: SSAValue, reduce: ReduceOp | None = None
) -> bool:
    """Inside a loop fusion: `arg` reaches `target` and every read of it is of
    the element being written (elementwise ops, views, or the updated operand
    of a dynamic_update_slice/scatter, which must then be the value's only
    reader: the update's window is written in a loop of its own, before the
    fusion's other reads of the buffer). Inside an input fusion whose
    `reduce` stores `target` as it goes, `arg` may also feed the reduce's
    input, read in the same step, and every output it reaches must be shaped
    like that input (stored in the same step). Each value is visited once:
    a fusion's formulas reconverge (erf_inv's polynomial), and following
    every path instead would take exponential time."""
    if _num_elements(arg) != _num_elements(target):
        return False
    reaches = False
    pending: list[SSAValue] = [arg]
    seen: set[SSAValue] = {arg}
    while pending:
        value = pending.pop()
        reaches |= value is target
        for use in value.uses:
            user = use.operation
            if user.name == "hlo.yield":
                if reduce is not None and _shape(value) != _shape(reduce.inputs[0]):
                    return False
                continue
            if reduce is not None and user is reduce:
                if use.index >= len(reduce.inputs):
                    return False
                continue
            if not _keeps_element(user, use.index):
                return False
            if (
                isinstance(user, DynamicUpdateSliceOp | ScatterOp)
                and value.uses.get_length() > 1
            ):
                return False  # its window is written apart: other reads would see it
            for result in user.results:
                if result not in seen:
                    seen.add(result)
                    pending.append(result)
    return reaches


def _keeps_element(op: Operation, operand: int) -> bool:
    if _is_view_op(op):
        return True
    if _is_elementwise(op):
        return _num_elements(op.operands[operand]) == _num_elements(op.results[0])
    if isinstance(op, DynamicUpdateSliceOp):
        return operand == 0
    if isinstance(op, ScatterOp):
        return operand < len(op.inputs)
    return False
