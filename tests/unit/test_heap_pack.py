"""The arena packing (`passes/hlo/buffers/heap.py`): buffers live at once never
share bytes, offsets are aligned, and each buffer goes into the smallest gap
that holds it."""

from __future__ import annotations

import random

import numpy as np
from xlir.passes.hlo.buffers.heap import Block, _best_fit, pack


def test_buffers_live_at_once_get_disjoint_aligned_bytes() -> None:
    rng = random.Random(3)
    for _ in range(300):
        blocks = []
        for key in range(rng.randint(0, 60)):
            start = rng.randint(0, 40)
            size = rng.choice([0, 4, 12, 64, 100, 1000])
            blocks.append(Block(key, size, start, start + rng.randint(0, 12)))
        alignment = rng.choice([1, 16, 64])
        offsets, arena = pack(blocks, alignment)
        for a in blocks:
            assert offsets[a.key] % alignment == 0
            assert offsets[a.key] + a.size <= arena
            for b in blocks:
                if a.key < b.key and a.size and b.size and a.overlaps(b):
                    apart = (
                        offsets[a.key] + a.size <= offsets[b.key]
                        or offsets[b.key] + b.size <= offsets[a.key]
                    )
                    assert apart, (a, b, offsets)


def test_the_smallest_gap_that_holds_a_buffer_is_taken() -> None:
    # busy bytes 0..64, 112..176, 208..272: gaps of 48 bytes at 64, 32 at 176
    lows, highs = np.array([0, 112, 208]), np.array([64, 176, 272])
    assert _best_fit(lows, highs, 32, 16) == 176
    assert _best_fit(lows, highs, 40, 16) == 64
    assert _best_fit(lows, highs, 48, 16) == 64
    assert _best_fit(lows, highs, 64, 16) == 272
    assert _best_fit(lows, highs, 32, 128) == 384  # no aligned offset fits below
    assert _best_fit(np.array([], int), np.array([], int), 8, 16) == 0
