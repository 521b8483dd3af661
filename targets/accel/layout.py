"""Where a kernel's buffers live in the scratchpad while it runs, and how
DMA moves each of them (manual sections 2.7 and 5.1): every element in a
32-bit container, narrow types converted by the descriptor's mode."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
    MemRefType,
    Signedness,
)
from xdsl.ir import Attribute
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import StoreOp

from xlir.diagnostics import XlirError, format_at_op

ALIGNMENT = 64
"""Buffers start on a vector boundary (aligned `vld`/`vst` cost one cycle)."""


def dma_mode(element: Attribute) -> str | None:
    """The DMA mode that moves a buffer of `element` (None: XA-1 has no such
    data)."""
    if isinstance(element, Float32Type | IndexType):
        return "raw"
    if isinstance(element, Float16Type):
        return "f16"
    if isinstance(element, BFloat16Type):
        return "bf16"
    if isinstance(element, IntegerType):
        unsigned = element.signedness.data == Signedness.UNSIGNED
        width = element.width.data
        if width == 32:
            return "raw"
        if width == 1:
            return "u8"
        if width in (8, 16):
            return f"{'u' if unsigned else 'i'}{width}"
    return None


@dataclass(frozen=True)
class Placement:
    """One staged buffer."""

    offset: int
    """Its scratchpad address."""
    columns: int
    """The COLS of its one-row descriptor: bytes in raw mode, else elements."""
    mode: str
    written: bool
    """Whether the kernel stores to it (it is copied back)."""


@dataclass(frozen=True)
class KernelLayout:
    buffers: list[Placement | None]
    """Per kernel argument; None for a scalar."""
    high_water: int
    """Scratchpad bytes the buffers take."""


def plan_layout(kernel: KernelOp, capacity: int) -> KernelLayout:
    """Each buffer argument of `kernel` one after another from address 0; an
    XlirError at the kernel if they need more than `capacity` bytes."""
    written = {op.buffer for op in kernel.body.walk() if isinstance(op, StoreOp)}
    buffers: list[Placement | None] = []
    offset = 0
    for arg in kernel.body.block.args:
        type_ = arg.type
        if not isinstance(type_, MemRefType):
            buffers.append(None)
            continue
        elements = 1
        for size in type_.get_shape():
            elements *= size
        mode = dma_mode(type_.element_type)
        assert mode is not None  # loop-to-accel checked the types
        columns = 4 * elements if mode == "raw" else elements
        buffers.append(Placement(offset, columns, mode, arg in written))
        offset += -(-(4 * elements) // ALIGNMENT) * ALIGNMENT
    if offset > capacity:
        raise XlirError(
            format_at_op(
                kernel,
                f"kernel @{kernel.sym_name.data} needs {offset} bytes of scratchpad "
                f"for its buffers, more than the {capacity} available; larger "
                "kernels need tiling, which loop-to-accel does not do yet",
            )
        )
    return KernelLayout(buffers, offset)
