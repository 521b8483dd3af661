"""`stablehlo.scatter` (variadic too): copy the operands into the results,
then walk the updates in order, combining each into its result element with
the update computation.

Updates may land on the same element and the computation need not be
commutative, so the walk applies them in the reference interpreter's order,
row-major over the updates: a `loop.for` nest over the update dimensions up
to the last scatter (non-window) one, and a `loop.parallel` over the window
dimensions after it, whose elements all belong to one scatter index and so
land on distinct elements. The copy is left out for each result the buffer
plan puts in its operand's memory (`planned_memory.in_place`).

Each update's operand index is its full start index (from
`scatter_indices`, `index_vector_dim` saying where each index vector lies;
the batching dims' own positions) plus its window index. A window that does
not lie wholly inside the operand is skipped, as in the reference
interpreter: its start is clamped in bounds and the old value stored back,
so the body has no branch.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.ir import SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import LoadOp
from xlir.dialects.stablehlo.attributes import (
    ScatterDimensionNumbersAttr,
)
from xlir.dialects.stablehlo.indexing import ScatterOp
from xlir.lowering.index_maps import Indices, shape
from xlir.lowering.kernels.common import KernelBuilder
from xlir.lowering.planned_memory import in_place
from xlir.lowering.scalar import is_unsigned


def lower_scatter(op: ScatterOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    count = len(op.inputs)
    operands, updates = kb.inputs[:count], kb.inputs[count + 1 :]
    operand_shape, update_shape = shape(op.inputs[0]), shape(op.updates[0])
    for value, result, source, target in zip(
        op.inputs, op.results, operands, kb.outputs, strict=True
    ):
        if not in_place(result, value):
            kb.copy(source, target, operand_shape)
    numbers = op.scatter_dimension_numbers
    window_dims = numbers.field("update_window_dims")
    scatter_dims = [d for d in range(len(update_shape)) if d not in window_dims]
    walked = max(scatter_dims, default=-1) + 1
    block = op.update_computation.block
    assert block is not None

    def update(idx: Indices) -> None:
        target, inside = _operand_index(kb, op, [idx[d] for d in scatter_dims], idx)
        olds = [_load_in_place(kb, out, target) for out in kb.outputs]
        news = [kb.load(buffer, idx) for buffer in updates]
        combined = kb.inline(block, [*olds, *news])
        for old, new, out in zip(olds, combined, kb.outputs, strict=True):
            if inside is not None:
                new = kb.place(arith.SelectOp(inside, new, old))
            kb.store(new, out, target)

    def walk(ivs: list[SSAValue], carried: list[SSAValue]) -> list[SSAValue]:
        if walked == len(update_shape):
            update(ivs)
        else:
            kb.parallel(update_shape[walked:], lambda window: update(ivs + window))
        return []

    kb.nest.for_nest(update_shape[:walked], [], walk)
    return kb.finish()


def _operand_index(
    kb: KernelBuilder, op: ScatterOp, batch: Indices, idx: Indices
) -> tuple[Indices, SSAValue | None]:
    """The operand index update element `idx` (at scatter index `batch`)
    combines into, clamped, and whether its window lies inside the operand
    (None: always)."""
    ix = kb.ix
    numbers = op.scatter_dimension_numbers
    assert isinstance(numbers, ScatterDimensionNumbersAttr)
    window_dims = numbers.field("update_window_dims")
    inserted = numbers.field("inserted_window_dims")
    input_batching = numbers.field("input_batching_dims")
    indices_batching = numbers.field("scatter_indices_batching_dims")
    to_operand = numbers.field("scatter_dims_to_operand_dims")
    (vector_dim,) = numbers.field("index_vector_dim")
    operand_shape, update_shape = shape(op.inputs[0]), shape(op.updates[0])
    operand_window = [
        d
        for d in range(len(operand_shape))
        if d not in inserted and d not in input_batching
    ]
    window_of = dict(zip(operand_window, window_dims, strict=True))
    inside: SSAValue | None = None
    result: Indices = []
    for d, size in enumerate(operand_shape):
        window = update_shape[window_of[d]] if d in window_of else 1
        if d in to_operand:
            start = _start_index(kb, op, batch, to_operand.index(d), vector_dim)
            last = size - window
            inside = ix.and_(
                inside,
                ix.and_(ix.cmp("sge", start, 0), ix.cmp("sle", start, last)),
            )
            start = ix.clamp(start, 0, last)
        elif d in input_batching:
            position = indices_batching[input_batching.index(d)]
            start = batch[position - (position > vector_dim)]
        else:
            start = ix.const(0)
        result.append(ix.add(start, idx[window_of[d]]) if d in window_of else start)
    return result, inside


def _start_index(
    kb: KernelBuilder, op: ScatterOp, batch: Indices, component: int, vector_dim: int
) -> SSAValue:
    """Component `component` of the index vector at scatter index `batch`,
    as an `index` (unsigned index types are zero-extended)."""
    at = list(batch)
    if vector_dim < len(shape(op.scatter_indices)):
        at.insert(vector_dim, kb.ix.const(component))
    value = kb.load(kb.inputs[len(op.inputs)], at)
    return kb.ix.from_integer(value, is_unsigned(op.scatter_indices.type))


def _load_in_place(kb: KernelBuilder, buffer: SSAValue, idx: Sequence[SSAValue]):
    """A load in the innermost loop, never hoisted: the walk writes `buffer`,
    so an element read where its index does not depend on a loop must be
    read again on every iteration."""
    load = LoadOp(buffer, idx)
    kb.nest.builder(kb.nest.innermost).insert(load)
    kb.nest.record(load.results, kb.nest.innermost)
    return load.results[0]


KERNELS = {"stablehlo.scatter": lower_scatter}
