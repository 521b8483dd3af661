"""Walks without a generator per level of nesting (xlir/walk.py,
xlir/rewriting.py) visit the ops xDSL's walks visit, in the same order, and
`block_ops` lists a block's ops as its iterator does."""

from __future__ import annotations

import itertools

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.test import TestOp as AnyOp
from xdsl.ir import Block, Region

from xlir.rewriting import walk_region
from xlir.walk import block_ops, walk


def _tree() -> ModuleOp:
    """Ops with two regions of two blocks each, three levels deep."""

    def op(depth: int) -> AnyOp:
        if depth == 0:
            return AnyOp()
        regions = [
            Region([Block([op(depth - 1), AnyOp()]), Block([op(depth - 1)])])
            for _ in range(2)
        ]
        return AnyOp(regions=regions)

    return ModuleOp([op(3), AnyOp(), op(2)])


def test_walk_matches_xdsl() -> None:
    module = _tree()
    want = list(module.walk())
    got = list(walk(module))
    assert len(want) > 50
    assert all(a is b for a, b in zip(got, want, strict=True))


def _visit_adding(walker) -> int:
    """How many ops a walk visits when the visit of the outer op adds an op
    to the region under it."""
    inner = Block([AnyOp()])
    module = ModuleOp([AnyOp(regions=[Region(inner)])])
    seen = 0
    for op in walker(module):
        seen += 1
        if op.parent is module.body.block:
            inner.add_op(AnyOp())
    return seen


def test_walk_sees_ops_added_to_a_visited_op() -> None:
    """Like xDSL's, the walk reads an op's regions once the op is visited."""
    assert _visit_adding(walk) == _visit_adding(ModuleOp.walk) == 4


def test_block_ops_matches_xdsl() -> None:
    module = _tree()
    blocks = [block for op in walk(module) for r in op.regions for block in r.blocks]
    assert len(blocks) > 10
    for block in blocks:
        got = block_ops(block)
        assert len(got) == len(list(block.ops))
        assert all(a is b for a, b in zip(got, block.ops, strict=True))
    assert block_ops(Block()) == []


@pytest.mark.parametrize(
    ("reverse", "region_first"), list(itertools.product([False, True], repeat=2))
)
def test_walk_region_matches_xdsl(reverse: bool, region_first: bool) -> None:
    region = _tree().body
    want = list(region.walk(reverse=reverse, region_first=region_first))
    got = list(walk_region(region, reverse=reverse, region_first=region_first))
    assert all(a is b for a, b in zip(got, want, strict=True))
