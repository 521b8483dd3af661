"""`assign-buffers`: liveness-based buffer assignment over the fused program.

Runs after `fuse`. Each function gets a plan (see `passes/hlo/buffers/plan.py`):
every top-level result — an `hlo.fusion` output or the result of an unfused
op — and every result in a `while`/`case` body is given a place: a parameter,
an output, constant data, or a range of the temp arena. The plan is attached
as the discardable attributes of `dialects/hlo_buffers.py` (`hlo.buffers` on
the ops, `hlo.plan` on the function), which `hlo-to-loop` bufferizes by and
`buffer_report` prints.

Each function is planned in program order and in `schedule.list_schedule`'s
memory-minimizing order; the order with the smaller arena is kept (ties: the
program's), and the function's ops are left in it.

Buffers have sizes known at compile time, so every tensor in a planned
function must have a static shape; a dynamic dimension (`tensor<?x16xf32>`)
is an error at the value's definition.

Option: `alignment` (bytes, a power of two; 64 like XLA:CPU) for the offsets
of temp buffers: `-p 'assign-buffers{alignment=16}'`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException
from xlir.dialects.hlo_buffers import BUFFERS, PLAN, byte_size, planned_ops
from xlir.passes.hlo.buffers.plan import FunctionPlan, plan_function
from xlir.passes.hlo.buffers.schedule import list_schedule, reorder

from xlir.diagnostics import XlirError, format_at_op
from xlir.walk import walk


def attach_plan(plan: FunctionPlan) -> None:
    """Write the plan onto its function, replacing any earlier one."""
    for op in planned_ops(plan.func):
        del op.attributes[BUFFERS]
    for op in plan.timeline.ops:
        locations = [plan.buffer_of[r].location for r in op.results]
        op.attributes[BUFFERS] = ArrayAttr(locations)  # pyright: ignore[reportArgumentType]
    plan.func.attributes[PLAN] = plan.attribute()


def defined_functions(module: ModuleOp) -> list[FuncOp]:
    """The functions of `module` that have a body."""
    return [op for op in walk(module) if isinstance(op, FuncOp) and op.body.blocks]


MAX_BUFFER_BYTES = 1 << 48
"""No machine addresses more (x86-64 and GPUs address 48 bits), and the
plan's offsets are int64 numbers, which a larger tensor would overflow."""


def check_static_shapes(func: FuncOp) -> None:
    """Every tensor the function's buffers would hold has a static shape
    and a size some machine can address."""
    for index, argument in enumerate(func.body.block.args):
        _check_static(argument.type, func, f"argument #{index}")
    for inner in walk(func):
        for index, result in enumerate(inner.results):
            _check_static(result.type, inner, f"result #{index}")


def _check_static(type: object, op: Operation, what: str) -> None:
    if isinstance(type, TensorType) and not type.has_static_shape():
        raise XlirError(
            format_at_op(
                op,
                f"assign-buffers: {what} of '{op.name}' has the dynamic shape "
                f"{type}; buffers need static shapes (`refine-shapes"
                '{types="..."}` specialises a shape-polymorphic program to '
                "argument types; xlir.compile and xlir-run do it for theirs)",
            )
        )
    if isinstance(type, TensorType) and byte_size(type) > MAX_BUFFER_BYTES:
        raise XlirError(
            format_at_op(
                op,
                f"assign-buffers: {what} of '{op.name}' ({type}) takes "
                f"{byte_size(type)} bytes; buffers take at most {MAX_BUFFER_BYTES}",
            )
        )


@dataclass(frozen=True)
class AssignBuffersPass(ModulePass):
    name = "assign-buffers"

    alignment: int = 64

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.alignment < 1 or self.alignment & (self.alignment - 1):
            raise PassFailedException(
                f"alignment must be a power of two, but is {self.alignment}"
            )
        for func in defined_functions(op):
            check_static_shapes(func)
            attach_plan(self._best_plan(func))

    def _best_plan(self, func: FuncOp) -> FunctionPlan:
        block = func.body.block
        program = list(block.ops)
        plan = plan_function(func, self.alignment)
        reorder(block, list_schedule(block))
        scheduled = plan_function(func, self.alignment)
        if scheduled.arena < plan.arena:
            return scheduled
        reorder(block, program)
        return plan
