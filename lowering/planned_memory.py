"""Which memory the buffer plan (`assign-buffers`) gives a value: a
parameter's, an output's, or a place in the arena (a while loop's block
arguments are in its results' memory: the host schedule copies each trip's
values there). Kernels that update an operand (dynamic_update_slice,
scatter) skip copying it into their result when the plan puts both in the
same memory: a scan's update of its carried buffer would otherwise copy the
whole buffer onto itself on every trip."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, OpResult, SSAValue
from xlir.dialects.hlo_buffers import ARG, BUFFERS, OUT, TEMP, BufferAttr
from xlir.dialects.stablehlo.control_flow import WhileOp


def _memory(plan: BufferAttr) -> tuple[str, int | None] | None:
    """A planned buffer's memory (None for constants)."""
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
        if isinstance(owner, WhileOp):  # a carried value: in the loop's buffer
            return planned_memory(owner.results[value.index])
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
