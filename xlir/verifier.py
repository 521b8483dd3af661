"""SSA dominance and region isolation, checked by MLIR's rules.

xDSL verifies each op on its own and checks IsolatedFromAbove, but not that a
value is defined before it is used: `%0 = stablehlo.add %0, %a` verifies
there, and then passes loop forever on the cycle. The rules, as MLIR's:

* In a block, a value is used after the op that defines it; a block's
  arguments are visible in all of it.
* An op nested in a region sees what its enclosing ops see, as far as the
  op that owns the region, but not that op's own results.
* In a region of several blocks, a block also sees the values of the blocks
  that dominate it (a dominator tree of the branches); a block no branch
  reaches is dominated by every other block, as in MLIR.
* The region of `builtin.module` is a graph region: its ops may use each
  other in any order.
* An op with the IsolatedFromAbove trait (`func.func`, `builtin.module`,
  `hlo.fusion`, `loop.kernel`) sees nothing from outside: its regions start
  from an empty scope. StableHLO marks none of its ops so; a reducer or a
  comparator may use a value defined before its op.

`check_uses` walks the IR once with an explicit stack (no recursion, so deep
nesting is fine) and a set of the values in scope: linear in the size of the
IR, cheap enough to run after every pass. Only when a use fails does it
look further, to say why.

Since it checks isolation, xDSL's own check of the trait is redundant after
it, and costly: that check walks every isolated body again and asks, for each
operand, whether its definition is inside by climbing its ancestors, so it
grows as the size times the depth of the nesting. While
`isolation_checked()` is in force (the op verification that follows
`check_uses`), the trait's check is skipped; everywhere else it runs as
xDSL wrote it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import (
    Block,
    BlockArgument,
    ErasedSSAValue,
    Operation,
    OpResult,
    Region,
    SSAValue,
)
from xdsl.traits import IsolatedFromAbove

from xlir.dialects.syntax import op_name


class InvalidUse(Exception):
    """An operand its op may not use. `notes` point at what explains it:
    (op whose location to show, text)."""

    def __init__(self, op: Operation, message: str, notes: list[tuple[Operation, str]]):
        super().__init__(message)
        self.op = op
        self.message = message
        self.notes = notes


_OP, _BLOCK, _UNREACHABLE, _LEAVE, _RESTORE, _DEFINE = range(6)
"""The kinds of work on `check_uses`'s stack."""

_isolated_types: dict[type[Operation], bool] = {}


def is_isolated(op: Operation) -> bool:
    """Whether the op's regions are isolated from above (once per op type)."""
    kind = type(op)
    isolated = _isolated_types.get(kind)
    if isolated is None:
        isolated = _isolated_types[kind] = op.has_trait(IsolatedFromAbove)
    return isolated


_isolation_checked: ContextVar[bool] = ContextVar("isolation_checked", default=False)

_verify_isolation_trait = IsolatedFromAbove.verify


def _verify_isolation_unless_checked(self: IsolatedFromAbove, op: Operation) -> None:
    if not _isolation_checked.get():
        _verify_isolation_trait(self, op)


IsolatedFromAbove.verify = _verify_isolation_unless_checked


@contextmanager
def isolation_checked() -> Iterator[None]:
    """Skip xDSL's IsolatedFromAbove check in this context: for verifying
    ops whose IR `check_uses` has just passed."""
    token = _isolation_checked.set(True)
    try:
        yield
    finally:
        _isolation_checked.reset(token)


def check_uses(root: Operation) -> None:
    """Raise `InvalidUse` for the first operand (in walk order) whose value
    does not dominate its use or comes from outside an isolated region."""
    visible: set[SSAValue] = set()
    stack: list[tuple[int, Any]] = [(_OP, root)]
    while stack:
        kind, item = stack.pop()
        if kind == _OP:
            op: Operation = item
            for operand in op.operands:
                if operand not in visible:
                    raise _explain(root, op, operand)
            if not op.regions:
                visible.update(op.results)
                continue
            stack.append((_DEFINE, op))
            if is_isolated(op):
                stack.append((_RESTORE, visible))
                visible = set()
            graph = isinstance(op, ModuleOp)
            for region in reversed(op.regions):
                _push_region(stack, region, graph)
        elif kind == _BLOCK:
            block, children, graph = item
            stack.append((_LEAVE, (block,)))
            for child in reversed(children.get(block, ())):
                stack.append((_BLOCK, (child, children, False)))
            visible.update(block.args)
            if graph:
                for inner in block.ops:
                    visible.update(inner.results)
            _push_ops(stack, block)
        elif kind == _UNREACHABLE:
            block, region = item
            stack.append((_LEAVE, region.blocks))
            visible.update(_defined_in(b for b in region.blocks if b is not block))
            visible.update(block.args)
            _push_ops(stack, block)
        elif kind == _LEAVE:
            visible.difference_update(_defined_in(item))
        elif kind == _RESTORE:
            visible = item
        else:
            visible.update(item.results)


def _push_ops(stack: list[tuple[int, Any]], block: Block) -> None:
    """Schedule a block's ops, first op on top."""
    op = block.last_op
    while op is not None:
        stack.append((_OP, op))
        op = op.prev_op


def _defined_in(blocks: Iterable[Block]) -> Iterator[SSAValue]:
    """The values defined at the top level of the blocks."""
    for block in blocks:
        yield from block.args
        for op in block.ops:
            yield from op.results


_NO_CHILDREN: dict[Block, list[Block]] = {}


def _push_region(stack: list[tuple[int, Any]], region: Region, graph: bool) -> None:
    """Schedule a region's blocks: those a branch reaches in dominator-tree
    order, then the others."""
    entry = region.first_block
    if entry is None:
        return
    if entry.next_block is None:
        stack.append((_BLOCK, (entry, _NO_CHILDREN, graph)))
        return
    children = dominator_tree(region)
    for block in region.blocks:
        if block is not entry and block not in children:
            stack.append((_UNREACHABLE, (block, region)))
    stack.append((_BLOCK, (entry, children, graph)))


def _successors(block: Block, region: Region) -> list[Block]:
    last = block.last_op
    if last is None:
        return []
    return [s for s in last.successors if s.parent is region]


def dominator_tree(region: Region) -> dict[Block, list[Block]]:
    """Each block's children in the dominator tree of the region's branches,
    with a key for every block reachable from the entry (Cooper, Harvey and
    Kennedy's iteration over reverse postorder)."""
    entry = region.blocks.first
    assert entry is not None
    postorder: list[Block] = []
    seen = {entry}
    walk = [(entry, iter(_successors(entry, region)))]
    predecessors: dict[Block, list[Block]] = {entry: []}
    while walk:
        block, successors = walk[-1]
        for successor in successors:
            predecessors.setdefault(successor, []).append(block)
            if successor not in seen:
                seen.add(successor)
                walk.append((successor, iter(_successors(successor, region))))
                break
        else:
            walk.pop()
            postorder.append(block)
    number = {block: index for index, block in enumerate(postorder)}
    idom: dict[Block, Block] = {entry: entry}

    def common(a: Block, b: Block) -> Block:
        while a is not b:
            while number[a] < number[b]:
                a = idom[a]
            while number[b] < number[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for block in reversed(postorder[:-1]):
            new: Block | None = None
            for predecessor in predecessors[block]:
                if predecessor in idom:
                    new = predecessor if new is None else common(predecessor, new)
            assert new is not None
            if idom.get(block) is not new:
                idom[block] = new
                changed = True
    children: dict[Block, list[Block]] = {block: [] for block in postorder}
    for block in reversed(postorder[:-1]):
        children[idom[block]].append(block)
    return children


def _explain(root: Operation, user: Operation, value: SSAValue) -> InvalidUse:
    """Why `user` may not use `value`: erased, not in the IR, from outside
    an isolated region, or not dominating the use."""
    prefix = f"'{op_name(user)}' op operand #{list(user.operands).index(value)}"
    if isinstance(value, ErasedSSAValue):
        return InvalidUse(user, f"{prefix} is a value that was erased", [])
    if isinstance(value, OpResult):
        site, block = value.op, value.op.parent
        what = f"the result of '{op_name(value.op)}'"
    elif isinstance(value, BlockArgument):
        block = value.block
        site = block.parent_op()
        what = "a block argument"
    else:  # a placeholder, such as one the parser left unresolved
        site = block = None
        what = "a value"
    if site is None or block is None or not root.is_ancestor(site):
        return InvalidUse(
            user,
            f"{prefix} is {what} that is not in the IR (erased, or never inserted)",
            [],
        )
    for ancestor in _ancestors(user):
        if is_isolated(ancestor):
            inside = ancestor.is_ancestor(site) and (
                site is not ancestor or isinstance(value, BlockArgument)
            )
            if not inside:
                return InvalidUse(
                    user,
                    f"{prefix} uses a value defined outside the region of "
                    f"'{op_name(ancestor)}', which is isolated from above",
                    [(ancestor, "required by the isolation of this op's regions")],
                )
            break
    return InvalidUse(
        user,
        f"{prefix} does not dominate this use",
        [(site, f"operand defined here ({what}, {_relation(user, block)})")],
    )


def _ancestors(op: Operation) -> Iterator[Operation]:
    """The ops around `op`, innermost first."""
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


def _relation(user: Operation, block: Block) -> str:
    """Where a definition in `block` stands, seen from the use."""
    if block is user.parent:
        return "in the same block"
    if block.parent is user.parent_region():
        return "in another block of the same region"
    owner = block.parent_op()
    if any(owner is ancestor for ancestor in _ancestors(user)):
        return "in an enclosing region"
    if owner is not None and user.is_ancestor(owner):
        return "in a region of this op"
    return "in a region that does not enclose this op"
