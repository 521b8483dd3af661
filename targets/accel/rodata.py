"""A program's constants (`loop.global`) in its object's read-only data
(manual section 7.3): the runtime copies the rodata into DRAM once, when it
loads the object, so a constant is data of the binary, not copied per call
(the `loop` dialect's intent for globals). Each starts at a multiple of 64
bytes, in its DRAM format, so its address is a buffer's (section 8.1)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp
from xlir.dialects.loop.globals import GlobalOp
from xlir.targets.accel.objfile import ObjectFile
from xlir.targets.device_schedule import constant_array

ALIGNMENT = 64


@dataclass(frozen=True)
class RodataConstant:
    """Where a constant lies in the rodata section."""

    offset: int
    size: int


def with_constants(
    obj: ObjectFile, module: ModuleOp
) -> tuple[ObjectFile, dict[str, RodataConstant]]:
    """`obj` with the module's constants appended to its rodata, and where
    each lies, by name."""
    rodata = bytearray(obj.rodata)
    table: dict[str, RodataConstant] = {}
    for op in module.body.block.ops:
        if isinstance(op, GlobalOp):
            data = constant_array(op).tobytes()
            rodata += bytes(-len(rodata) % ALIGNMENT)
            table[op.sym_name.data] = RodataConstant(len(rodata), len(data))
            rodata += data
    return ObjectFile(obj.code, bytes(rodata), obj.symbols), table
