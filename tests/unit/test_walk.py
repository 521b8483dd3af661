"""Walks without a generator per level of nesting (xlir/walk.py,
xlir/rewriting.py) visit the ops xDSL's walks visit, in the same order."""

from __future__ import annotations

import itertools

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.test import TestOp as AnyOp
from xdsl.ir import Block, Region

from xlir.rewriting import walk_region
from xlir.walk import walk


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


@pytest.mark.parametrize(
    ("reverse", "region_first"), list(itertools.product([False, True], repeat=2))
)
def test_walk_region_matches_xdsl(reverse: bool, region_first: bool) -> None:
    region = _tree().body
    want = list(region.walk(reverse=reverse, region_first=region_first))
    got = list(walk_region(region, reverse=reverse, region_first=region_first))
    assert all(a is b for a, b in zip(got, want, strict=True))
