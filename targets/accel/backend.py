"""The accel target's last step before encoding (`encoding.py`): register
allocation and structured control lowered to labels and branches (a pass,
`accel-registers`)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass
from xlir.dialects import accel
from xlir.targets.accel.register_allocation import allocate_module

SPILLS_ATTRIBUTE = "spilled_values"
"""On each `accel.kernel` after allocation: the spill slots it uses (one per
register beyond the files)."""


@dataclass(frozen=True)
class AccelRegistersPass(ModulePass):
    """Allocate the registers of every `accel.kernel`, lower its structured
    control (`accel.for`, `accel.repeat`, `accel.if`), then spill what did
    not fit (`register_allocation.allocate_module`)."""

    name = "accel-registers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        allocations = allocate_module(op)
        for kernel in op.body.block.ops:
            if isinstance(kernel, accel.KernelOp):
                spilled = allocations[kernel.sym_name.data].spilled
                kernel.attributes[SPILLS_ATTRIBUTE] = IntegerAttr(spilled, 64)
