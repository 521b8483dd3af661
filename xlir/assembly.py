"""The assembly text of a module's kernels, for a target whose kernels are ops
of its own assembly dialect (xDSL's `AssemblyPrintable`, one line per op):
what `xlir-opt -t asm` prints and what such a target's compiler assembles.
A loop-level module keeps its host schedule (the `device` dialect) beside
the kernels; that has no assembly and is left out."""

from __future__ import annotations

from dataclasses import dataclass
from io import StringIO
from typing import IO

from xdsl.backend.assembly_printer import AssemblyPrintable, AssemblyPrinter
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from xlir.diagnostics import XlirError, format_at_op


def assembly_text(module: ModuleOp, sources: dict[str, str] | None = None) -> str:
    """Each top-level op that has assembly (a kernel), then every op inside
    it, in order, as xDSL's `AssemblyPrinter` prints them. An op inside with
    no assembly (one the target's lowering left) is a diagnostic."""
    stream = StringIO()
    printer = AssemblyPrinter(stream=stream)
    kernels = [op for op in module.ops if isinstance(op, AssemblyPrintable)]
    for kernel in kernels:
        for op in kernel.walk():
            if not isinstance(op, AssemblyPrintable):
                why = f"'{op.name}' has no assembly: its kernel is not fully lowered"
                raise XlirError(format_at_op(op, why, sources))
            op.print_assembly(printer)
    return stream.getvalue()


@dataclass(frozen=True)
class AssemblyTarget(Target):
    """xlir-opt's `-t asm`."""

    name = "asm"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        text = assembly_text(module)
        if not text:
            raise XlirError(
                "error: no op of the module has assembly; expected the kernels of "
                "a target's assembly dialect (run its lowering first)"
            )
        output.write(text)
