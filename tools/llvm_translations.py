"""The LLVM translations of `xlir-translate` (llvmir, asm, obj): an
llvm-dialect module to LLVM IR, a target's assembly or an object file, through
a registered target's LLVM backend (`Target.llvm_backend`). Registered as
entry points of the group `xlir.translations`, as a target's own are."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import llvmlite.binding as llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException
from xlir.lowering.llvm.llvmlite_module import llvm_ir, optimize
from xlir.targets.registry import ahead_of_time_target, get_target
from xlir.targets.target import CompileOptions, LLVMBackend, Target
from xlir.targets.translations import Translation, TranslationInput
from xlir.tools.cli import UsageError

from xlir.diagnostics import XlirError
from xlir.pass_manager import pipeline_text
from xlir.source_locations import text_location
from xlir.walk import walk

PROG = "xlir-translate"

LLVM_LEVEL_DIALECTS = ("llvm", "builtin")
"""The dialects of a module xDSL's LLVM translation takes."""

HLO_LEVEL_DIALECTS = ("stablehlo", "chlo", "hlo", "check")


def _where(op: Operation) -> str:
    """` at file:line:col` of a parsed op; nothing for one the parser made
    (an implicit terminator)."""
    loc = text_location(op.location)
    if loc is not None:
        return f" at {loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return ""


def require_llvm_level(module: ModuleOp, target: Target) -> None:
    """Raise an XlirError naming every kind of op that is not at the llvm
    level (where its first one is, and how many more there are), with the
    xlir-opt pipeline that lowers the module from the level it is at."""
    found: dict[str, list[Operation]] = {}
    for op in walk(module):
        if op.name.split(".")[0] not in LLVM_LEVEL_DIALECTS:
            found.setdefault(op.name, []).append(op)
    if not found:
        return
    listed = ", ".join(
        f"'{name}'{_where(ops[0])}"
        + (f" (and {len(ops) - 1} more)" if len(ops) > 1 else "")
        for name, ops in found.items()
    )
    options = CompileOptions()
    backend = target.backend_pipeline(options)
    if any(name.split(".")[0] in HLO_LEVEL_DIALECTS for name in found):
        pipeline = pipeline_text(target.hlo_pipeline(options) + backend)
    elif "loop.kernel" in found or "loop.global" in found:
        names = [pass_.name for pass_ in backend]
        start = names.index("hlo-to-loop") + 1 if "hlo-to-loop" in names else 0
        pipeline = pipeline_text(backend[start:])
    else:
        pipeline = "device-to-llvm"
    raise XlirError(
        f"error: {PROG} needs the llvm dialect; found {listed}; "
        f"run `xlir-opt -p {pipeline}` first"
    )


def backend_target(name: str | None) -> tuple[Target, LLVMBackend]:
    """The target `--backend` names (or the default) and its LLVM backend."""
    target = ahead_of_time_target() if name is None else get_target(name)
    backend = target.llvm_backend()
    if backend is None:
        raise XlirError(f"error: target '{target.name}' does not compile through LLVM")
    return target, backend


def opt_level(args: argparse.Namespace) -> int:
    """-O's level; -O0 when it is not given."""
    return args.opt or 0


def machine_for(backend: LLVMBackend, args: argparse.Namespace) -> llvm.TargetMachine:
    try:
        return backend.machine(args.triple, args.cpu, args.features, opt_level(args))
    except ValueError as error:
        raise UsageError(str(error)) from None


Emit = Callable[[llvm.TargetMachine, llvm.ModuleRef], str | bytes]


def _through_llvm(emit: Emit) -> Callable[[TranslationInput], str | bytes]:
    """A translation that lowers the module to LLVM IR, optimizes it at -O
    and gives `emit`'s result of it."""

    def translate(source: TranslationInput) -> str | bytes:
        args = source.options
        target, backend = backend_target(args.backend)
        module, _ = source.parse_module()
        require_llvm_level(module, target)
        machine = machine_for(backend, args)
        try:
            ir = llvm_ir(module, machine.triple, runtime=backend.runtime)
        except (NotImplementedError, DiagnosticException) as error:
            raise XlirError(f"error: cannot translate to LLVM IR: {error}") from None
        try:
            translated = optimize(ir, machine, opt_level(args))
        except RuntimeError as error:
            raise XlirError(
                f"error: LLVM rejected the translated IR: {error}"
            ) from None
        return emit(machine, translated)

    return translate


LLVM_IR = Translation(
    "LLVM IR of an llvm-dialect module (the default)",
    _through_llvm(lambda _, ir: str(ir)),
    takes_llvm_options=True,
)
ASSEMBLY = Translation(
    "the LLVM backend's assembly of an llvm-dialect module",
    _through_llvm(lambda machine, ir: machine.emit_assembly(ir)),
    takes_llvm_options=True,
)
OBJECT = Translation(
    "the LLVM backend's object file of an llvm-dialect module",
    _through_llvm(lambda machine, ir: machine.emit_object(ir)),
    writes_binary=True,
    takes_llvm_options=True,
)
