"""`xlir-translate`: the last step of an LLVM target's path alone, like
mlir-translate.

    xlir-translate FILE [--target llvmir|asm|obj] [--backend NAME] [--triple T]
                   [--cpu NAME] [--features +a,-b] [-O0..3] [-o OUT]

The input is a module at the llvm-dialect level (what
`xlir-opt -p hlo-opt,hlo-to-loop,expand-math,loop-to-llvm,device-to-llvm`
prints), or `-` for stdin. `llvmir` prints its LLVM IR, `asm` the target's
assembly, `obj` writes an object file (to `-o FILE`, never to a terminal).
As mlir-translate, the default is translation only (-O0); `-O1`..`-O3` run
LLVM's pipeline first. `--backend` names the registered target whose LLVM
backend (`Target.llvm_backend`: its target machines and the runtime functions
its lowering calls) translates; without it, the one registered target that
compiles ahead of time. The triple, CPU and features default to the
backend's (for the host's code, this host's). Targets with their own
assembly have their own tools (XA-1's: `xlir-accel`, docs/accel.md).

Every error is a diagnostic on stderr (file:line:col where there is one) and
exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import llvmlite.binding as llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException
from xlir.lowering.llvm.llvmlite_module import llvm_ir, optimize
from xlir.targets.registry import ahead_of_time_target, get_target
from xlir.targets.target import CompileOptions, LLVMBackend, Target
from xlir.tools.cli import UsageError, run_command, write_output

from xlir.api import load_module
from xlir.diagnostics import XlirError, decode_source
from xlir.pass_manager import pipeline_text
from xlir.source_locations import text_location

PROG = "xlir-translate"

LLVM_LEVEL_DIALECTS = ("llvm", "builtin")
"""The dialects of a module xDSL's LLVM translation takes."""

HLO_LEVEL_DIALECTS = ("stablehlo", "chlo", "hlo", "check")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Translate an llvm-dialect module to LLVM IR, assembly or "
        "an object file.",
    )
    parser.add_argument("file", help="the .mlir file at the llvm level ('-' for stdin)")
    parser.add_argument(
        "--target",
        choices=("llvmir", "asm", "obj"),
        default="llvmir",
        help="what to emit (default: llvmir)",
    )
    parser.add_argument(
        "--backend",
        metavar="NAME",
        help="the registered target whose LLVM backend translates (default: "
        "the one that compiles ahead of time)",
    )
    parser.add_argument("--triple", help="target triple (default: this host's)")
    parser.add_argument(
        "--cpu", help="CPU name (default: this host's, or generic for --triple)"
    )
    parser.add_argument(
        "--features",
        metavar="+a,-b",
        help="target features, e.g. +fma,-avx512f; write --features=-x when the "
        "first one is removed (default: this host's, or none for --triple)",
    )
    parser.add_argument(
        "-O",
        dest="opt",
        type=int,
        choices=range(4),
        default=0,
        metavar="N",
        help="-O0 (default) translates only; -O1..-O3 run LLVM's pipeline",
    )
    parser.add_argument(
        "-o", dest="output", metavar="OUT", help="output file (default: stdout)"
    )
    return parser


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
    for op in module.walk():
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


def machine_for(backend: LLVMBackend, args: argparse.Namespace) -> llvm.TargetMachine:
    try:
        return backend.machine(args.triple, args.cpu, args.features, args.opt)
    except ValueError as error:
        raise UsageError(str(error)) from None


def translate(
    module: ModuleOp, backend: LLVMBackend, args: argparse.Namespace
) -> str | bytes:
    """The LLVM IR text, assembly text or object code `args` ask for."""
    machine = machine_for(backend, args)
    try:
        ir = llvm_ir(module, machine.triple, runtime=backend.runtime)
    except (NotImplementedError, DiagnosticException) as error:
        raise XlirError(f"error: cannot translate to LLVM IR: {error}") from None
    try:
        translated = optimize(ir, machine, args.opt)
    except RuntimeError as error:
        raise XlirError(f"error: LLVM rejected the translated IR: {error}") from None
    if args.target == "llvmir":
        return str(translated)
    if args.target == "asm":
        return machine.emit_assembly(translated)
    return machine.emit_object(translated)


def _check_output(args: argparse.Namespace) -> None:
    """Object code goes to a file, or to a stdout that is not a terminal."""
    if args.target != "obj":
        return
    if args.output is None:
        raise UsageError(f"--target {args.target} writes binary: give -o FILE")
    if args.output == "-" and sys.stdout.isatty():
        raise UsageError(f"--target {args.target}: will not write binary to a terminal")


def run(args: argparse.Namespace) -> int:
    _check_output(args)
    target, backend = backend_target(args.backend)
    source = (
        decode_source(sys.stdin.buffer.read(), "<stdin>")
        if args.file == "-"
        else Path(args.file)
    )
    module, _ = load_module(source, "<stdin>" if args.file == "-" else None)
    require_llvm_level(module, target)
    result = translate(module, backend, args)
    write_output(args.output, result.encode() if isinstance(result, str) else result)
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    run_command(PROG, lambda: run(args))


if __name__ == "__main__":
    main()
