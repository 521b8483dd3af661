"""`stablehlo.dynamic_update_slice`: the operand copied into the result,
then the update stored over its window (XLA's copy + in-place update).

The window is one `loop.parallel` over the update that stores each element
at the clamped start plus its index. In place (the plan gives operand and
result the same memory, the common case for a loop-carried buffer updated
each iteration) the copy is left out: the buffer already holds the operand.
A plain copy vectorizes, where one select per element of the result between
operand and update (loading the update at a clamped index) does not. Start
indices are clamped so the window stays inside the operand, as StableHLO
specifies.
"""

from __future__ import annotations

from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.data_movement import DynamicUpdateSliceOp
from xlir.lowering import index_maps as maps
from xlir.lowering.index_maps import Indices, shape
from xlir.lowering.kernels.common import KernelBuilder
from xlir.lowering.planned_memory import in_place
from xlir.lowering.scalar import is_unsigned


def lower_dynamic_update_slice(op: DynamicUpdateSliceOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    operand, update = kb.inputs[:2]
    (out,) = kb.outputs
    if not in_place(op.result, op.operand):
        kb.copy(operand, out, shape(op.operand))
    sizes = shape(op.update)
    unsigned = [is_unsigned(s.type) for s in op.start_indices]
    starts = maps.clamped_starts(
        lambda d: kb.load(kb.inputs[2 + d], []),
        unsigned,
        shape(op.operand),
        sizes,
        kb.ix,
    )

    def element(idx: Indices) -> None:
        target = [kb.ix.add(s, i) for s, i in zip(starts, idx, strict=True)]
        kb.store(kb.load(update, idx), out, target)

    kb.parallel(sizes, element)
    return kb.finish()


KERNELS = {"stablehlo.dynamic_update_slice": lower_dynamic_update_slice}
