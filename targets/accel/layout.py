"""Where a kernel's buffers live in the scratchpad while it runs, and how
DMA moves each of them (manual sections 2.7 and 5.1): every element in a
32-bit container, narrow types converted by the descriptor's mode."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
    MemRefType,
    Signedness,
)
from xdsl.ir import Attribute, SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import ReshapeOp, StoreOp
from xlir.dialects.syntax import array_values

from xlir.diagnostics import XlirError, format_at_op

ALIGNMENT = 64
"""Buffers start on a vector boundary (aligned `vld`/`vst` cost one cycle)."""
IN_DRAM = "accel.in_dram"
"""A kernel's attribute: the arguments it accesses in DRAM (`Placement`)."""


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


def dram_bytes(element: Attribute) -> int:
    """Bytes of one element of a buffer in DRAM (manual table 2.7)."""
    if isinstance(element, IntegerType) and element.width.data == 1:
        return 1
    if isinstance(element, IntegerType | Float16Type | BFloat16Type | Float32Type):
        return element.bitwidth // 8
    return 4  # index: a 32-bit word on XA-1


@dataclass(frozen=True)
class Placement:
    """One buffer in the scratchpad: staged whole, or a tile at a time."""

    offset: int
    """Its scratchpad address (a tiled buffer's slot 0)."""
    columns: int
    """The COLS of its one-row descriptor: bytes in raw mode, else elements
    (a tiled buffer's: per tile)."""
    mode: str
    written: bool
    """Whether the kernel stores to it (it is copied back)."""
    slot_bytes: int = 0
    """A tiled buffer's slot size (slot 1 follows slot 0); 0: staged whole."""
    rows: int = 1
    """A tiled buffer's descriptor rows: the product of the dimensions
    before its tiled one (a strided, 2-D descriptor when more than one)."""
    position: int = 0
    """Which index of a tiled buffer the tile cuts."""
    size: int = 0
    """A tiled buffer's indices per tile along that index."""
    scale: int = 1
    first: int = 0
    """The tile at t of the tiled loop starts at index scale * t + first."""
    in_dram: bool = False
    """It stays in DRAM: each access moves its element (or a load's or
    store's 16 lanes) through a 64-byte bounce area at `offset` by DMA."""


@dataclass(frozen=True)
class TileFootprint:
    """What a tile of one buffer holds: `size` indices along index
    `position`, from `scale * t + first` for the tile at t of the tiled
    loop (`accel-tile`)."""

    position: int
    size: int
    scale: int = 1
    first: int = 0


@dataclass(frozen=True)
class KernelLayout:
    buffers: list[Placement | None]
    """Per kernel argument; None for a scalar."""
    high_water: int
    """Scratchpad bytes the buffers take."""


def container_bytes(element: Attribute) -> int:
    """Scratchpad bytes of one element: its 32-bit container, two words for
    a 64-bit integer (`wide_integers.py`)."""
    return 8 if isinstance(element, IntegerType) and element.width.data == 64 else 4


def staged_bytes(buffers: list[MemRefType]) -> int:
    """Scratchpad bytes of `buffers` staged whole, each 64-byte aligned."""
    return sum(aligned(container_bytes(t.element_type) * _elements(t)) for t in buffers)


def _elements(type_: MemRefType) -> int:
    return _product(type_.get_shape())


def _product(sizes: Sequence[int]) -> int:
    product = 1
    for size in sizes:
        product *= size
    return product


def aligned(size: int) -> int:
    """`size` rounded up to the buffers' alignment."""
    return -(-size // ALIGNMENT) * ALIGNMENT


def plan_layout(
    kernel: KernelOp, capacity: int, tiles: dict[int, TileFootprint] | None = None
) -> KernelLayout:
    """Each buffer argument of `kernel` one after another from address 0:
    whole, or (an argument index in `tiles`) two slots of one tile, the
    buffer with its tiled index cut to the tile's footprint; an XlirError
    at the kernel if they need more than `capacity` bytes."""
    tiles = tiles or {}
    written = {
        stored_buffer(op.buffer) for op in kernel.body.walk() if isinstance(op, StoreOp)
    }
    buffers: list[Placement | None] = []
    offset = 0
    in_dram = in_dram_arguments(kernel)
    bounce = ALIGNMENT if in_dram else 0
    for index, arg in enumerate(kernel.body.block.args):
        type_ = arg.type
        if not isinstance(type_, MemRefType):
            buffers.append(None)
            continue
        mode = dma_mode(type_.element_type)
        assert mode is not None  # loop-to-accel checked the types
        if index in in_dram:
            buffers.append(Placement(0, 0, mode, arg in written, in_dram=True))
            continue
        shape = type_.get_shape()
        tile = tiles.get(index, TileFootprint(0, shape[0] if shape else 1))
        position, size = tile.position, tile.size
        rows = _product(shape[:position])
        row = size * _product(shape[position + 1 :])
        columns = 4 * row if mode == "raw" else row
        bytes_ = aligned(4 * rows * row)
        if index in tiles:
            placement = Placement(
                offset,
                columns,
                mode,
                arg in written,
                bytes_,
                rows,
                position,
                size,
                tile.scale,
                tile.first,
            )
            offset += 2 * bytes_
        else:
            placement = Placement(offset, columns, mode, arg in written)
            offset += bytes_
        buffers.append(placement)
    buffers = [
        replace(p, offset=offset) if p is not None and p.in_dram else p for p in buffers
    ]
    offset += bounce
    if offset > capacity:
        raise XlirError(
            format_at_op(
                kernel,
                f"kernel @{kernel.sym_name.data} needs {offset} bytes of scratchpad "
                f"for its buffers, more than the {capacity} available, and "
                "accel-tile found no tiling of it",
            )
        )
    return KernelLayout(buffers, offset)


def stored_buffer(buffer: SSAValue) -> SSAValue:
    """The kernel argument a store to `buffer` writes (through reshapes)."""
    while isinstance(buffer.owner, ReshapeOp):
        buffer = buffer.owner.source
    return buffer


def in_dram_arguments(kernel: KernelOp) -> set[int]:
    """The arguments `kernel` accesses in DRAM (`IN_DRAM`)."""
    attribute = kernel.attributes.get(IN_DRAM)
    return (
        set(array_values(attribute)) if isinstance(attribute, DenseArrayBase) else set()
    )
