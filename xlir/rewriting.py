"""xDSL's pattern rewrite walker, filling its worklist without recursion.

`PatternRewriteWalker` fills its worklist from `Region.walk`, a recursive
generator: each op comes up through one generator per level of nesting, so
a program of `d` nested `while`s costs about `d` steps per op, every time
the walker starts over. This walker fills the worklist with the same ops in
the same order from an explicit stack.

xDSL's walker calls its `post_walk_func` after every walk, the last one
included, which changed nothing. The only one xlir passes is a dead-code
sweep (`memo_region_dce`), and a sweep leaves no dead op behind, so after a
walk that changed nothing it would find nothing: this walker sweeps after
the first walk and after each walk that changed the IR. Everything else is
xDSL's.

`set_type` retypes a value in place.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriteWalker as XdslPatternRewriteWalker

from xlir.walk import walk


def walk_region(
    region: Region, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """The ops nested in `region`, in `region.walk(reverse=reverse,
    region_first=region_first)`'s order."""
    if not reverse and not region_first:  # pre-order: `walk`'s, op by op
        for block in region.blocks:
            for op in list(block.ops):
                yield from walk(op)
        return
    stack: list[tuple[Operation, bool]] = []

    def push_ops(regions: tuple[Region, ...] | list[Region]) -> None:
        ordered = [
            op
            for r in (reversed(regions) if reverse else regions)
            for block in (reversed(r.blocks) if reverse else r.blocks)
            for op in (reversed(block.ops) if reverse else block.ops)
        ]
        stack.extend((op, False) for op in reversed(ordered))

    push_ops([region])
    while stack:
        op, regions_done = stack.pop()
        if regions_done:
            yield op
            continue
        if region_first:
            stack.append((op, True))
        else:
            yield op
        push_ops(op.regions)


class PatternRewriteWalker(XdslPatternRewriteWalker):
    """xDSL's walker whose worklist is filled in one step per op."""

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        if not isinstance(op, Region):
            super()._populate_worklist(op)
            return
        for sub_op in walk_region(
            op, reverse=not self.walk_reverse, region_first=not self.walk_regions_first
        ):
            self._worklist.push(sub_op)

    def rewrite_region(self, region: Region) -> bool:
        listener = self._get_rewriter_listener()
        first_walk = True
        changed_any = False
        while True:
            self._populate_worklist(region)
            changed = self._process_worklist(listener)
            if self.post_walk_func is not None and (changed or first_walk):
                changed |= self.post_walk_func(region, listener)
            changed_any |= changed
            if not (changed and self.apply_recursively):
                return changed_any
            first_walk = False


def set_type(value: SSAValue, type_: Attribute) -> None:
    """Give `value` the type `type_` in place, keeping the value and its
    uses: xDSL's `Rewriter.replace_value_with_new_type` makes a new value and
    moves every use to it, a cost where a pass retypes many values (a
    register allocator, a vectorizer)."""
    value._type = type_  # pyright: ignore[reportPrivateUsage]
