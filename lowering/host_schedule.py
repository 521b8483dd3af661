"""The host function: the program's schedule in the `device` dialect.

It keeps the program's signature with buffers for tensors (and the argument
and result attributes), takes the default stream, allocates the temp arena
(`hlo.plan`'s `arena` bytes) and each output that does not live in a donated
parameter, gives each temp a `loop.view` of the arena at its planned offset,
launches one kernel per fusion or heavy op in program order, synchronizes,
frees the arena and returns the output buffers (docs/loop-level.md, "The
contract"). Where a value lives comes from its `#hlo.buffer`: `arg N` is the
parameter, `out N` the output buffer, `const` a `loop.global`.

`stablehlo.while` becomes `scf.while` over the loop-carried buffers (the
while's result buffers): the condition's kernels run in its `before` region
and the predicate comes to the host with `device.read_scalar`; the body's
results are copied into the carried buffers where the plan put them
elsewhere. `stablehlo.case` becomes `scf.index_switch` on the index read
the same way, out-of-range indices taking the last branch. An
`optimization_barrier` has done its work once the HLO passes are over: its
results are copies of its operands (none where the plan shares the memory).
The copies of a
yield (and of a loop's initial values) are one parallel copy: each reads
its source before any of them overwrites it, through scratch where they
form a cycle (a body that swaps two carried values).

A collective (`all_reduce`, `all_gather`, ...) and `replica_id` /
`partition_id` are no kernel: their values come from the other devices of
the grid, or from which device this is. Each is its own step,
`device.collective`, on its operands' and results' planned buffers, the op
kept in its region for the runtime to run through its communicator.

A kernel may take scratch buffers after its operands' and results' (sort's
merge passes): each is a `device.alloc` of its type before the launch and a
`device.free` after it.

Buffers are named once: temps of one type at one offset share one
`loop.view`, so a while body's result planned in its carried buffer needs
no copy, and a kernel launched with one buffer twice (a result planned in
its operand's memory) takes it once, its body using the one argument for
both. A backend then sees one pointer where the memory is one: LLVM's
vectorizer knows a load and a store at the same index touch the same
element, instead of guarding the vector loop with an overlap check that
such a launch always fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IndexType,
    LocationAttr,
    MemRefType,
    StringAttr,
    TensorType,
    UnknownLoc,
    i8,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.dialects import device
from xlir.dialects.hlo_buffers import (
    ARG,
    BUFFERS,
    CONST,
    OUT,
    PLAN,
    TEMP,
    BufferAttr,
    PlanAttr,
)
from xlir.dialects.loop.globals import GetGlobalOp, GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import ReshapeOp, ViewOp
from xlir.dialects.stablehlo import data_movement as dm
from xlir.dialects.stablehlo.collectives import GRID_STEP_OPS
from xlir.dialects.stablehlo.control_flow import (
    AfterAllOp,
    CaseOp,
    OptimizationBarrierOp,
    ReturnOp,
    TokenType,
    WhileOp,
)
from xlir.lowering.fusion_to_loop import buffer_type, signless
from xlir.lowering.planned_memory import planned_memory
from xlir.passes.hlo.buffers.sharing import view_source

from xlir.walk import walk

LowerOp = Callable[[Operation, str], tuple[KernelOp, list[GlobalOp]]]
"""Builds the kernel of a fusion or heavy op under a name, with its globals."""


def kernel_name(op: Operation, taken: set[str]) -> str:
    """`fusion.2` -> `fusion_2`; an unnamed op after its kind (`dot_general_1`)."""
    name = op.attributes.get("name")
    if isinstance(name, StringAttr):
        return unique_name(name.data.replace(".", "_").replace("-", "_"), taken)
    return unique_name(op.name.split(".")[-1], taken, numbered=True)


def unique_name(base: str, taken: set[str], numbered: bool = False) -> str:
    """`base` (or `base_1` when `numbered`), else the next free `base_N`;
    marks it taken."""
    n = 1
    candidate = f"{base}_{n}" if numbered else base
    while candidate in taken:
        n += 1
        candidate = f"{base}_{n}"
    taken.add(candidate)
    return candidate


class HostSchedule:
    """Builds the host function of one planned `func.func`; kernels and
    globals are inserted in front of it in the module."""

    def __init__(self, function: func.FuncOp, lower: LowerOp, taken: set[str]):
        self.function = function
        self.lower = lower
        self.taken = taken
        self.module_builder = Builder(InsertPoint.before(function))
        self.buffers: dict[SSAValue, SSAValue] = {}
        self.views: dict[tuple[int, MemRefType], SSAValue] = {}
        self.reshapes: dict[tuple[SSAValue, MemRefType], SSAValue] = {}

    def build(self) -> func.FuncOp:
        old = self.function
        inputs = [_buffer(t) for t in old.function_type.inputs]
        outputs = [_buffer(t) for t in old.function_type.outputs]
        block = Block(arg_types=inputs)
        self.builder = Builder(InsertPoint.at_end(block))
        self.stream = self.builder.insert(device.DefaultStreamOp()).results[0]
        plan = old.attributes.get(PLAN)
        arena_bytes = plan.arena.data if isinstance(plan, PlanAttr) else 0
        self.arena = None
        if arena_bytes:
            arena_type = MemRefType(i8, [arena_bytes])
            self.arena = self.builder.insert(device.AllocOp(arena_type)).results[0]
        self.args = list(block.args)
        self.outputs: list[SSAValue] = []
        donated = _donated_outputs(old)
        for index, type_ in enumerate(outputs):
            if index in donated:
                self.outputs.append(self.args[donated[index]])
            else:
                assert isinstance(type_, MemRefType)
                self.outputs.append(
                    self.builder.insert(device.AllocOp(type_)).results[0]
                )
        last = block.last_op
        assert last is not None
        self.last_prologue_op: Operation = last
        self.buffers.update(zip(old.body.block.args, self.args, strict=True))
        self.schedule(old.body.block, self.builder)
        new = func.FuncOp(
            old.sym_name.data,
            FunctionType.from_lists(inputs, outputs),
            Region(block),
            old.sym_visibility,
            arg_attrs=old.arg_attrs,
            res_attrs=old.res_attrs,
        )
        for key, value in old.attributes.items():
            if key not in (PLAN, "sym_name", "function_type", "sym_visibility"):
                new.attributes[key] = value
        new.location = old.location
        _stamp_location(new, old.location)
        return new

    # --- buffers --------------------------------------------------------------

    def place(self, op: Operation, builder: Builder) -> None:
        """Give each result of `op` its planned buffer."""
        plans = op.attributes.get(BUFFERS)
        if not op.results:
            return  # nothing to place (an op without results, as a check)
        assert isinstance(plans, ArrayAttr)
        for result, plan in zip(op.results, plans, strict=True):
            assert isinstance(plan, BufferAttr)
            self.buffers[result] = self._buffer_of(result, plan, builder)

    def _buffer_of(self, result: SSAValue, plan: BufferAttr, builder: Builder):
        type_ = _buffer(result.type)
        assert isinstance(type_, MemRefType)
        if plan.kind == TEMP:
            if self.arena is None:  # the plan's temps are all empty
                self.arena = self._up_front(device.AllocOp(MemRefType(i8, [0])))
            key = (plan.offset_value or 0, type_)
            if key not in self.views:
                self.views[key] = self._up_front(ViewOp(self.arena, key[0], type_))
            return self.views[key]
        if plan.kind == OUT:
            index = plan.output_index
            assert index is not None
            return self._as_type(self.outputs[index], type_)
        if plan.kind == ARG:
            index = plan.argument_index
            assert index is not None
            return self._as_type(self.args[index], type_)
        assert plan.kind == CONST
        op = result.owner
        if isinstance(op, dm.ConstantOp):
            get = GetGlobalOp(self._global(op.value, op.location), type_)
            return builder.insert(get).results[0]
        # a value in a constant's memory: a loop state the body never writes
        # (the while's initial value), or a view of a constant
        assert isinstance(op, Operation) and isinstance(result, OpResult)
        source = (
            op.operands[result.index]
            if isinstance(op, WhileOp)
            else view_source(op, result.index)
        )
        assert source is not None
        buffer = self.buffers[source]
        if buffer.type == type_:
            return buffer
        return builder.insert(ReshapeOp(buffer, type_)).results[0]

    def _as_type(self, buffer: SSAValue, type_: MemRefType) -> SSAValue:
        """`buffer` itself, or a `loop.reshape` of it to `type_` where the
        plan puts a value of another shape in its memory (a reshaped
        parameter, a view of an output). Made once per buffer and type, up
        front like the views."""
        if buffer.type == type_:
            return buffer
        key = (buffer, type_)
        if key not in self.reshapes:
            self.reshapes[key] = self._up_front(ReshapeOp(buffer, type_))
        return self.reshapes[key]

    def _up_front(self, op: Operation) -> SSAValue:
        """`op` at the end of the prologue, after the allocations: views and
        reshapes only name memory; its result."""
        Rewriter.insert_op(op, InsertPoint.after(self.last_prologue_op))
        self.last_prologue_op = op
        return op.results[0]

    def _global(self, value: DenseIntOrFPElementsAttr, location: LocationAttr) -> str:
        name = unique_name("constant", self.taken, numbered=True)
        global_op = GlobalOp(name, signless(value))
        global_op.location = location
        self.module_builder.insert(global_op)
        return name

    # --- ops -------------------------------------------------------------------

    def schedule(self, block: Block, builder: Builder) -> list[SSAValue]:
        """Launch `block`'s ops; the buffers of the values it returns. The
        host ops made for an op get its location, so that a diagnostic about
        them points into the source."""
        host_block = builder.insertion_point.block
        for op in block.ops:
            before = host_block.last_op
            returned = self._schedule_op(op, builder)
            made = host_block.last_op
            while made is not None and made is not before:
                _stamp_made_op(made, op.location)
                made = made.prev_op
            if returned is not None:
                return returned
        return []

    def _schedule_op(self, op: Operation, builder: Builder) -> list[SSAValue] | None:
        """Launch one op; at a return, the buffers of the values it returns."""
        match op:
            case func.ReturnOp():
                self._finish(op.arguments, builder)
                return []
            case ReturnOp():
                return [self.buffers[v] for v in op.operands]
            case dm.ConstantOp() | AfterAllOp():
                self.place(op, builder)
            case WhileOp():
                self._while(op, builder)
            case CaseOp():
                self._case(op, builder)
            case OptimizationBarrierOp():
                self.place(op, builder)
                sources = [self.buffers[v] for v in op.operands]
                targets = [self.buffers[r] for r in op.results]
                self._parallel_copy(sources, targets, builder)
            case _ if isinstance(op, GRID_STEP_OPS):
                self._collective(op, builder)
            case _:
                self._launch(op, builder)
        return None

    def _collective(self, op: Operation, builder: Builder) -> None:
        self.place(op, builder)
        block = Block(arg_types=op.operand_types)
        exchange = op.clone(
            value_mapper=dict(zip(op.operands, block.args, strict=True))
        )
        for key in (BUFFERS, "name"):
            exchange.attributes.pop(key, None)
        block.add_ops([exchange, ReturnOp(exchange.results)])
        args = [self.buffers[v] for v in (*op.operands, *op.results)]
        builder.insert(device.CollectiveOp(args, self.stream, Region(block)))

    def _launch(self, op: Operation, builder: Builder) -> None:
        if _views_in_place(op):
            self.place(op, builder)  # the memory is already there: no kernel
            return
        name = kernel_name(op, self.taken)
        kernel, globals_ = self.lower(op, name)
        for global_op in globals_:
            self.module_builder.insert(global_op)
        self.module_builder.insert(kernel)
        self.place(op, builder)
        args = [self.buffers[v] for v in op.operands]
        args += [self.buffers[r] for r in op.results]
        args = _take_each_buffer_once(kernel, args)
        scratch: list[SSAValue] = []
        for type_ in kernel.argument_types[len(args) :]:
            assert isinstance(type_, MemRefType)
            scratch.append(builder.insert(device.AllocOp(type_)).results[0])
        builder.insert(device.LaunchOp(name, args + scratch, self.stream))
        for buffer in scratch:
            builder.insert(device.FreeOp(buffer))

    def _copy(self, source: SSAValue, target: SSAValue, builder: Builder) -> None:
        if source is not target:
            builder.insert(
                device.CopyOp(
                    device.CopyDirection.DEVICE_TO_DEVICE, source, target, self.stream
                )
            )

    def _parallel_copy(
        self, sources: list[SSAValue], targets: list[SSAValue], builder: Builder
    ) -> None:
        """Copy each source into its target as if all at once (the moves of a
        loop's or a branch's yield): a copy whose target memory another copy
        still reads waits for it, and where the copies form a cycle (a yield
        that swaps two carried values) the sources in that memory are saved
        to scratch first."""
        pending = [
            (s, t)
            for s, t in zip(sources, targets, strict=True)
            if _memory(s) != _memory(t)
        ]
        scratch: list[SSAValue] = []
        while pending:
            read = {_memory(s) for s, _ in pending}
            ready = [move for move in pending if _memory(move[1]) not in read]
            if not ready:  # a cycle: save what its first target holds
                memory = _memory(pending[0][1])
                saved: dict[SSAValue, SSAValue] = {}
                for source, _ in pending:
                    if _memory(source) == memory and source not in saved:
                        assert isinstance(source.type, MemRefType)
                        copy = builder.insert(device.AllocOp(source.type)).results[0]
                        self._copy(source, copy, builder)
                        saved[source] = copy
                        scratch.append(copy)
                pending = [(saved.get(s, s), t) for s, t in pending]
                continue
            for source, target in ready:
                self._copy(source, target, builder)
            pending = [move for move in pending if move not in ready]
        for copy in scratch:
            builder.insert(device.FreeOp(copy))

    def _finish(self, returned: Sequence[SSAValue], builder: Builder) -> None:
        self._parallel_copy([self.buffers[v] for v in returned], self.outputs, builder)
        builder.insert(device.SynchronizeOp(self.stream))
        if self.arena is not None:
            builder.insert(device.FreeOp(self.arena))
        builder.insert(func.ReturnOp(*self.outputs))

    def _read_scalar(self, value: SSAValue, builder: Builder) -> SSAValue:
        buffer = self.buffers[value]
        return builder.insert(device.ReadScalarOp(buffer, [], self.stream)).results[0]

    def _while(self, op: WhileOp, builder: Builder) -> None:
        self.place(op, builder)
        carried = [self.buffers[r] for r in op.results]
        inits = [self.buffers[v] for v in op.operands]
        self._parallel_copy(inits, carried, builder)
        cond_block, body_block = op.regions[0].block, op.regions[1].block
        for block in (cond_block, body_block):
            self.buffers.update(zip(block.args, carried, strict=True))
        before, after = Block(), Block()
        (predicate,) = self.schedule(cond_block, Builder(InsertPoint.at_end(before)))
        # the predicate's buffer is read back; `schedule` returned its buffer
        flag = Builder(InsertPoint.at_end(before)).insert(
            device.ReadScalarOp(predicate, [], self.stream)
        )
        Builder(InsertPoint.at_end(before)).insert(scf.ConditionOp(flag.results[0]))
        after_builder = Builder(InsertPoint.at_end(after))
        results = self.schedule(body_block, after_builder)
        self._parallel_copy(results, carried, after_builder)
        after_builder.insert(scf.YieldOp())
        builder.insert(scf.WhileOp([], [], Region(before), Region(after)))

    def _case(self, op: CaseOp, builder: Builder) -> None:
        self.place(op, builder)
        targets = [self.buffers[r] for r in op.results]
        raw = self._read_scalar(op.index, builder)
        index = builder.insert(arith.IndexCastOp(raw, IndexType())).results[0]
        regions: list[Region] = []
        for branch in op.regions:
            block = Block()
            inner = Builder(InsertPoint.at_end(block))
            results = self.schedule(branch.block, inner)
            self._parallel_copy(results, targets, inner)
            inner.insert(scf.YieldOp())
            regions.append(Region(block))
        cases = DenseArrayBase.from_list(i64, list(range(len(regions) - 1)))
        builder.insert(scf.IndexSwitchOp(index, cases, regions[-1], regions[:-1], []))


def _take_each_buffer_once(kernel: KernelOp, args: list[SSAValue]) -> list[SSAValue]:
    """Drop each argument of `kernel` that its launch passes the same
    buffer as an earlier one, using that earlier argument in its place
    (module docstring); the launch's arguments that remain."""
    block = kernel.body.block
    if len(block.args) < len(args):
        # the empty stand-in for an op that cannot be lowered (the pass
        # reports it once every op has been tried)
        return args
    first: dict[SSAValue, int] = {}
    repeated: list[tuple[int, int]] = []
    for position, buffer in enumerate(args):
        if buffer in first:
            repeated.append((position, first[buffer]))
        else:
            first[buffer] = position
    if not repeated:
        return args
    for position, earlier in reversed(repeated):
        block.args[position].replace_all_uses_with(block.args[earlier])
        block.erase_arg(block.args[position])
    dropped = {position for position, _ in repeated}
    kernel.function_type = FunctionType.from_lists(
        [t for i, t in enumerate(kernel.argument_types) if i not in dropped], []
    )
    if kernel.arg_attrs is not None:
        kept = [a for i, a in enumerate(kernel.arg_attrs.data) if i not in dropped]
        kernel.arg_attrs = ArrayAttr(kept)
    return [buffer for i, buffer in enumerate(args) if i not in dropped]


def _memory(buffer: SSAValue) -> tuple[SSAValue, int]:
    """The memory a host buffer names: a parameter, an allocation, or an
    offset in the arena, whatever type its `loop.view` or `loop.reshape`
    gives it."""
    owner = buffer.owner
    if isinstance(owner, ReshapeOp):
        return _memory(owner.source)
    if isinstance(owner, ViewOp):
        return (owner.source, owner.byte_offset)
    return (buffer, 0)


def _views_in_place(op: Operation) -> bool:
    """Whether each result of `op` only views an operand (a reshape, or a
    fusion of views: `view_source`) that the plan puts in the same memory,
    so the result's buffer already holds it."""
    for index, result in enumerate(op.results):
        source = view_source(op, index)
        memory = planned_memory(result)
        if source is None or memory is None or memory != planned_memory(source):
            return False
    return bool(op.results)


def _stamp_location(op: Operation, location: LocationAttr) -> None:
    """Give `op` and the ops inside it that have none `location`."""
    for inner in walk(op):
        if isinstance(inner.location, UnknownLoc):
            inner.location = location


def _stamp_made_op(op: Operation, location: LocationAttr) -> None:
    """`_stamp_location` of an op `schedule` made, not walking into the ops
    inside it that have a location: those come from the `schedule` of a
    nested block, which stamped everything inside them (walking them again
    at every level made deep nests quadratic)."""
    pending = [op]
    while pending:
        inner = pending.pop()
        if inner is not op and not isinstance(inner.location, UnknownLoc):
            continue
        if isinstance(inner.location, UnknownLoc):
            inner.location = location
        for region in inner.regions:
            for block in region.blocks:
                pending.extend(block.ops)


def _buffer(type_: Attribute) -> Attribute:
    """A tensor's memref; a token's, which orders steps but holds nothing,
    is empty."""
    if isinstance(type_, TokenType):
        return MemRefType(i8, [0])
    return buffer_type(type_) if isinstance(type_, TensorType) else type_


def _donated_outputs(function: func.FuncOp) -> dict[int, int]:
    """Output index -> the parameter it lives in (an `out N, arg M` buffer)."""
    donated: dict[int, int] = {}
    for op in walk(function):
        plans = op.attributes.get(BUFFERS)
        if not isinstance(plans, ArrayAttr):
            continue
        for plan in plans:
            if (
                isinstance(plan, BufferAttr)
                and plan.kind == OUT
                and plan.argument_index is not None
                and plan.output_index is not None
            ):
                donated[plan.output_index] = plan.argument_index
    return donated
