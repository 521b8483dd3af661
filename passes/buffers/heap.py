"""Packing the temp arena: a heap simulation over known lifetimes.

Like XLA's GlobalDecreasingSizeBestFitHeap: buffers are placed largest first
(then longest-lived), each at the best fit — the smallest free gap, among the
buffers already placed whose lifetimes overlap its own, that holds it at an
aligned offset — or else above them all. Lifetimes are closed step ranges: a
buffer last read at step t and one first written at step t do not share bytes.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Block:
    """A buffer to place: `size` bytes live from step `start` to `end`."""

    key: Hashable
    size: int
    start: int
    end: int

    def overlaps(self, other: Block) -> bool:
        return self.start <= other.end and other.start <= self.end


def _align(offset: int, alignment: int) -> int:
    return -(-offset // alignment) * alignment


def pack(blocks: Sequence[Block], alignment: int) -> tuple[dict[Hashable, int], int]:
    """Offsets for `blocks` and the arena size (the highest byte used)."""
    order = sorted(
        range(len(blocks)),
        key=lambda i: (
            -blocks[i].size,
            blocks[i].start - blocks[i].end,
            blocks[i].start,
            i,
        ),
    )
    placed: list[tuple[int, Block]] = []
    offsets: dict[Hashable, int] = {}
    arena = 0
    for i in order:
        block = blocks[i]
        if block.size == 0:
            offsets[block.key] = 0
            continue
        busy = sorted(
            (offset, offset + other.size)
            for offset, other in placed
            if other.overlaps(block)
        )
        offset = _best_fit(busy, block.size, alignment)
        offsets[block.key] = offset
        placed.append((offset, block))
        arena = max(arena, offset + block.size)
    return offsets, arena


def _best_fit(busy: list[tuple[int, int]], size: int, alignment: int) -> int:
    """The aligned offset in the smallest gap between `busy` ranges that holds
    `size` bytes, or the first aligned offset above them all."""
    best: tuple[int, int] | None = None  # (gap size, offset)
    cursor = 0
    for low, high in busy:
        offset = _align(cursor, alignment)
        if offset + size <= low and (best is None or low - cursor < best[0]):
            best = (low - cursor, offset)
        cursor = max(cursor, high)
    if best is not None:
        return best[1]
    return _align(cursor, alignment)
