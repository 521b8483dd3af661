"""What every hand-written kernel starts from: the signature and the nest.

A kernel of op `op` takes one buffer per operand then one per result
(`buffer_type`); its body is built with the fusion lowering's `Nest` (ops
land in the outermost loop their operands allow) and `IndexArith` (folded,
shared index arithmetic), so hand-written kernels hoist as fusions do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    FunctionType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xlir.dialects.loop.calls import CallOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import Bound, ForOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.lowering.fusion_to_loop import buffer_type
from xlir.lowering.index_maps import IndexArith, Indices
from xlir.lowering.nest import Nest
from xlir.lowering.scalar import constant, emit_block


class KernelBuilder:
    """The kernel of `op` named `name`, with its argument buffers split into
    `inputs` and `outputs`."""

    def __init__(self, op: Operation, name: str):
        self.op = op
        types = [buffer_type(v.type) for v in (*op.operands, *op.results)]
        self.kernel = KernelOp(name, types)
        args: list[SSAValue] = list(self.kernel.body.block.args)
        self.inputs: list[SSAValue] = args[: len(op.operands)]
        self.outputs: list[SSAValue] = args[len(op.operands) :]
        self.nest = Nest(self.kernel.body.block)
        self.ix = IndexArith(self.nest.place)
        self.nest.on_close(
            lambda depth: self.ix.forget(lambda v: self.nest.depth(v) >= depth)
        )

    def load(self, buffer: SSAValue, idx: Sequence[SSAValue]) -> SSAValue:
        return self.nest.place(LoadOp(buffer, idx))

    def load_in_place(self, buffer: SSAValue, idx: Sequence[SSAValue]) -> SSAValue:
        """A load in the innermost open loop, never hoisted out of it: for a
        location that loop writes (at indices that do not depend on it)."""
        load = LoadOp(buffer, idx)
        self.nest.builder(self.nest.innermost).insert(load)
        self.nest.record(load.results, self.nest.innermost)
        return load.results[0]

    def store(self, value: SSAValue, buffer: SSAValue, idx: Sequence[SSAValue]):
        """Store in the innermost open loop (a store has no result to hoist)."""
        builder = self.nest.builder(self.nest.innermost)
        builder.insert(StoreOp(value, buffer, idx))

    def call(
        self, callee: str, args: Sequence[SSAValue], work: int | None = None
    ) -> None:
        """`loop.call` of a runtime routine in the innermost open loop
        (a call reads and writes its buffers: it is never hoisted), which
        runs `work` ops where given (dialects/loop/calls.py)."""
        self.nest.builder(self.nest.innermost).insert(CallOp(callee, args, work))

    def place(self, op: Operation) -> SSAValue:
        return self.nest.place(op)

    def const(self, value: float | int, type_) -> SSAValue:
        """A scalar constant, at the kernel's top."""
        return self.nest.emit([], lambda b: [constant(b, value, type_)])[0]

    def inline(self, block, args: Sequence[SSAValue]) -> list[SSAValue]:
        """A scalar region (reducer, comparator, combiner) applied to `args`."""
        return self.nest.emit(args, lambda b: emit_block(block, args, b))

    def emit(
        self,
        operands: Sequence[SSAValue],
        make: Callable[[Builder], Sequence[SSAValue]],
    ) -> list[SSAValue]:
        return self.nest.emit(operands, make)

    def for_loop(
        self,
        lower: int | SSAValue,
        upper: int | SSAValue,
        inits: Sequence[SSAValue],
        body: Callable[[SSAValue, list[SSAValue]], Sequence[SSAValue]],
    ) -> list[SSAValue]:
        """One `loop.for i = lower to upper` (bounds: integers or `index`
        values of enclosing scopes, for triangles and early exits) carrying
        `inits`; `body(i, carried)` returns the next carried values. Returns
        the last ones."""
        loop = ForOp(lower, upper, 1, list(inits))
        self.nest.open(loop)
        results = list(body(loop.induction_var, list(loop.carried)))
        old = loop.yield_op()
        Builder(InsertPoint.before(old)).insert(YieldOp(*results))
        old.detach()
        old.erase()
        self.nest.close()
        return list(loop.results)

    def parallel(self, shape: Sequence[Bound], body: Callable[[Indices], None]) -> None:
        """`body(indices)` inside a `loop.parallel` over `shape` (sizes, or
        `index` values of enclosing scopes)."""
        body(self.nest.open_parallel(shape))
        self.nest.close()

    def copy(self, source: SSAValue, target: SSAValue, shape: Sequence[int]) -> None:
        """`target[i] = source[i]` over the whole shape."""
        self.parallel(shape, lambda i: self.store(self.load(source, i), target, i))

    def scratch(self, types: Sequence[Attribute]) -> list[SSAValue]:
        """More kernel arguments, after the results: buffers of `types` the
        host schedule allocates around the launch (and frees after it)."""
        block = self.kernel.body.block
        buffers: list[SSAValue] = [block.insert_arg(t, len(block.args)) for t in types]
        self.kernel.function_type = FunctionType.from_lists(
            [arg.type for arg in block.args], []
        )
        return buffers

    def finish(self) -> KernelOp:
        return self.kernel
