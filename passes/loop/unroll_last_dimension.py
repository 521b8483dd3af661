"""`unroll-last-dimension{max-trips=4 max-ops=192 min-outer=8}`: write out a
`loop.parallel`'s short last dimension.

An image in NHWC has its 3 channels innermost, so an elementwise nest over
it ends in a dimension of 3 iterations. LLVM vectorizes innermost loops
only, and leaves one of 3 iterations scalar, several times slower than the
same work over the image as one dimension. With the
last dimension written out (its body once per iteration, at constant
indices) the loop over pixels is innermost, and LLVM vectorizes it, each
channel's loads and stores one interleaved group.

A nest is unrolled when its last dimension has static bounds and at most
`max-trips` iterations, the dimension before it static and at least
`min-outer` (fewer are not worth a vector loop), and its body is plain
scalar code (no regions, no vectors: `vectorize`'s and the register tiles'
nests keep their shape) of at most `max-ops` ops written out: LLVM's
vectorizer takes time with the size of the body, and a long body gains
less. In the cpu pipeline it runs after `expand-math` and `int-in-float`,
so it counts the ops LLVM will see. Same iterations in the same order: the
written-out copies run one pixel's channels in turn, as the loop did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, VectorType
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.analysis.loop_utils import (
    bounds_of,
    clone_body,
    index_constant,
    kernel_ops_of,
    static_trip_count,
)
from xlir.dialects.loop.loops import ParallelOp

from xlir.diagnostics import XlirError


def unroll_last_dimension(
    nest: ParallelOp, max_trips: int, max_ops: int, min_outer: int
) -> bool:
    """Unroll one nest's last dimension (module docstring); whether it did."""
    bounds = bounds_of(nest)
    if len(bounds) < 2:
        return False
    outer, last = (static_trip_count(*b) for b in bounds[-2:])
    if outer is None or last is None or not (2 <= last <= max_trips):
        return False
    block = nest.body.block
    ops = list(block.ops)
    if outer < min_outer or (len(ops) - 1) * last > max_ops:
        return False
    for op in ops:
        if op.regions or any(isinstance(r.type, VectorType) for r in op.results):
            return False
    lower, _, step = bounds[-1]
    assert isinstance(lower, int) and isinstance(step, int)
    kept = bounds[:-1]
    unrolled = ParallelOp(
        [b[0] for b in kept], [b[1] for b in kept], [b[2] for b in kept]
    )
    unrolled.attributes.update(nest.attributes)
    body = unrolled.body.block
    for new, old in zip(body.args, block.args[:-1], strict=True):
        new.name_hint = old.name_hint
    builder = Builder(InsertPoint.at_start(body))
    mapping: dict[SSAValue, SSAValue] = dict(
        zip(block.args[:-1], body.args, strict=True)
    )
    for k in range(last):
        mapping[block.args[-1]] = index_constant(builder, lower + k * step)
        clone_body(block, builder, mapping)
    Rewriter.replace_op(nest, unrolled)
    return True


@dataclass(frozen=True)
class UnrollLastDimensionPass(ModulePass):
    """Write out short last dimensions of `loop.parallel` nests (module
    docstring)."""

    name = "unroll-last-dimension"

    max_trips: int = 4
    max_ops: int = 192
    min_outer: int = 8

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_trips < 2 or self.max_ops < 1 or self.min_outer < 1:
            raise XlirError(
                "error: unroll-last-dimension: max-trips must be at least 2 and "
                f"max-ops and min-outer at least 1, got max-trips={self.max_trips} "
                f"max-ops={self.max_ops} min-outer={self.min_outer}"
            )
        for nest in kernel_ops_of(op, (ParallelOp,)):
            unroll_last_dimension(
                cast(ParallelOp, nest), self.max_trips, self.max_ops, self.min_outer
            )
