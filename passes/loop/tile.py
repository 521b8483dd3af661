"""`tile{sizes=a,b,...}`: split `loop.parallel` nests into tiles.

A kernel's one `loop.parallel` over the whole output gives a backend no
blocking: tiled, the outer loop walks tiles (thread blocks, CPU tasks, cache
blocks) and the inner one the elements of a tile (threads, vector lanes),
with a constant trip count wherever a tile is whole.

    loop.parallel (%i) = (0) to (10) step (1)          # sizes=4

becomes

    loop.parallel (%t) = (0) to (10) step (4) {
      %rest = arith.subi %c10, %t
      %n = arith.minsi %c4, %rest                      # the last tile has 2
      loop.parallel (%e) = (0) to (%n) step (1) {
        %i = arith.addi %t, %e                         # the old index
        ...

`sizes` gives the tile size (in iterations) of each dimension in order; 0, a
missing entry (sizes shorter than the rank) or a size at least the trip count
leaves that dimension untiled, in the inner loop with its old bounds. When
the size divides a static trip count, the inner bound is the constant tile
extent and no `minsi` is made. Only loops not nested in another
`loop.parallel` are tiled (so a tiled nest is not tiled again in the same
run); steps must be static, bounds may be dynamic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.analysis.loop_utils import (
    bound_value,
    bounds_of,
    index_constant,
    static_trip_count,
)
from xlir.dialects.loop.loops import Bound, ParallelOp

from xlir.diagnostics import XlirError
from xlir.walk import walk


def _tiled_dims(loop: ParallelOp, sizes: Sequence[int]) -> dict[int, int]:
    """Dimension -> tile size, for the dimensions worth tiling."""
    tiled: dict[int, int] = {}
    for dim, (lower, upper, step) in enumerate(bounds_of(loop)):
        size = sizes[dim] if dim < len(sizes) else 0
        count = static_trip_count(lower, upper, step)
        if size > 0 and isinstance(step, int) and (count is None or count > size):
            tiled[dim] = size
    return tiled


def tile(loop: ParallelOp, sizes: Sequence[int]) -> bool:
    """Tile one `loop.parallel`; whether it changed."""
    tiled = _tiled_dims(loop, sizes)
    if not tiled:
        return False
    bounds = bounds_of(loop)
    outer = ParallelOp(
        [bounds[d][0] for d in tiled],
        [bounds[d][1] for d in tiled],
        [bounds[d][2] * size for d, size in tiled.items()],  # type: ignore[operator]
    )
    old = loop.body.block
    for arg, d in zip(outer.induction_vars, tiled, strict=True):
        arg.name_hint = old.args[d].name_hint and f"{old.args[d].name_hint}_tile"
    tile_start = dict(zip(tiled, outer.induction_vars, strict=True))
    at_outer = Builder(InsertPoint.at_start(outer.body.block))
    inner_upper: list[Bound] = []
    for d, (lower, upper, step) in enumerate(bounds):
        if d not in tiled:
            inner_upper.append(upper)
            continue
        assert isinstance(step, int)
        extent = tiled[d] * step
        count = static_trip_count(lower, upper, step)
        if count is not None and count % tiled[d] == 0:
            inner_upper.append(extent)
            continue
        rest = at_outer.insert(
            arith.SubiOp(bound_value(at_outer, upper), tile_start[d])
        ).result
        inner_upper.append(
            at_outer.insert(
                arith.MinSIOp(index_constant(at_outer, extent), rest)
            ).result
        )
    block = Block(arg_types=[IndexType()] * len(bounds))
    inner = at_outer.insert(
        ParallelOp(
            [0 if d in tiled else lower for d, (lower, _, _) in enumerate(bounds)],
            inner_upper,
            [step for _, _, step in bounds],
            Region(block),
        )
    )
    inner.attributes |= loop.attributes
    at_inner = Builder(InsertPoint.at_start(block))
    for d, (new, old_arg) in enumerate(zip(block.args, old.args, strict=True)):
        new.name_hint = old_arg.name_hint
        index: SSAValue = new
        if d in tiled:
            new.name_hint = old_arg.name_hint and f"{old_arg.name_hint}_in"
            index = at_inner.insert(arith.AddiOp(tile_start[d], new)).result
            index.name_hint = old_arg.name_hint
        old_arg.replace_all_uses_with(index)
    for op in list(old.ops):
        op.detach()
        block.add_op(op)
    Builder(InsertPoint.before(loop)).insert(outer)
    loop.detach()
    loop.erase()
    return True


def _outermost_parallels(module: ModuleOp) -> list[ParallelOp]:
    return [
        op
        for op in walk(module)
        if isinstance(op, ParallelOp)
        and not any(isinstance(parent, ParallelOp) for parent in _ancestors(op))
    ]


def _ancestors(op: ParallelOp):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


@dataclass(frozen=True)
class TilePass(ModulePass):
    """Tile outermost `loop.parallel`s by `sizes` (module docstring)."""

    name = "tile"

    sizes: tuple[int, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if any(size < 0 for size in self.sizes):
            raise XlirError(
                "error: tile: sizes must be non-negative (0 leaves a dimension "
                f"untiled), got {','.join(map(str, self.sizes))}"
            )
        for loop in _outermost_parallels(op):
            tile(loop, self.sizes)
