"""Walking nested ops without a step per level of nesting.

xDSL's `Operation.walk` is a recursive generator: each op comes up through
one generator per region level above it, so a walk of a program nested `d`
deep costs about `d` steps per op (a `while` 1,000 levels deep: millions of
steps a walk). `walk` keeps its own stack and visits the same ops in the same
order (pre-order: an op, then its regions' ops in order); `region_depth`
measures the nesting the same way.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation


def walk(root: Operation) -> Iterator[Operation]:
    """`root` and every op nested in it, in xDSL's `walk()` order."""
    stack = [root]
    while stack:
        op = stack.pop()
        yield op
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                stack.extend(reversed(block.ops))


def region_depth(root: Operation) -> int:
    """How many regions deep the ops in `root` nest (0: no regions)."""
    deepest = 0
    stack = [(root, 0)]
    while stack:
        op, depth = stack.pop()
        deepest = max(deepest, depth)
        for region in op.regions:
            for block in region.blocks:
                stack.extend((inner, depth + 1) for inner in block.ops)
    return deepest
