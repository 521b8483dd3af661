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

import numpy as np


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
    """Offsets for `blocks` and the arena size (the highest byte used).
    The buffers placed so far are held in arrays, so that finding those
    whose lifetimes meet the next one's, and the gaps between them, costs a
    few array operations instead of a Python step per placed buffer (a
    program of thousands of buffers would take seconds)."""
    order = sorted(
        range(len(blocks)),
        key=lambda i: (
            -blocks[i].size,
            blocks[i].start - blocks[i].end,
            blocks[i].start,
            i,
        ),
    )
    starts, ends = np.zeros(len(blocks), np.int64), np.zeros(len(blocks), np.int64)
    lows, highs = np.zeros(len(blocks), np.int64), np.zeros(len(blocks), np.int64)
    count = 0
    offsets: dict[Hashable, int] = {}
    arena = 0
    for i in order:
        block = blocks[i]
        if block.size == 0:
            offsets[block.key] = 0
            continue
        meets = (starts[:count] <= block.end) & (block.start <= ends[:count])
        busy_lows, busy_highs = lows[:count][meets], highs[:count][meets]
        by_low = np.lexsort((busy_highs, busy_lows))
        offset = _best_fit(busy_lows[by_low], busy_highs[by_low], block.size, alignment)
        offsets[block.key] = offset
        starts[count], ends[count] = block.start, block.end
        lows[count], highs[count] = offset, offset + block.size
        count += 1
        arena = max(arena, offset + block.size)
    return offsets, arena


def _best_fit(lows: np.ndarray, highs: np.ndarray, size: int, alignment: int) -> int:
    """The aligned offset in the smallest gap below a busy range (`lows`,
    `highs`, sorted) that holds `size` bytes, the lowest such gap among
    equals, or the first aligned offset above them all."""
    if len(lows) == 0:
        return 0
    reached = np.maximum.accumulate(highs)  # the top of the busy ranges so far
    cursors = np.concatenate(([0], np.maximum(reached[:-1], 0)))
    aligned = -(-cursors // alignment) * alignment
    gaps = lows - cursors
    fits = aligned + size <= lows
    if fits.any():
        best = np.flatnonzero(fits)[np.argmin(gaps[fits])]
        return int(aligned[best])
    return _align(int(reached[-1]), alignment)
