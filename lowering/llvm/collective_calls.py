"""`device.collective` in native host code: a call into the runtime.

Each collective step of a host entry becomes

    %buffers = alloca [N x ptr]          ; the step's buffers, inputs first
    store %in0, %buffers[0] ...
    %status = call i32 @xlir.collective(i64 SITE, ptr %buffers)

where SITE numbers the module's collective steps in the order they are
lowered. `xlir.collective` is only declared: the target's runtime defines
it (the cpu's `targets/cpu/collective_calls.py` calls the communicator on
numpy views of the buffers). What each site exchanges is the step's HLO op,
recorded as the text of a one-op function in the module attribute
`COLLECTIVE_SITES`, for the host to read before translating the module, so
the runtime runs the op with the evaluator's meaning
(evaluator/collectives.py).
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    ModuleOp,
    StringAttr,
    i32,
    i64,
)
from xlir.dialects import device
from xlir.evaluator.collective_step import site_text
from xlir.lowering.llvm.function import PTR, FunctionBuilder

COLLECTIVE = "xlir.collective"
COLLECTIVE_SITES = "xlir.collective_sites"
"""Module attribute: per site, the text of a module holding `func.func
@exchange` whose body is the step's HLO op."""


class CollectiveCalls:
    """Numbers the collective steps of one module and lowers each to a call."""

    def __init__(self) -> None:
        self.sites: list[StringAttr] = []

    def call(self, b: FunctionBuilder, op: device.CollectiveOp) -> None:
        site = b.const(len(self.sites))
        self.sites.append(StringAttr(site_text(op)))
        count = b.const(len(op.args))
        buffers = llvm.AllocaOp(count, PTR, alignment=8)
        entry = b.region.blocks[0]
        entry.insert_op_after(buffers, count.owner)  # pyright: ignore[reportArgumentType]
        for index, arg in enumerate(op.args):
            b.store(b.get(arg), b.gep(buffers.res, (index,), PTR))
        b.module.declare(COLLECTIVE, [i64, PTR], i32)
        b.emit(llvm.CallOp(COLLECTIVE, site, buffers.res, return_type=i32))

    def record(self, module: ModuleOp) -> None:
        if self.sites:
            module.attributes[COLLECTIVE_SITES] = ArrayAttr(self.sites)
