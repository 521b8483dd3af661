"""`stablehlo.dynamic_update_slice`: copy only the update window when the
buffer plan puts the result in the operand's buffer.

In place (the plan gives operand and result the same memory, the common case
for a loop-carried buffer updated each iteration), the kernel is one
`loop.parallel` over the update that stores each element at the clamped
start plus its index; the rest of the buffer already holds the operand. Out
of place, it is the fusion lowering's single nest over the result, which
selects the update inside the window and the operand outside it, so no
element is written twice (`single_op`). Start indices are clamped so the
window stays inside the operand, as StableHLO specifies.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, OpResult, SSAValue
from xlir.dialects.hlo_buffers import ARG, BUFFERS, OUT, TEMP, BufferAttr
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.data_movement import DynamicUpdateSliceOp
from xlir.lowering import index_maps as maps
from xlir.lowering.index_maps import Indices, shape
from xlir.lowering.kernels.common import KernelBuilder
from xlir.lowering.kernels.single_op import lower_single_op


def _memory(plan: BufferAttr) -> tuple[str, int | None] | None:
    """Which memory a planned buffer is: a parameter's, an output's, or a
    place in the arena (None for constants)."""
    if plan.argument_index is not None:
        return (ARG, plan.argument_index)
    if plan.kind == TEMP:
        return (TEMP, plan.offset_value)
    if plan.kind == OUT:
        return (OUT, plan.output_index)
    return None


def planned_memory(value: SSAValue) -> tuple[str, int | None] | None:
    """The memory the plan gives `value`, if it says."""
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        return (ARG, value.index) if isinstance(owner, FuncOp) else None
    assert isinstance(value, OpResult)
    plans = value.op.attributes.get(BUFFERS)
    if not isinstance(plans, ArrayAttr):
        return None
    plan = plans.data[value.index]
    return _memory(plan) if isinstance(plan, BufferAttr) else None


def in_place(result: SSAValue, operand: SSAValue) -> bool:
    """Whether the plan puts `result` in `operand`'s memory, so that a kernel
    updating the operand need not copy it into the result first."""
    memory = planned_memory(result)
    return memory is not None and memory == planned_memory(operand)


def lower_dynamic_update_slice(op: DynamicUpdateSliceOp, name: str) -> KernelOp:
    if not in_place(op.result, op.operand):
        return lower_single_op(op, name)
    kb = KernelBuilder(op, name)
    update = kb.inputs[1]
    (out,) = kb.outputs
    sizes = shape(op.update)
    scalars = [kb.load(start, []) for start in kb.inputs[2:]]
    starts = maps.clamped_starts(scalars, shape(op.operand), sizes, kb.ix)

    def element(idx: Indices) -> None:
        target = [kb.ix.add(s, i) for s, i in zip(starts, idx, strict=True)]
        kb.store(kb.load(update, idx), out, target)

    kb.parallel(sizes, element)
    return kb.finish()


KERNELS = {"stablehlo.dynamic_update_slice": lower_dynamic_update_slice}
