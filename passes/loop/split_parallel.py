"""`split-parallel`: each `loop.parallel` of several dimensions as nested
one-dimensional ones, outermost dimension outside.

A target whose hardware loops run one dimension each then lowers one loop
op per `loop.parallel` and needs no recursion over a nest's dimensions. The
iterations of a `loop.parallel` are independent, so running them dimension
by dimension computes the same; its induction variables and bounds keep
their values (every bound is a constant or a value defined outside the
nest). A nest of zero dimensions runs its body once: that body, in its
place.
"""

from __future__ import annotations

from itertools import pairwise

from xdsl.context import Context
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xlir.dialects.loop.loops import INTERLEAVE, ParallelOp, YieldOp

from xlir.rewriting import PatternRewriteWalker


def split_parallel(op: ParallelOp, rewriter: PatternRewriter) -> list[ParallelOp]:
    """`op`'s nest of one-dimensional loops, outermost first, in its place
    (`[op]` itself when it has one dimension). The outermost loop keeps
    `op`'s attributes (`threads` splits the first dimension), except
    `interleave`, which is the innermost dimension's."""
    bounds = list(zip(op.lower_bounds, op.upper_bounds, op.steps, strict=True))
    if len(bounds) == 1:
        return [op]
    if not bounds:  # the body, once
        rewriter.erase(op.yield_op())
        rewriter.inline_block(op.block, InsertPoint.before(op))
        rewriter.erase(op)
        return []
    blocks = [Block(arg_types=[IndexType()]) for _ in bounds]
    loops = [
        ParallelOp([lower], [upper], [step], Region(block))
        for (lower, upper, step), block in zip(bounds, blocks, strict=True)
    ]
    for outer, inner in pairwise(loops):
        outer.block.add_ops([inner, YieldOp()])
    loops[0].attributes |= op.attributes
    if INTERLEAVE in op.attributes:
        loops[-1].attributes[INTERLEAVE] = loops[0].attributes.pop(INTERLEAVE)
    indices = [block.args[0] for block in blocks]
    rewriter.inline_block(op.block, InsertPoint.at_end(blocks[-1]), indices)
    rewriter.replace(op, loops[0])
    return loops


class SplitParallel(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ParallelOp, rewriter: PatternRewriter) -> None:
        split_parallel(op, rewriter)


class SplitParallelPass(ModulePass):
    """Every `loop.parallel` of the module one dimension a loop (module
    docstring)."""

    name = "split-parallel"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(SplitParallel(), apply_recursively=False)
        walker.rewrite_module(op)
