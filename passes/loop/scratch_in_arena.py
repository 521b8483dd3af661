"""`scratch-in-arena`: a host function's scratch buffers become views of
its temp arena, past the buffer plan's temps; the arena grows to hold them.

A scratch buffer is one the host allocates and frees in one block: the
scratch arguments `pack-panels`, `gemm-calls` and `conv-calls` give a
launch, a sort's work space, a yield's saved copies. Allocated around each
launch, a large one cost every call: glibc hands allocations above its
mmap threshold back to the system when they are freed, and the next call
faults their pages in again. Where the arena is allocated once and kept
(the cpu executable keeps one per thread, an ahead-of-time caller passes
its own), scratch in it costs nothing per call.

Live ranges are positions in the function's walk (pre-order): an alloc
and its free in one block enclose everything that runs between them, the
bodies of loops between them included. Each buffer, in the order of its
alloc, takes the lowest 64-byte-aligned offset past the plan's temps whose
bytes no live buffer's meet (first fit), so buffers of different launches
share bytes. A buffer freed in another block or never freed, or returned,
stays an allocation. A function without an arena gets one.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp, i8
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.dialects.device import AllocOp, FreeOp
from xlir.dialects.loop.memory import ViewOp

from xlir.element_types import byte_width
from xlir.walk import walk

ALIGNMENT = 64
"""What `device.alloc` promises, and so each scratch view's offset."""


@dataclass(frozen=True)
class Scratch:
    """A scratch buffer: its alloc and free, the walk positions between
    which it is live, and its bytes."""

    alloc: AllocOp
    free: FreeOp
    start: int
    end: int
    size: int


def _aligned(size: int) -> int:
    return -(-size // ALIGNMENT) * ALIGNMENT


def _bytes(type_: MemRefType) -> int | None:
    width = byte_width(type_.element_type)
    return None if width is None else width * prod(type_.get_shape())


def scratch_buffers(function: func.FuncOp, arena: SSAValue | None) -> list[Scratch]:
    """The function's scratch buffers (module docstring), in walk order."""
    returned = function.body.block.last_op
    kept = set(returned.operands) if returned is not None else set()
    position = {op: index for index, op in enumerate(walk(function))}
    found = []
    for op in position:
        if not isinstance(op, AllocOp) or op.buffer is arena or op.buffer in kept:
            continue
        frees = [use.operation for use in op.buffer.uses]
        frees = [f for f in frees if isinstance(f, FreeOp)]
        size = _bytes(op.buffer.type)  # pyright: ignore[reportArgumentType]
        if len(frees) != 1 or frees[0].parent is not op.parent or size is None:
            continue
        found.append(Scratch(op, frees[0], position[op], position[frees[0]], size))
    return found


def offsets(buffers: list[Scratch], base: int) -> list[int]:
    """Each buffer's offset, first fit from `base` among those live with it."""
    placed: list[tuple[Scratch, int]] = []
    result = []
    for buffer in buffers:
        live = sorted(
            (offset, offset + other.size)
            for other, offset in placed
            if other.end > buffer.start
        )
        offset = base
        for start, end in live:
            if offset + buffer.size <= start:
                break
            offset = max(offset, _aligned(end))
        placed.append((buffer, offset))
        result.append(offset)
    return result


def _arena(function: func.FuncOp) -> AllocOp | None:
    """The alloc that the function's views are of, where there is one."""
    sources = {op.source for op in walk(function) if isinstance(op, ViewOp)}
    if len(sources) != 1:
        return None
    (source,) = sources
    return source.owner if isinstance(source.owner, AllocOp) else None


def _grow(function: func.FuncOp, arena: AllocOp | None, size: int) -> SSAValue:
    """The function's arena, `size` bytes: `arena` replaced by a larger
    one, or a new one allocated first and freed before the return."""
    grown = AllocOp(MemRefType(i8, [size]))
    if arena is not None:
        Rewriter.replace_op(arena, grown)
        return grown.buffer
    grown.buffer.name_hint = "arena"
    block = function.body.block
    Rewriter.insert_op(grown, InsertPoint.at_start(block))
    returned = block.last_op
    assert returned is not None
    Rewriter.insert_op(FreeOp(grown.buffer), InsertPoint.before(returned))
    return grown.buffer


def place_scratch(function: func.FuncOp) -> None:
    """The function's scratch buffers as views of its arena (module
    docstring)."""
    arena = _arena(function)
    if arena is None and any(isinstance(op, ViewOp) for op in walk(function)):
        return  # views of several buffers: no one arena to grow
    buffers = scratch_buffers(function, arena.buffer if arena else None)
    if not buffers:
        return
    old = 0 if arena is None else _bytes(arena.buffer.type)  # pyright: ignore[reportArgumentType]
    assert old is not None  # an i8 buffer
    at = offsets(buffers, _aligned(old))
    size = max(offset + buffer.size for buffer, offset in zip(buffers, at, strict=True))
    grown = _grow(function, arena, max(size, old))
    for buffer, offset in zip(buffers, at, strict=True):
        view = ViewOp(grown, offset, buffer.alloc.buffer.type)  # pyright: ignore[reportArgumentType]
        Rewriter.replace_op(buffer.alloc, view)
        Rewriter.erase_op(buffer.free)


@dataclass(frozen=True)
class ScratchInArenaPass(ModulePass):
    """Host functions' scratch buffers in their arenas (module docstring)."""

    name = "scratch-in-arena"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.body.block.ops:
            if isinstance(function, func.FuncOp) and not function.is_declaration:
                place_scratch(function)
