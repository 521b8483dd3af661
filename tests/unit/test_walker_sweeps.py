"""xlir's `PatternRewriteWalker` (xlir/rewriting.py) sweeps dead code after
its first walk and after each walk that changed the IR, not after the last
walk, which changed nothing; what it removes is what xDSL's walker removes."""

from __future__ import annotations

from xdsl.dialects.arith import AddiOp, ConstantOp, SubiOp
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriterListener,
    RewritePattern,
)
from xlir.dialects.effects import memo_region_dce

from xlir.rewriting import PatternRewriteWalker


class AddToSub(RewritePattern):
    """Replaces each `arith.addi` by an `arith.subi` of the same operands."""

    def match_and_rewrite(self, op, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, AddiOp):
            rewriter.replace(op, SubiOp(op.lhs, op.rhs))


class CountedSweep:
    """`memo_region_dce`, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(
        self, region: Region, listener: PatternRewriterListener | None = None
    ) -> bool:
        self.calls += 1
        return memo_region_dce(region, listener)


def _module(with_add: bool = True) -> tuple[ModuleOp, ConstantOp]:
    """A function returning `c + c` (or `c`), with an unused constant."""
    block = Block(arg_types=[])
    c = ConstantOp.from_int_and_width(1, i32)
    dead = ConstantOp.from_int_and_width(2, i32)
    if with_add:
        add = AddiOp(c, c)
        block.add_ops([c, dead, add, ReturnOp(add)])
    else:
        block.add_ops([c, dead, ReturnOp(c)])
    function = FuncOp("main", ((), (i32,)), Region(block))
    return ModuleOp([function]), dead


def test_a_rewrite_is_swept_once_and_the_last_walk_not_at_all() -> None:
    module, dead = _module()
    sweep = CountedSweep()
    assert PatternRewriteWalker(AddToSub(), post_walk_func=sweep).rewrite_module(module)
    assert sweep.calls == 1  # xDSL's walker: 2 (after the second walk too)
    assert dead.parent is None
    assert any(isinstance(op, SubiOp) for op in module.walk())
    assert not any(isinstance(op, AddiOp) for op in module.walk())


def test_the_first_walk_is_swept_even_when_it_changed_nothing() -> None:
    module, dead = _module(with_add=False)
    sweep = CountedSweep()
    assert PatternRewriteWalker(AddToSub(), post_walk_func=sweep).rewrite_module(module)
    assert sweep.calls == 1
    assert dead.parent is None


def test_nothing_to_do_is_one_walk_and_one_sweep() -> None:
    module, _ = _module(with_add=False)
    sweep = CountedSweep()
    walker = PatternRewriteWalker(AddToSub(), post_walk_func=sweep)
    walker.rewrite_module(module)
    sweep.calls = 0
    assert not walker.rewrite_module(module)
    assert sweep.calls == 1
