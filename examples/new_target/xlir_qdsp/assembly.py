"""Register allocation with xDSL's block-naive allocator, and the assembly
text of a module's kernels (`qdsp-asm FILE` prints a loop-level file's)."""

from __future__ import annotations

import sys
from io import StringIO
from pathlib import Path

from xdsl.backend.assembly_printer import AssemblyPrinter
from xdsl.backend.block_naive_allocator import BlockNaiveAllocator
from xdsl.backend.register_allocator import live_ins_per_block
from xdsl.backend.register_stack import RegisterStack
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from xlir.api import load_module
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir_qdsp.dialect import KernelOp, Reg
from xlir_qdsp.lowering import lower

REGISTERS = [Reg.from_index(i) for i in reversed(range(16))]  # r0 taken first


class AllocateRegistersPass(ModulePass):
    """r0..r15 for each kernel's values, from its last op up."""

    name = "qdsp-allocate-registers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in op.ops:
            if isinstance(kernel, KernelOp):
                stack = RegisterStack.get(REGISTERS)
                allocator = BlockNaiveAllocator(stack, Reg)
                allocator.live_ins_per_block = live_ins_per_block(kernel.body.block)
                try:
                    allocator.allocate_block(kernel.body.block)
                except DiagnosticException:
                    name = kernel.sym_name.data
                    raise XlirError(
                        f"error: @{name} needs more than 16 registers"
                    ) from None


def assembly(module: ModuleOp) -> str:
    """The text of the module's allocated kernels."""
    text = StringIO()
    for kernel in module.ops:
        if isinstance(kernel, KernelOp):
            for op in kernel.walk():
                op.print_assembly(AssemblyPrinter(stream=text))  # pyright: ignore
    return text.getvalue()


def main() -> None:
    try:
        module, sources = load_module(Path(sys.argv[1]))
        lower(module, sources)
        AllocateRegistersPass().apply(make_context(), module)
    except XlirError as error:
        sys.exit(str(error))
    print(assembly(module), end="")
