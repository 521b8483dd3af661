"""Loop-invariant instructions out of `accel.for` loops (manual section
11.1: splat constants once outside loops).

The kernels `loop-to-accel` builds compute each constant where the loop
level used it, so the splats of an expanded `tanh`'s coefficients and the
masks of `abs` or `copysign` are rebuilt in every iteration. An instruction
of a loop's body that has no side effect, reads no memory and whose
operands all come from outside the loop (or from instructions hoisted
before it) computes the same value in every iteration, and the chip's
instructions do not trap, so it moves before the loop, even one that may
run no iteration. Innermost loops first, so an invariant climbs as far out
as it can.

Each hoisted value an iteration still reads holds a register for the whole
loop. The hoisted instructions are taken in body order while the loop's
estimated register demand (`_demand`) fits the register file; the rest stay
in the loop rather than make the allocator spill.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from xdsl.ir import Block, Operation, SSAValue
from xlir.dialects import accel
from xlir.targets.accel.isa import RegClass

SIDE_EFFECTS = frozenset(
    {"sb", "sh", "sw", "vst", "vsx", "dma.cfg", "dma.ld", "dma.st", "dma.wait",
     "halt", "loop", "jal", "jalr", "mcfg", "mzero", "mmac", "mmac.ta", "mmac.tb",
     "mmac.tatb", "mld", "mst", "rdcycle", *accel.BRANCHES}
)  # fmt: skip
"""Instructions with an effect beyond their result register."""
READS_MEMORY = frozenset({"lb", "lbu", "lh", "lhu", "lw", "vld", "vlx"})
FREE_REGISTERS = {RegClass.X: RegClass.X.count - 4 - 3, RegClass.V: RegClass.V.count}
"""Registers a loop's values may take: the convention fixes four scalar
registers (`register_allocation.RESERVED`); three more are a margin for the
scalar registers that the estimate misses (xDSL's allocator is not
optimal, and loops that cannot spill their carried values are mostly
scalar)."""


def hoist_invariants(kernel: accel.KernelOp) -> int:
    """Move the invariant instructions of every loop of `kernel` before it;
    the number moved."""
    arguments = len(kernel.body.block.args)
    return sum(_hoist(loop, arguments) for loop in _inner_first(kernel))


def _inner_first(op: Operation) -> Iterator[accel.ForOp]:
    """The loops inside `op`, each after the loops it holds, siblings in
    program order (so a later loop's invariants meet an earlier one's)."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield from _inner_first(inner)
                if isinstance(inner, accel.ForOp):
                    yield inner


def _hoist(loop: accel.ForOp, arguments: int) -> int:
    body = loop.body.block
    invariant: list[Operation] = []
    moved: set[Operation] = set()
    for op in body.ops:
        if is_pure(op) and all(
            _outside(v, loop) or v.owner in moved for v in op.operands
        ):
            invariant.append(op)
            moved.add(op)
    if not invariant:
        return 0
    free = dict(FREE_REGISTERS)
    free[RegClass.X] -= arguments
    for file, held in _around(loop).items():
        free[file] -= held
    count = len(invariant)
    while count and not _fits(loop, invariant[:count], free):
        count -= 1
    available = _available(loop)
    for op in invariant[:count]:
        key = instruction_key(op)
        if key in available:  # the same value is computed before the loop
            op.results[0].replace_all_uses_with(available[key])
            op.detach()
            op.erase()
            continue
        op.detach()
        loop.parent_block().insert_op_before(op, loop)  # pyright: ignore[reportOptionalMemberAccess]
        available[key] = op.results[0]
    return count


def instruction_key(op: Operation) -> tuple[object, ...]:
    """What determines a pure instruction's result: two with the same key
    compute the same value."""
    if isinstance(op, accel.GetRegisterOp):
        return ("get_register", op.result.type)
    return (op.name, tuple(op.operands), tuple(sorted(op.properties.items())))


def _available(loop: Operation) -> dict[tuple[object, ...], SSAValue]:
    """The pure instructions' values computed before `loop` on every path
    to it: those before it in its block and in the blocks around it."""
    available: dict[tuple[object, ...], SSAValue] = {}
    op: Operation | None = loop
    while op is not None and (block := op.parent_block()) is not None:
        for before in block.ops:
            if before is op:
                break
            if is_pure(before):
                available.setdefault(instruction_key(before), before.results[0])
        op = block.parent_op()
    return available


def _fits(
    loop: accel.ForOp, hoisted: list[Operation], free: dict[RegClass, int]
) -> bool:
    """Whether `loop` still fits the register files with `hoisted` before it."""
    held = _held(hoisted)
    fixed = _demand(loop, {v for op in hoisted for v in op.results})
    return all(fixed[f] + held[f] <= free[f] for f in held)


def _around(loop: accel.ForOp) -> dict[RegClass, int]:
    """Per register file, the values live across `loop` that it does not
    read: defined before it (or before the loop holding it) and read after,
    and the enclosing loops' induction variables, carried values and (for
    a branch loop) bounds."""
    around = {RegClass.X: 0, RegClass.V: 0}
    inside = {v for op in loop.walk() for v in op.operands}
    op: Operation = loop
    while (block := op.parent_block()) is not None:
        ops = list(block.ops)
        after = ops.index(op)
        later = {v for o in ops[after + 1 :] for i in o.walk() for v in i.operands}
        defined = [v for o in ops[:after] for v in o.results]
        parent = block.parent_op()
        for value in _allocatable(defined):
            if value in later and value not in inside:
                around[_file(value)] += 1
        if not isinstance(parent, accel.ForOp):
            break
        held = [*block.args] + ([parent.bound] if parent.hardware is None else [])
        for value in _allocatable(held):
            if value not in inside:
                around[_file(value)] += 1
        inside.update(held)
        op = parent
    return around


def is_pure(op: Operation) -> bool:
    """Whether `op`'s one result depends only on its operands (a register
    the convention fixes, or an instruction with no effect or memory read)."""
    if isinstance(op, accel.GetRegisterOp):
        return True
    return (
        isinstance(op, accel.AccelInstruction)
        and op.SPEC.mnemonic not in SIDE_EFFECTS | READS_MEMORY
        and len(op.results) == 1
    )


def _outside(value: SSAValue, loop: Operation) -> bool:
    """Whether `value` is defined outside `loop`."""
    owner = value.owner
    op = owner.parent_op() if isinstance(owner, Block) else owner
    while op is not None:
        if op is loop:
            return False
        op = op.parent_op()
    return True


def _held(hoisted: list[Operation]) -> dict[RegClass, int]:
    """Per register file, the hoisted values the loop still reads."""
    moved = set(hoisted)
    held = {RegClass.X: 0, RegClass.V: 0}
    for op in hoisted:
        for value in _allocatable(op.results):
            if any(use.operation not in moved for use in value.uses):
                held[_file(value)] += 1
    return held


def _demand(loop: accel.ForOp, ignored: set[SSAValue]) -> dict[RegClass, int]:
    """An estimate of the registers `loop` needs, per file, besides those of
    `ignored` values: the values it reads from outside, its induction
    variable and carried values, and the most values of its body live at
    once."""
    demand = {RegClass.X: 1, RegClass.V: 0}
    for value in _allocatable(loop.body.block.args[1:]):
        demand[_file(value)] += 1
    outer: set[SSAValue] = set()
    for op in loop.body.walk():
        outer.update(v for v in op.operands if _outside(v, loop) and v not in ignored)
    for value in _allocatable(outer):
        demand[_file(value)] += 1
    peak = _block_peak(loop.body.block, ignored)
    return {f: demand[f] + peak[f] for f in demand}


def _block_peak(block: Block, ignored: set[SSAValue]) -> dict[RegClass, int]:
    """The most values defined in `block` (but not `ignored`) that are live
    at once, per file, plus what a nested loop needs at that point."""
    last_use: dict[SSAValue, int] = {}
    ops = list(block.ops)
    position = {op: i for i, op in enumerate(ops)}
    for index, op in enumerate(ops):
        for inner in op.walk():
            for value in inner.operands:
                owner = value.owner
                if (
                    isinstance(owner, Operation)
                    and owner in position
                    and value not in ignored
                ):
                    last_use[value] = index
    live = {RegClass.X: 0, RegClass.V: 0}
    peak = dict(live)
    ending: dict[int, list[SSAValue]] = {}
    for value, index in last_use.items():
        ending.setdefault(index, []).append(value)
    for index, op in enumerate(ops):
        nested = (
            _demand(op, ignored | set(last_use))
            if isinstance(op, accel.ForOp)
            else None
        )
        for file in live:
            peak[file] = max(peak[file], live[file] + (nested or {}).get(file, 0))
        for value in _allocatable(ending.get(index, ())):
            live[_file(value)] -= 1
        for value in _allocatable(op.results):
            if value in last_use:
                live[_file(value)] += 1
        for file in live:
            peak[file] = max(peak[file], live[file])
    return peak


def _allocatable(values: Iterable[SSAValue]) -> list[SSAValue]:
    """The values the allocator places (unallocated x or v registers)."""
    return [
        v
        for v in values
        if isinstance(v.type, accel.XRegisterType | accel.VRegisterType)
        and not v.type.is_allocated
    ]


def _file(value: SSAValue) -> RegClass:
    return RegClass.X if isinstance(value.type, accel.XRegisterType) else RegClass.V
