"""`xlir-translate`: the last step of the CPU path alone, like mlir-translate.

    xlir-translate FILE [--target llvmir|asm|obj] [--triple T] [--cpu NAME]
                   [--features +a,-b] [-O0..3] [-o OUT]
    xlir-translate FILE --target accel-asm|accel-obj [-o OUT]
    xlir-translate --disassemble FILE.xa1 [-o OUT]

The input is a module at the llvm-dialect level (what
`xlir-opt -p hlo-opt,hlo-to-loop,expand-math,loop-to-llvm,device-to-llvm`
prints), or `-` for stdin. `llvmir` prints its LLVM IR, `asm` the target's
assembly, `obj` writes an object file (to `-o FILE`, never to a terminal).
As mlir-translate, the default is translation only (-O0); `-O1`..`-O3` run
LLVM's pipeline first. The triple, CPU and features default to this host's;
the CPU and features given for another triple default to generic/none.
`accel-asm` and `accel-obj` take a module in the `accel` dialect (XA-1
assembly, docs/accel.md) and print its assembly or write an XA1 object;
`--disassemble` prints an XA1 object's instructions.

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
from xlir.targets.cpu.host_machine import machine_for as cpu_machine
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.cpu.thread_runtime import define_runtime
from xlir.targets.target import CompileOptions
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
        choices=("llvmir", "asm", "obj", "accel-asm", "accel-obj"),
        default="llvmir",
        help="what to emit (default: llvmir)",
    )
    parser.add_argument(
        "--disassemble", action="store_true", help="FILE is an XA1 object: print it"
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


def require_llvm_level(module: ModuleOp) -> None:
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
    cpu, options = CpuTarget(), CompileOptions()
    if any(name.split(".")[0] in HLO_LEVEL_DIALECTS for name in found):
        passes = cpu.hlo_pipeline(options) + cpu.backend_pipeline(options)
        pipeline = pipeline_text(passes)
    elif "loop.kernel" in found or "loop.global" in found:
        pipeline = pipeline_text(cpu.loop_pipeline(options))
    else:
        pipeline = "device-to-llvm"
    raise XlirError(
        f"error: {PROG} needs the llvm dialect; found {listed}; "
        f"run `xlir-opt -p {pipeline}` first"
    )


def machine_for(args: argparse.Namespace) -> llvm.TargetMachine:
    try:
        return cpu_machine(args.triple, args.cpu, args.features, opt=args.opt)
    except ValueError as error:
        raise UsageError(str(error)) from None


def translate(module: ModuleOp, args: argparse.Namespace) -> str | bytes:
    """The LLVM IR text, assembly text or object code `args` ask for."""
    machine = machine_for(args)
    try:
        ir = llvm_ir(module, machine.triple, runtime=define_runtime)
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
    if args.target not in ("obj", "accel-obj") or args.disassemble:
        return
    if args.output is None:
        raise UsageError(f"--target {args.target} writes binary: give -o FILE")
    if args.output == "-" and sys.stdout.isatty():
        raise UsageError(f"--target {args.target}: will not write binary to a terminal")


def run(args: argparse.Namespace) -> int:
    _check_output(args)
    if args.disassemble:
        from xlir.targets.accel.cli import disassemble, load_object

        write_output(args.output, disassemble(load_object(args.file)).encode())
        return 0
    source = (
        decode_source(sys.stdin.buffer.read(), "<stdin>")
        if args.file == "-"
        else Path(args.file)
    )
    module, sources = load_module(source, "<stdin>" if args.file == "-" else None)
    if args.target.startswith("accel-"):
        from xlir.targets.accel.cli import assemble_text, module_assembly

        text = module_assembly(module, sources)
        binary = args.target == "accel-obj"
        write_output(
            args.output,
            assemble_text(text, args.file).to_bytes() if binary else text.encode(),
        )
        return 0
    require_llvm_level(module)
    result = translate(module, args)
    write_output(args.output, result.encode() if isinstance(result, str) else result)
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    run_command(PROG, lambda: run(args))


if __name__ == "__main__":
    main()
