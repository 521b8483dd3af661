"""`xlir-accel`: the XA-1 accelerator's tools (shared/accel/XA-1.md).

    xlir-accel asm FILE.mlir [-o OUT]        accel-dialect module -> assembly text
    xlir-accel obj FILE.{mlir,s} -o OUT.xa1  -> an XA1 object file
    xlir-accel disasm FILE.xa1 [-o OUT]      object -> assembly text (+ program section)
    xlir-accel run FILE.{s,xa1,mlir} --kernel NAME [--inputs IN.npz]
               [--output 4096xf32 ...] [-o OUT.npz]

`asm`, `obj` and `disasm` are also xlir-translate's translations accel-asm,
accel-obj and accel-disasm (translations.py), through the same functions.
`run` launches the kernel on the simulator and prints its profile. Its
arguments, in order, are the arrays of IN.npz (a 0-d array is a scalar
argument: an integer, or a float's bits; any other array is copied into a DRAM
buffer whose address is passed) and then one zeroed DRAM buffer per
`--output`, written to OUT.npz (as arr_0, arr_1, ...) after the run. Errors are diagnostics with
file:line:col (assembly), or the kernel, pc, instruction and cause (a run).
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xlir.dialects.accel import (
    NoAssembly,
    lower_structured_control,
    print_assembly,
)
from xlir.targets.accel.aot import program_comment
from xlir.targets.accel.assembler import AssemblyError, assemble
from xlir.targets.accel.device import Device
from xlir.targets.accel.disassembler import disassemble
from xlir.targets.accel.objfile import ObjectFile, ObjectFormatError
from xlir.targets.accel.simulator import SimulationError
from xlir.tools.cli import UsageError, run_command, write_output

from xlir.api import load_module
from xlir.diagnostics import XlirError, format_at_op

PROG = "xlir-accel"
_OUTPUT = re.compile(r"(?P<shape>(\d+x)*)(?P<dtype>[a-z]+\d*)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="XA-1 assembler, "
                                     "disassembler and simulator")  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True)
    for name, help_ in (
        ("asm", "accel-dialect module to assembly text"),
        ("obj", "accel-dialect module or assembly to an object file"),
        ("disasm", "object file to assembly text"),
        ("run", "run a kernel on the simulator and print its profile"),
    ):
        command = commands.add_parser(name, help=help_)
        command.add_argument("file")
        command.add_argument("-o", dest="output_file", metavar="OUT")
        if name == "run":
            command.add_argument("--kernel", required=True)
            command.add_argument("--inputs", metavar="IN.npz")
            command.add_argument(
                "--output", action="append", default=[], metavar="SHAPExDTYPE"
            )
            command.add_argument("--dram-size", type=int, default=1 << 26)
    return parser


def _read(path: str) -> bytes:
    try:
        return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


def module_assembly(module: ModuleOp, sources: dict[str, str]) -> str:
    """An accel-dialect module's assembly text, its structured control lowered."""
    try:
        lower_structured_control(module)
        return print_assembly(module)
    except NoAssembly as error:
        raise XlirError(format_at_op(error.op, str(error), sources)) from None


def assemble_text(text: str, name: str) -> ObjectFile:
    try:
        return assemble(text, name)
    except AssemblyError as error:
        raise XlirError(str(error)) from None


def object_from_bytes(data: bytes, name: str) -> ObjectFile:
    try:
        return ObjectFile.from_bytes(data)
    except ObjectFormatError as error:
        raise UsageError(f"{name}: {error}") from None


def file_disassembly(data: bytes, name: str) -> str:
    """The assembly of an object file, then a program file's program
    section as comments (aot.py)."""
    return disassemble(object_from_bytes(data, name)) + program_comment(data, name)


def _assembly(path: str) -> str:
    """Assembly text of a .mlir module or a .s file."""
    if path.endswith(".mlir"):
        return module_assembly(*load_module(Path(path)))
    return _read(path).decode()


def _object(path: str) -> ObjectFile:
    if path.endswith(".xa1"):
        return object_from_bytes(_read(path), path)
    return assemble_text(_assembly(path), path)


def _run(args: argparse.Namespace) -> None:
    device = Device(args.dram_size)
    program = device.load(_object(args.file))
    arguments: list[int] = []
    if args.inputs:
        with np.load(args.inputs) as inputs:
            for name in inputs.files:
                array = inputs[name]
                if array.ndim == 0:
                    bits = (
                        array.astype(np.float32).view(np.uint32)
                        if array.dtype.kind == "f"
                        else array
                    )
                    arguments.append(int(bits) & 0xFFFFFFFF)
                else:
                    address = device.allocate(array.nbytes)
                    device.write(address, array)
                    arguments.append(address)
    outputs: list[tuple[int, np.dtype, tuple[int, ...]]] = []
    for spec in args.output:
        match = _OUTPUT.fullmatch(spec)
        if not match:
            raise UsageError(f"--output {spec}: expected SHAPExDTYPE, e.g. 64x64xf32")
        shape = tuple(int(d) for d in match["shape"].split("x") if d)
        dtype = np.dtype(
            {"f32": "float32", "i32": "int32"}.get(match["dtype"], match["dtype"])
        )
        address = device.allocate(int(np.prod(shape)) * dtype.itemsize)
        outputs.append((address, dtype, shape))
        arguments.append(address)
    try:
        profile = program.launch(args.kernel, arguments)
    except KeyError:
        raise UsageError(f"no kernel '{args.kernel}' in {args.file}") from None
    except SimulationError as error:
        raise XlirError(f"{args.file}: error: {error}") from None
    print(profile.report())
    if args.output_file:
        results = [
            np.frombuffer(
                device.read(address, int(np.prod(shape)) * dtype.itemsize), dtype
            ).reshape(shape)
            for address, dtype, shape in outputs
        ]
        buffer = io.BytesIO()
        np.savez(buffer, *results)
        write_output(args.output_file, buffer.getvalue())


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "asm":
        write_output(args.output_file, _assembly(args.file).encode())
    elif args.command == "obj":
        if args.output_file is None:
            raise UsageError("obj writes a binary: name it with -o FILE.xa1")
        write_output(args.output_file, _object(args.file).to_bytes())
    elif args.command == "disasm":
        if args.file.endswith(".xa1"):
            text = file_disassembly(_read(args.file), args.file)
        else:
            text = disassemble(_object(args.file))
        write_output(args.output_file, text.encode())
    else:
        _run(args)
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    run_command(PROG, lambda: _main(argv))
