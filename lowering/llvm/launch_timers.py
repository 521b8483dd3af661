"""Timers around each kernel launch of a host entry, compiled in only when
asked (`device-to-llvm{time-launches=true}`, behind `xlir-run --profile`).

Each `device.launch` becomes

    call @xlir.launch_begin(i64 SITE)
    call @KERNEL(...)
    call @xlir.launch_end(i64 SITE)

where SITE numbers the launches of the module in the order they are
lowered. The two functions are only declared: the target defines them (the
cpu target's `targets/cpu/launch_timers.py` reads a monotonic clock and adds
up each site's time). The pass records which kernel each site launches, and
the bytes of the buffers it passes, in the module attribute `LAUNCH_SITES`,
for the host to read before translating the module.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    i64,
)
from xlir.dialects import device
from xlir.lowering.llvm.function import FunctionBuilder

from xlir.element_types import byte_width

LAUNCH_BEGIN = "xlir.launch_begin"
LAUNCH_END = "xlir.launch_end"
LAUNCH_SITES = "xlir.launch_sites"
"""Module attribute: one `{kernel = "fusion_1", bytes = N}` per site."""


class LaunchTimers:
    """Numbers the launches of one module and wraps each in the two calls."""

    def __init__(self) -> None:
        self.sites: list[DictionaryAttr] = []

    def launch(self, b: FunctionBuilder, op: device.LaunchOp) -> None:
        site = b.const(len(self.sites))
        self.sites.append(
            DictionaryAttr(
                {
                    "kernel": StringAttr(op.kernel.root_reference.data),
                    "bytes": IntegerAttr(_buffer_bytes(op), i64),
                }
            )
        )
        void = llvm.LLVMVoidType()
        b.module.declare(LAUNCH_BEGIN, [i64], void)
        b.module.declare(LAUNCH_END, [i64], void)
        b.emit(llvm.CallOp(LAUNCH_BEGIN, site))
        b.emit(llvm.CallOp(op.kernel.root_reference.data, *map(b.get, op.args)))
        b.emit(llvm.CallOp(LAUNCH_END, site))

    def record(self, module: ModuleOp) -> None:
        module.attributes[LAUNCH_SITES] = ArrayAttr(self.sites)


def _buffer_bytes(op: device.LaunchOp) -> int:
    """The bytes of the distinct buffers the launch passes: what the kernel
    reads and writes at least once."""
    total = 0
    for value in dict.fromkeys(op.args):
        type_ = value.type
        if isinstance(type_, MemRefType):
            size = byte_width(type_.element_type) or 0
            for extent in type_.get_shape():
                size *= max(extent, 0)
            total += size
    return total
