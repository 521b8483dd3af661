"""The accel target's last steps: register allocation and structured
control lowered to labels and branches (a pass, `accel-registers`), then
the kernels' assembly text and their XA1 object."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass
from xlir.dialects import accel
from xlir.targets.accel.assembler import AssemblyError, assemble
from xlir.targets.accel.objfile import ObjectFile
from xlir.targets.accel.register_allocation import allocate_module

from xlir.assembly import assembly_text
from xlir.diagnostics import XlirError

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


def assemble_kernels(module: ModuleOp) -> tuple[str, ObjectFile]:
    """(assembly text, object) of the module's kernels (its host code is not
    XA-1's), printed where they are."""
    text = assembly_text(module)
    try:
        return text, assemble(text, "<accel kernels>")
    except AssemblyError as error:  # a bug of the compiler, not of the program
        raise XlirError(
            f"error: the accel backend made invalid assembly: {error}"
        ) from None
