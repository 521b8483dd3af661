"""Which host buffers may overlap: the sweep over byte ranges
(`overlapping_pairs`, `overlaps_between`) finds exactly the pairs that
`may_overlap` finds pair by pair, over views of views of arenas, reshapes
and separate allocations."""

from __future__ import annotations

import random

from xdsl.dialects.builtin import MemRefType, f32, i8
from xdsl.ir import SSAValue
from xlir.analysis.kernel_aliasing import (
    may_overlap,
    overlapping_pairs,
    overlaps_between,
)
from xlir.dialects.device import AllocOp
from xlir.dialects.loop.memory import ReshapeOp, ViewOp


def random_buffers(rng: random.Random, count: int) -> list[SSAValue]:
    """Buffers in two arenas of 256 bytes and a few allocations of their own:
    views (some inside a block view), reshapes of them, and repeats."""
    arenas = [AllocOp(MemRefType(i8, [256])).buffer for _ in range(2)]
    blocks = [ViewOp(arena, 64, MemRefType(i8, [128])).result for arena in arenas]
    buffers: list[SSAValue] = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.1 or not buffers:
            buffers.append(AllocOp(MemRefType(f32, [4])).buffer)
        elif roll < 0.2:
            buffers.append(rng.choice(buffers))
        elif roll < 0.3:
            source = rng.choice(buffers)
            assert isinstance(source.type, MemRefType)
            shape = [*source.type.get_shape(), 1]
            buffers.append(ReshapeOp(source, MemRefType(f32, shape)).result)
        else:
            parent = rng.choice(arenas + blocks)
            assert isinstance(parent.type, MemRefType)
            elements = rng.randint(1, 8)
            room = parent.type.get_shape()[0] - 4 * elements
            offset = 4 * rng.randint(0, room // 4)
            buffers.append(ViewOp(parent, offset, MemRefType(f32, [elements])).result)
    return buffers


def test_the_sweep_finds_the_pairs_may_overlap_finds() -> None:
    rng = random.Random(7)
    for _ in range(30):
        buffers = random_buffers(rng, rng.randint(2, 40))
        expected = {
            (i, j)
            for j in range(len(buffers))
            for i in range(j)
            if may_overlap(buffers[i], buffers[j])
        }
        assert sorted(overlapping_pairs(buffers)) == sorted(expected)


def test_overlaps_between_two_launches_skip_pairs_of_one_and_scalars() -> None:
    rng = random.Random(11)
    for _ in range(30):
        first = random_buffers(rng, rng.randint(1, 20))
        second = [*random_buffers(rng, 5), *rng.sample(first, min(3, len(first)))]
        expected = {
            (n, m)
            for n, x in enumerate(first)
            for m, y in enumerate(second)
            if may_overlap(x, y)
        }
        assert sorted(overlaps_between(first, second)) == sorted(expected)


def test_views_inside_a_view_are_placed_by_their_offsets_summed() -> None:
    arena = AllocOp(MemRefType(i8, [64])).buffer
    block = ViewOp(arena, 32, MemRefType(i8, [32])).result
    inside = ViewOp(block, 8, MemRefType(f32, [2])).result  # bytes 40..48
    assert may_overlap(inside, ViewOp(arena, 44, MemRefType(f32, [1])).result)
    assert not may_overlap(inside, ViewOp(arena, 48, MemRefType(f32, [4])).result)
    assert not may_overlap(inside, ViewOp(arena, 0, MemRefType(f32, [8])).result)
