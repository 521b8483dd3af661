"""Where a kernel's scalar code goes: the open scopes of a loop nest.

A kernel body is a stack of scopes: the kernel's block, the `loop.parallel`
over the output, and the `loop.for`s of a reduction or contraction. Each op
is placed in the outermost scope where its operands are all defined, in
front of the loop that scope has open (or at its end when none is open).
So an op that does not depend on a loop's induction variable or carried
values is computed once outside that loop: the row max that softmax's second
fusion reads at `[%i]` is loaded before the `loop.for` over the row, scalar
constants sit at the kernel's top.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xlir.dialects.loop.loops import Bound, ForOp, ParallelOp, YieldOp


@dataclass
class _Scope:
    block: Block
    child: Operation | None = None
    """The loop this scope has open: ops placed here go in front of it."""


class Nest:
    """The scopes of one kernel body; see the module docstring."""

    def __init__(self, block: Block):
        self._scopes = [_Scope(block)]
        self._depth: dict[SSAValue, int] = {}
        self._on_close: list[Callable[[int], None]] = []

    @property
    def innermost(self) -> int:
        return len(self._scopes) - 1

    def depth(self, value: SSAValue) -> int:
        """The scope a value is defined in (kernel arguments: 0)."""
        return self._depth.get(value, 0)

    def depth_of_all(self, values: Sequence[SSAValue]) -> int:
        return max((self.depth(v) for v in values), default=0)

    def builder(self, depth: int) -> Builder:
        return Builder(InsertPoint.before(self._anchor(depth)))

    def _anchor(self, depth: int) -> Operation:
        """What an op placed in the scope at `depth` goes in front of."""
        scope = self._scopes[depth]
        anchor = scope.child or scope.block.last_op
        assert anchor is not None
        return anchor

    def record(self, values: Sequence[SSAValue], depth: int) -> None:
        for value in values:
            self._depth[value] = depth

    def place(self, op: Operation) -> SSAValue:
        """Insert `op` in the outermost scope its operands allow; its first
        result."""
        depth = self.depth_of_all(op.operands)
        self._scopes[depth].block.insert_op_before(op, self._anchor(depth))
        self.record(op.results, depth)
        return op.results[0]

    def emit(
        self,
        operands: Sequence[SSAValue],
        make: Callable[[Builder], Sequence[SSAValue]],
    ) -> list[SSAValue]:
        """Run `make` with a builder in the outermost scope `operands` allow;
        the values it returns are recorded there."""
        depth = self.depth_of_all(operands)
        results = list(make(self.builder(depth)))
        self.record(results, depth)
        return results

    def on_close(self, callback: Callable[[int], None]) -> None:
        """Call `callback(depth)` when the scope at `depth` closes, so caches
        drop what was defined there."""
        self._on_close.append(callback)

    def open(self, loop: Operation) -> None:
        """Insert `loop` in the innermost scope and enter its body."""
        self.builder(self.innermost).insert(loop)
        self.record(loop.results, self.innermost)
        self._scopes[-1].child = loop
        body = loop.regions[0].block
        assert body is not None
        self._scopes.append(_Scope(body))
        self.record(body.args, self.innermost)

    def close(self) -> None:
        """Leave the innermost loop body."""
        depth = self.innermost
        self._scopes.pop()
        self._scopes[-1].child = None
        for callback in self._on_close:
            callback(depth)
        self._depth = {v: d for v, d in self._depth.items() if d < depth}

    def open_parallel(self, sizes: Sequence[Bound]) -> list[SSAValue]:
        """Open a `loop.parallel` over `sizes` (from 0, step 1); its
        induction variables."""
        loop = ParallelOp([0] * len(sizes), list(sizes), [1] * len(sizes))
        self.open(loop)
        return list(loop.induction_vars)

    def for_nest(
        self,
        bounds: Sequence[int],
        inits: Sequence[SSAValue],
        body: Callable[[list[SSAValue], list[SSAValue]], Sequence[SSAValue]],
    ) -> list[SSAValue]:
        """Nested `loop.for`s over `bounds`, carrying values initialized to
        `inits`; `body(induction variables, carried values)` returns the next
        carried values. Returns the final ones (`body` applied once, with no
        loop, when `bounds` is empty)."""
        loops: list[ForOp] = []
        carried: list[SSAValue] = list(inits)
        for bound in bounds:
            loop = ForOp(0, bound, 1, carried)
            self.open(loop)
            loops.append(loop)
            carried = list(loop.carried)
        results: list[SSAValue] = list(
            body([loop.induction_var for loop in loops], carried)
        )
        for loop in reversed(loops):
            old = loop.yield_op()
            Builder(InsertPoint.before(old)).insert(YieldOp(*results))
            old.detach()
            old.erase()
            self.close()
            results = list(loop.results)
        return results
