"""The buffer plan of one function: which values share a buffer, and where
each buffer lives (XLA's BufferAssignment, over the fused program).

Every value that `liveness` lays out starts in a buffer of its own; values
are then joined into shared buffers, in program order:

* a **view** (see `sharing`) joins its operand's buffer;
* a result computed **in place** joins the buffer of an operand that dies at
  its op; a chain of such results that ends in a function output lives in
  that output's buffer (softmax's `exp(x - max)` is computed into the output,
  then divided by the row sums in place);
* the loop-carried values of a `stablehlo.while` (its results and the
  arguments of both regions) are one buffer per position — the loop state.
  The initial value shares it when it dies at the loop (else it is copied in);
  a position the body passes through unchanged stays in the initial value's
  buffer (it is never written; a constant's is copied in); a value the body
  yields once joins the state when the state's old contents (the carried
  argument and what is computed in place over it) are dead by the time it is
  first written. A value a `stablehlo.case` branch yields joins the
  case's result in the same way. The body's yields are copies made as if at
  once (the host schedule orders them), so a value may be yielded into
  several positions or computed in another position's state, and a loop's
  state and a case's results keep their bytes over the whole op, where the
  yields write them whether or not anything reads them later.

Sharing never mixes what must stay apart: parameters are read only (unless
`tf.aliasing_output = N` donates parameter k to output N, and then only a
chain ending in output N may write it), each output has its own buffer, a
parameter's or output's buffer holds only values of its element type (at the
loop level it is one typed memref), and constants are read-only data outside
the arena. What is left is temp: one
arena, packed by `heap`, where buffers whose lifetimes do not overlap reuse
each other's bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xlir.dialects.hlo_buffers import (
    ARG,
    CONST,
    OUT,
    TEMP,
    BufferAttr,
    PlanAttr,
    aliased_outputs,
    byte_size,
)
from xlir.dialects.stablehlo.control_flow import CaseOp, WhileOp
from xlir.dialects.stablehlo.data_movement import ConstantOp
from xlir.passes.hlo.buffers.heap import Block as HeapBlock
from xlir.passes.hlo.buffers.heap import pack
from xlir.passes.hlo.buffers.liveness import Timeline, build_timeline
from xlir.passes.hlo.buffers.sharing import in_place_operands, view_source


@dataclass(eq=False)
class Buffer:
    """Values sharing one buffer, and what that buffer must respect."""

    values: list[SSAValue]
    size: int
    start: int
    end: int
    arguments: set[int] = field(default_factory=set)
    outputs: set[int] = field(default_factory=set)
    constant: bool = False
    location: BufferAttr | None = None

    @property
    def kind(self) -> str:
        assert self.location is not None
        return self.location.kind


@dataclass
class FunctionPlan:
    """The plan of one function and XLA's figures for it, in bytes."""

    func: FuncOp
    timeline: Timeline
    buffers: list[Buffer]
    buffer_of: dict[SSAValue, Buffer]
    alignment: int
    arena: int = 0
    arguments: int = 0
    outputs: int = 0
    alias: int = 0
    constants: int = 0
    naive: int = 0
    """Temp bytes with one buffer per op: every laid-out result that is not a
    constant or a returned value, none shared."""

    def attribute(self) -> PlanAttr:
        return PlanAttr(
            arena=self.arena,
            alignment=self.alignment,
            arguments=self.arguments,
            outputs=self.outputs,
            alias=self.alias,
            constants=self.constants,
        )


class _Planner:
    def __init__(self, func: FuncOp, alignment: int):
        self.timeline = build_timeline(func)
        self.donated = aliased_outputs(func)
        self.parent: dict[SSAValue, SSAValue] = {}
        self.info: dict[SSAValue, Buffer] = {}
        timeline = self.timeline
        for value in timeline.values:
            self.parent[value] = value
            self.info[value] = Buffer(
                [value],
                byte_size(value.type),
                timeline.defined[value],
                timeline.last_use[value],
                constant=isinstance(value.owner, ConstantOp),
            )
        block = func.body.block
        for index, arg in enumerate(block.args):
            self.info[arg].arguments.add(index)
        terminator = block.last_op
        assert terminator is not None
        for index, value in enumerate(terminator.operands):
            if value in self.info and not any(
                value is v for v in terminator.operands[:index]
            ):
                self.info[value].outputs.add(index)

    # --- union-find with the buffer's constraints ------------------------------

    def find(self, value: SSAValue) -> SSAValue:
        while self.parent[value] is not value:
            self.parent[value] = self.parent[self.parent[value]]
            value = self.parent[value]
        return value

    def buffer(self, value: SSAValue) -> Buffer:
        return self.info[self.find(value)]

    def _compatible(self, a: Buffer, b: Buffer, writes_into_a: bool) -> bool:
        if a is b or a.size != b.size:
            return False
        arguments, outputs = a.arguments | b.arguments, a.outputs | b.outputs
        if len(arguments) > 1 or len(outputs) > 1:
            return False
        if (a.constant or b.constant) and (arguments or outputs or writes_into_a):
            return False
        if writes_into_a and a.arguments and not outputs:
            return False
        if (arguments or outputs) and _element_types(a) != _element_types(b):
            return False
        if arguments and outputs:
            (argument,), (output,) = arguments, outputs
            return self.donated.get(argument) == output
        return True

    def join(self, into: SSAValue, other: SSAValue, writes: bool) -> bool:
        """Share `into`'s buffer with `other`'s; `writes` when `other` is
        computed over `into`'s old contents. False when that is not allowed."""
        root, other_root = self.find(into), self.find(other)
        a, b = self.info[root], self.info[other_root]
        if not self._compatible(a, b, writes):
            return False
        self.parent[other_root] = root
        del self.info[other_root]
        a.values += b.values
        a.start, a.end = min(a.start, b.start), max(a.end, b.end)
        a.arguments |= b.arguments
        a.outputs |= b.outputs
        a.constant |= b.constant
        return True

    # --- the walk ---------------------------------------------------------------

    def run(self) -> None:
        self._visit(self.timeline.func.body.block)

    def _visit(self, block: Block) -> None:
        for op in block.ops:
            if isinstance(op, WhileOp):
                self._while(op)
            elif isinstance(op, CaseOp):
                self._case(op)
            elif op.results and not isinstance(op, ConstantOp):
                self._share(op)

    def _share(self, op: Operation) -> None:
        claimed: set[SSAValue] = set()
        for index, result in enumerate(op.results):
            source = view_source(op, index)
            if source is not None and self.join(source, result, writes=False):
                continue
            candidates = in_place_operands(op, index)
            for i in candidates:
                operand = op.operands[i]
                root = self.find(operand)
                if root in claimed or not self._dies_at(root, op, candidates):
                    continue
                if self.join(operand, result, writes=True):
                    claimed.add(root)
                    break

    def _dies_at(self, root: SSAValue, op: Operation, allowed: list[int]) -> bool:
        """The buffer's last read is `op`, and `op` reads it only through the
        operands it may overwrite."""
        if self.info[root].end > self.timeline.start[op]:
            return False
        return all(
            i in allowed
            for i, operand in enumerate(op.operands)
            if self.find(operand) is root
        )

    def _while(self, op: WhileOp) -> None:
        cond, body = op.cond.block, op.body.block
        yielded = body.last_op
        assert yielded is not None
        for k, result in enumerate(op.results):
            self.join(result, cond.args[k], writes=False)
            self.join(result, body.args[k], writes=False)
        pairs = list(enumerate(zip(op.results, op.operands, strict=True)))
        # Positions the body never writes first: they share the initial value's
        # buffer (not a constant's: the host fills the state from it), which
        # no other position may then overwrite.
        for k, (result, init) in pairs:
            if yielded.operands[k] is body.args[k] and not self.buffer(init).constant:
                self.join(init, result, writes=False)
        everything = list(range(len(op.operands)))
        for k, (result, init) in pairs:
            if yielded.operands[k] is not body.args[k] and self._dies_at(
                self.find(init), op, everything
            ):
                self.join(init, result, writes=True)
        self._visit(cond)
        self._visit(body)
        for k, value in enumerate(yielded.operands):
            self._adopt(op, body, k, value)

    def _case(self, op: CaseOp) -> None:
        for branch in op.branches:
            block = branch.block
            self._visit(block)
            yielded = block.last_op
            assert yielded is not None
            for k, value in enumerate(yielded.operands):
                self._adopt(op, block, k, value)

    def _adopt(self, op: Operation, block: Block, k: int, value: SSAValue) -> None:
        """Let `value`, yielded by `block` at position `k`, be computed directly
        in result `k`'s buffer, when its whole buffer lies inside the block
        after the state's old contents are dead."""
        if (
            not isinstance(value, OpResult)
            or value not in self.parent
            or value.op.parent is not block
        ):
            return
        if sum(v is value for v in block.last_op.operands) != 1:  # pyright: ignore[reportOptionalMemberAccess]
            return
        own = self.buffer(value)
        if own.arguments or own.outputs or own.constant:
            return
        free_after = self._last_read_in(block, op.results[k], self.timeline.start[op])
        if own.start < free_after or (
            own.start == free_after and not self._overwrites(own, op.results[k])
        ):
            return
        self.join(op.results[k], value, writes=True)

    def _last_read_in(self, block: Block, state: SSAValue, since: int) -> int:
        """The last step of `block` that reads a value of `state`'s buffer, or
        `since`. In the block, the buffer holds a loop's carried argument and
        what is computed in place over it (an in-place chain carries the old
        contents on), each live until its last read, a yield included."""
        timeline = self.timeline
        first_op, yielded = block.first_op, block.last_op
        assert first_op is not None and yielded is not None
        first, last = timeline.start[first_op], timeline.start[yielded]
        return max(
            [since]
            + [
                timeline.last_use[v]
                for v in self.buffer(state).values
                if v.owner is block or first <= timeline.defined[v] <= last
            ]
        )

    def _overwrites(self, own: Buffer, state: SSAValue) -> bool:
        """The first op writing `own` may write it over `state`'s buffer, which
        it reads last (in place, like `_share`)."""
        first = min(own.values, key=lambda v: self.timeline.defined[v])
        if not isinstance(first, OpResult):
            return False
        op = first.op
        allowed = in_place_operands(op, first.index)
        root = self.find(state)
        return any(self.find(v) is root for v in op.operands) and all(
            i in allowed for i, v in enumerate(op.operands) if self.find(v) is root
        )

    # --- placing ----------------------------------------------------------------

    def _reserve_over(self, op: WhileOp | CaseOp) -> None:
        """Keep the result buffers of `op` (a loop's state, a branch's
        results) to themselves over the whole op: the yields at the end of
        its regions write them even where no value in them is still read
        (a state nobody reads after the loop)."""
        start, end = self.timeline.start[op], self.timeline.end[op]
        for result in op.results:
            if result in self.parent:
                buffer = self.buffer(result)
                buffer.start, buffer.end = (
                    min(buffer.start, start),
                    max(buffer.end, end),
                )

    def finish(self, alignment: int) -> FunctionPlan:
        timeline = self.timeline
        func = timeline.func
        for op in timeline.ops:
            if isinstance(op, WhileOp | CaseOp):
                self._reserve_over(op)
        buffers = list(self.info.values())
        temps: list[HeapBlock] = []
        for index, buffer in enumerate(buffers):
            if buffer.outputs:
                buffer.end = timeline.finish
            (argument,) = buffer.arguments or {None}
            (output,) = buffer.outputs or {None}
            if buffer.constant:
                buffer.location = BufferAttr(CONST)
            elif output is not None:
                buffer.location = BufferAttr(OUT, output=output, argument=argument)
            elif argument is not None:
                buffer.location = BufferAttr(ARG, argument=argument)
            else:
                temps.append(HeapBlock(index, buffer.size, buffer.start, buffer.end))
        offsets, arena = pack(temps, alignment)
        for block in temps:
            buffers[block.key].location = BufferAttr(  # pyright: ignore[reportCallIssue,reportArgumentType]
                TEMP, offset=offsets[block.key], size=block.size
            )
        buffer_of = {v: self.buffer(v) for v in timeline.values}
        returned = set(func.body.block.last_op.operands)  # pyright: ignore[reportOptionalMemberAccess]
        plan = FunctionPlan(func, timeline, buffers, buffer_of, alignment, arena)
        plan.arguments = sum(byte_size(t) for t in func.function_type.inputs)
        plan.outputs = sum(byte_size(t) for t in func.function_type.outputs)
        plan.alias = sum(b.size for b in buffers if b.kind == OUT and b.arguments)
        for op in timeline.ops:
            for result in op.results:
                if isinstance(op, ConstantOp):
                    plan.constants += byte_size(result.type)
                elif result not in returned:
                    plan.naive += byte_size(result.type)
        return plan


def _element_types(buffer: Buffer) -> set[Attribute]:
    """The element types of the values in a buffer. A parameter's or an
    output's buffer has its type at the loop level, so only temps (typed
    views of the arena) may hold values of several element types."""
    return {
        v.type.get_element_type()
        for v in buffer.values
        if isinstance(v.type, TensorType)
    }


def plan_function(func: FuncOp, alignment: int = 64) -> FunctionPlan:
    """Assign every laid-out value of `func` a buffer."""
    planner = _Planner(func, alignment)
    planner.run()
    return planner.finish(alignment)
