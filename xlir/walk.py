"""Walking nested ops without a step per level of nesting.

xDSL's `Operation.walk` is a recursive generator: each op comes up through
one generator per region level above it, so a walk of a program nested `d`
deep costs about `d` steps per op (a `while` 1,000 levels deep: millions of
steps a walk). `walk` keeps its own stack and visits the same ops in the same
order (pre-order: an op, then its regions' ops in order); `region_depth`
measures the nesting the same way.

`walk` follows the IR's own links (a region's last block, a block's last op,
each one's previous) rather than xDSL's iterators: those take two Python
calls per op (the iterator's `__next__` and the `prev_op` property), which
cost more than the rest of the walk that every pass makes.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, Operation


def walk(root: Operation) -> Iterator[Operation]:
    """`root` and every op nested in it, in xDSL's `walk()` order."""
    stack = [root]
    pop, push = stack.pop, stack.append
    while stack:
        op = pop()
        yield op
        for region in reversed(op.regions):
            block = region._last_block  # pyright: ignore[reportPrivateUsage]
            while block is not None:
                inner = block._last_op  # pyright: ignore[reportPrivateUsage]
                while inner is not None:
                    push(inner)
                    inner = inner._prev_op  # pyright: ignore[reportPrivateUsage]
                block = block._prev_block  # pyright: ignore[reportPrivateUsage]


def block_ops(block: Block) -> list[Operation]:
    """The ops of `block` in order, as they are now (`walk`'s links: a
    reader's quick `list(block.ops)`)."""
    ops: list[Operation] = []
    op = block._first_op  # pyright: ignore[reportPrivateUsage]
    while op is not None:
        ops.append(op)
        op = op._next_op  # pyright: ignore[reportPrivateUsage]
    return ops


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
