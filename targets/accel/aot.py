"""A compiled XA-1 program as one file (`xlir-compile --target accel -o
model.xa1`) and back to an executable without compiling (`xlir-run
model.xa1`, `xlir.api.load_executable`).

The file is the kernels' XA1 object (manual section 7, as any XA-1 loader
reads it), then, at the next multiple of 64 bytes, the program section
(section 8: "a program is one XA1 object plus a host schedule"), which a
loader of the manual ignores:

    offset size field
    0      4    magic "XA1P"
    4      2    version = 1
    6      2    flags = 0
    8      4    payload size in bytes
    12     4    CRC-32 of the payload
    16     4    object size in bytes (the object before this section)
    20     4    CRC-32 of the object's bytes
    24     8    reserved, zero
    32     -    payload: UTF-8 JSON

The payload holds the function's name and its argument and result types
(the program's own: `ui8` stays unsigned), the scratchpad's high-water
mark, where the object's rodata holds each constant (rodata.py), and the
host schedule: the loop level's host function in the `device` dialect
(allocations, the arena's views, copies, launches of the object's kernels
by symbol, `loop.get_global` of the constants, host control flow) as MLIR
text. Loading checks both checksums, parses the schedule and checks each
launch against the object's symbol table and each constant against the
rodata; the generic executor of the `device` dialect then runs it over the
simulator's StreamExecutor, as the JIT's executable does.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from io import StringIO
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xlir.dialects import device
from xlir.dialects.loop.globals import GetGlobalOp
from xlir.targets.accel.objfile import (
    KERNEL,
    ObjectFile,
    ObjectFormatError,
    object_size,
)
from xlir.targets.accel.rodata import ALIGNMENT, RodataConstant
from xlir.targets.base import buffer_bytes
from xlir.targets.signatures import loop_signature

from xlir.context import make_context
from xlir.diagnostics import XlirError, format_parse_error
from xlir.parsing import XlirParser, parse_module
from xlir.signature import Signature, TensorSpec
from xlir.walk import walk

PROGRAM_MAGIC = b"XA1P"
PROGRAM_VERSION = 1
_SECTION = struct.Struct("<4sHHIIII8x")

Failure = Callable[[str], XlirError]
"""A diagnostic about the file being read, from what is wrong with it."""


def program_file(
    obj: ObjectFile,
    module: ModuleOp,
    signature: Signature,
    scratchpad_bytes: int,
    rodata: dict[str, RodataConstant],
) -> bytes:
    """The object of a compiled program's kernels and constants followed
    by its program section (module docstring); `module` is the lowered
    module whose host function is `signature.function`, `rodata` where the
    object holds each constant."""
    schedule = ModuleOp(
        [op.clone() for op in module.body.block.ops if isinstance(op, func.FuncOp)],
        attributes=dict(module.attributes),
    )
    text = _printed(schedule)
    payload = json.dumps(
        {
            "function": signature.function,
            "arguments": [spec.type_text for spec in signature.arguments],
            "results": [spec.type_text for spec in signature.results],
            "scratchpad_bytes": scratchpad_bytes,
            "constants": {
                name: [constant.offset, constant.size]
                for name, constant in rodata.items()
            },
            "schedule": text,
        },
        indent=1,
    ).encode()
    kernels = obj.to_bytes()
    padding = bytes(-len(kernels) % ALIGNMENT)
    header = _SECTION.pack(
        PROGRAM_MAGIC,
        PROGRAM_VERSION,
        0,
        len(payload),
        zlib.crc32(payload),
        len(kernels),
        zlib.crc32(kernels),
    )
    return kernels + padding + header + payload


def _printed(module: ModuleOp) -> str:
    text = StringIO()
    Printer(stream=text).print_op(module)
    return text.getvalue() + "\n"


@dataclass(frozen=True)
class LoadedProgram:
    """What a program file holds, checked (`read_program`)."""

    obj: ObjectFile
    module: ModuleOp
    """The schedule: the host function, with the grid's attributes."""
    signature: Signature
    scratchpad_bytes: int
    rodata: dict[str, RodataConstant]
    sources: dict[str, str]
    """The schedule's text, for diagnostics at its ops."""


def read_program(data: bytes, name: str) -> LoadedProgram:
    """The object, schedule and signature of a program file, or a
    diagnostic naming the file and what is wrong with it."""

    def fail(message: str) -> XlirError:
        return XlirError(f"{name}: error: {message}")

    try:
        obj = ObjectFile.from_bytes(data)
    except ObjectFormatError as error:
        raise fail(f"not a loadable XA-1 object: {error}") from None
    fields = _payload(_section_payload(data, fail), fail)
    where = f"{name}(schedule)"
    sources = {where: fields["schedule"]}
    try:
        module = parse_module(make_context(), fields["schedule"], where)
    except ParseError as error:
        raise XlirError(format_parse_error(error)) from None
    except DiagnosticException as error:
        raise fail(f"the schedule: {error}") from None
    signature = _signature(fields, module, fail)
    _check_launches(module, obj, fail)
    rodata = _constants(fields["constants"], module, obj, fail)
    return LoadedProgram(
        obj, module, signature, fields["scratchpad_bytes"], rodata, sources
    )


def _section_payload(data: bytes, fail: Failure) -> bytes:
    """The program section's payload, once its header and both checksums
    are checked."""
    end = object_size(data)
    start = end + -end % ALIGNMENT
    if len(data) <= end:
        raise fail(
            "an XA-1 object without a program section: it holds kernels but "
            "no host schedule (xlir-compile --target accel writes one; run a "
            "single kernel with xlir-accel run)"
        )
    if len(data) < start + _SECTION.size:
        raise fail(
            f"{len(data) - end} byte(s) after the object, too few for a "
            f"{_SECTION.size}-byte program section header at offset {start}"
        )
    magic, version, flags, size, crc, kernels_size, kernels_crc = _SECTION.unpack_from(
        data, start
    )
    if magic != PROGRAM_MAGIC:
        raise fail(
            f"bytes after the object start with {magic!r} at offset {start}, "
            f"not a program section ({PROGRAM_MAGIC!r})"
        )
    if version != PROGRAM_VERSION or flags != 0:
        raise fail(
            f"program section version {version}, flags {flags}; this xlir "
            f"reads version {PROGRAM_VERSION}, flags 0"
        )
    payload = data[start + _SECTION.size :]
    if len(payload) != size:
        raise fail(
            f"the program section says {size} payload bytes, the file has "
            f"{len(payload)} (truncated or extended)"
        )
    if kernels_size != end or zlib.crc32(data[:end]) != kernels_crc:
        raise fail(
            "the object's bytes do not match the checksum its program section "
            "records: the file is corrupted"
        )
    if zlib.crc32(payload) != crc:
        raise fail(
            "the program section's bytes do not match its checksum: the file "
            "is corrupted"
        )
    return payload


_FIELDS: dict[str, type] = {
    "function": str,
    "arguments": list,
    "results": list,
    "scratchpad_bytes": int,
    "constants": dict,
    "schedule": str,
}


def _payload(payload: bytes, fail: Failure) -> dict[str, Any]:
    try:
        fields = json.loads(payload.decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise fail(f"the program section is not UTF-8 JSON: {error}") from None
    if not isinstance(fields, dict):
        raise fail("the program section's JSON is not an object")
    for key, kind in _FIELDS.items():
        if not isinstance(fields.get(key), kind):
            raise fail(
                f"the program section's '{key}' is missing or not a {kind.__name__}"
            )
    return fields


def _signature(fields: dict[str, Any], module: ModuleOp, fail: Failure) -> Signature:
    """The recorded types, which must be the host function's buffers'."""
    function = fields["function"]
    try:
        host = loop_signature(module, function)
    except XlirError as error:
        raise fail(f"the schedule: {str(error).removeprefix('error: ')}") from None
    specs: list[tuple[TensorSpec, ...]] = []
    for key, prefix, buffers in (
        ("arguments", "arg", host.arguments),
        ("results", "result", host.results),
    ):
        texts = fields[key]
        if len(texts) != len(buffers):
            raise fail(
                f"the program section lists {len(texts)} {key}, but "
                f"@{function} has {len(buffers)}"
            )
        specs.append(
            tuple(
                _tensor(f"{prefix}{i}", text, buffer, fail)
                for i, (text, buffer) in enumerate(zip(texts, buffers, strict=True))
            )
        )
    return Signature(function, specs[0], specs[1])


def _tensor(name: str, text: Any, buffer: TensorSpec, fail: Failure) -> TensorSpec:
    try:
        spec = TensorSpec.from_type(
            name, XlirParser(make_context(), str(text)).parse_type()
        )
    except (ParseError, XlirError):
        raise fail(f"{name}'s type {text!r} is not a tensor type") from None
    if spec.shape != buffer.shape or spec.dtype.itemsize != buffer.dtype.itemsize:
        raise fail(
            f"{name} is recorded as {spec.type_text}, but the schedule's "
            f"buffer is {buffer.type_text}"
        )
    return spec


def _constants(
    entries: dict[str, Any], module: ModuleOp, obj: ObjectFile, fail: Failure
) -> dict[str, RodataConstant]:
    """Where the rodata holds each constant: aligned, inside the section,
    and one for each `loop.get_global` of the schedule, of its size."""
    rodata: dict[str, RodataConstant] = {}
    for name, entry in entries.items():
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or not all(isinstance(n, int) and n >= 0 for n in entry)
        ):
            raise fail(f"constant '{name}': {entry!r} is not [offset, size]")
        offset, size = entry
        if offset % ALIGNMENT or offset + size > len(obj.rodata):
            raise fail(
                f"constant '{name}' at [{offset}, +{size}) is not a 64-byte "
                f"aligned part of the {len(obj.rodata)}-byte rodata"
            )
        rodata[name] = RodataConstant(offset, size)
    for op in walk(module):
        if not isinstance(op, GetGlobalOp):
            continue
        name = op.global_name.root_reference.data
        size = buffer_bytes(op.result.type, op, {})
        if name not in rodata or rodata[name].size != size:
            raise fail(
                f"the schedule reads constant @{name} of {size} bytes, which "
                "the rodata does not hold"
            )
    return rodata


def _check_launches(module: ModuleOp, obj: ObjectFile, fail: Failure) -> None:
    """Every launch names a kernel of the object with as many arguments."""
    kernels = {s.name: s.nargs for s in obj.symbols if s.kind == KERNEL}
    for op in walk(module):
        if not isinstance(op, device.LaunchOp):
            continue
        kernel = op.kernel.root_reference.data
        if kernel not in kernels:
            raise fail(
                f"the schedule launches @{kernel}, which is no kernel of the "
                f"object (kernels: {', '.join(kernels) or 'none'})"
            )
        if kernels[kernel] != len(op.args):
            raise fail(
                f"the schedule launches @{kernel} with {len(op.args)} "
                f"argument(s); the object's symbol takes {kernels[kernel]}"
            )


def program_comment(data: bytes, name: str) -> str:
    """The program section of a program file as assembly comments, for its
    disassembly: the signature, the scratchpad's high-water mark and the
    host schedule; what is wrong with it, where it is unreadable; nothing
    for an object without one."""
    if len(data) <= object_size(data):
        return ""
    try:
        program = read_program(data, name)
    except XlirError as error:
        return f"# program section unreadable: {error}\n"
    lines = [
        f"program section: {program.signature}",
        f"scratchpad high-water mark: {program.scratchpad_bytes} bytes",
        "host schedule:",
        *next(iter(program.sources.values())).splitlines(),
    ]
    return "".join(f"# {line}".rstrip() + "\n" for line in lines)
