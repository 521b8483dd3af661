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
estimated register demand (`_Pressure`, with what is live around the loop,
`_vectors_around`) fits the register files; the rest stay in the loop rather than
make the allocator spill.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from xdsl.ir import Block, Operation, SSAValue
from xlir.dialects import accel
from xlir.targets.accel.isa import RegClass

from xlir.walk import walk

SIDE_EFFECTS = frozenset(
    {"sb", "sh", "sw", "vst", "vsx", "dma.cfg", "dma.ld", "dma.st", "dma.wait",
     "halt", "loop", "jal", "jalr", "mcfg", "mzero", "mmac", "mmac.ta", "mmac.tb",
     "mmac.tatb", "mld", "mst", "rdcycle", *accel.BRANCHES}
)  # fmt: skip
"""Instructions with an effect beyond their result register."""
READS_MEMORY = frozenset({"lb", "lbu", "lh", "lhu", "lw", "vld", "vlx"})
IMPURE = SIDE_EFFECTS | READS_MEMORY
PURE_OPS = frozenset(
    {accel.GetRegisterOp}
    | {cls for mnemonic, cls in accel.INSTRUCTIONS.items() if mnemonic not in IMPURE}
)
"""The op classes whose result depends only on their operands (`is_pure`)."""
WITHOUT_EFFECT = frozenset(
    {accel.GetRegisterOp}
    | {
        cls
        for mnemonic, cls in accel.INSTRUCTIONS.items()
        if mnemonic not in SIDE_EFFECTS
    }
)
"""The op classes that do nothing but define their results."""
VECTOR_REGISTERS = RegClass.V.count
"""The vector registers: the file whose pressure hoisting raises and
weighs (`_without_held_scalars` keeps
scalar registers out of it: kernels are short of them, and a loop's
counters and carried values cannot spill)."""


def hoist_invariants(kernel: accel.KernelOp) -> int:
    """Move the invariant instructions of every loop of `kernel` before it;
    the number moved."""
    return sum(_hoist(loop) for loop in _inner_first(kernel))


def _inner_first(op: Operation) -> Iterator[accel.ForOp]:
    """The loops inside `op`, each after the loops it holds, siblings in
    program order (so a later loop's invariants meet an earlier one's)."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield from _inner_first(inner)
                if type(inner) is accel.ForOp:
                    yield inner


def _hoist(loop: accel.ForOp) -> int:
    body = loop.body.block
    invariant: list[Operation] = []
    moved: set[Operation] = set()
    # what the body's ops read is defined in the body or outside the loop
    inside = {*body.args, *(v for op in body.ops for v in op.results)}
    for op in body.ops:
        if is_pure(op) and all(
            v not in inside or v.owner in moved for v in op.operands
        ):
            invariant.append(op)
            moved.add(op)
    invariant = _without_held_scalars(invariant)
    if not invariant:
        return 0
    count = len(invariant)
    if _held_vectors(invariant):  # vectors the iterations would read
        count = _affordable(loop, invariant)
    available = _available(loop, {op.name for op in invariant[:count]})
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


def _without_held_scalars(invariant: list[Operation]) -> list[Operation]:
    """The `invariant` instructions that leave the loop with no scalar
    register held through it: a scalar the iterations read stays (with what
    reads it), so only the scalars that build a hoisted vector leave."""
    kept, candidates = list(invariant), set(invariant)
    while True:
        chosen = set(kept)
        stay = [
            op
            for op in kept
            if any(v.owner in candidates and v.owner not in chosen for v in op.operands)
            or any(
                use.operation not in chosen
                for v in _allocatable(op.results)
                if _file(v) is RegClass.X
                for use in v.uses
            )
        ]
        if not stay:
            return kept
        kept = [op for op in kept if op not in stay]


def _affordable(loop: accel.ForOp, invariant: list[Operation]) -> int:
    """How many of the `invariant` instructions (in order) may leave `loop`
    with its estimated vector register demand still fitting the file."""
    free = VECTOR_REGISTERS - _vectors_around(loop)
    pressure = _pressure(loop, set())
    least = pressure.without(_results(invariant))  # a lower bound for any prefix
    if least + _held_vectors(invariant) <= free:
        return len(invariant)
    bound = _last_true(
        len(invariant) - 1,
        lambda n: least + _held_vectors(invariant[:n]) <= free,
    )
    return _last_true(
        bound,
        lambda n: (
            pressure.without(_results(invariant[:n])) + _held_vectors(invariant[:n])
            <= free
        ),
    )


def _last_true(high: int, holds: Callable[[int], bool]) -> int:
    """The largest n in [0, high] for which `holds(n)` (true at 0, and taken
    as true up to some n and false after: more hoisted, more held)."""
    low = 0
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low


def instruction_key(op: Operation) -> tuple[object, ...]:
    """What determines a pure instruction's result: two with the same key
    compute the same value."""
    if type(op) is accel.GetRegisterOp:
        return ("get_register", op.result.type)
    return (op.name, tuple(op.operands), tuple(sorted(op.properties.items())))


def _available(loop: Operation, names: set[str]) -> dict[tuple[object, ...], SSAValue]:
    """The values of the pure instructions named `names` computed before
    `loop` on every path to it: those before it in its block and in the
    blocks around it."""
    available: dict[tuple[object, ...], SSAValue] = {}
    op: Operation | None = loop
    while op is not None and (block := op.parent_block()) is not None:
        for before in block.ops:
            if before is op:
                break
            if before.name in names and is_pure(before):
                available.setdefault(instruction_key(before), before.results[0])
        op = block.parent_op()
    return available


def _results(ops: list[Operation]) -> set[SSAValue]:
    return {v for op in ops for v in op.results}


def _vectors_around(loop: accel.ForOp) -> int:
    """The vector values live across `loop` that it does not read: defined
    before it (or before the loop holding it) and read after, and the
    enclosing loops' carried values. Found from the uses of the vectors
    defined before it: they are few, the ops after it many."""
    around = 0
    op: Operation = loop
    while (block := op.parent_block()) is not None:
        unread = [
            value
            for before in _ops_before(op)
            for value in _vectors(before.results)
            if not _read_in(value, loop)
        ]
        if unread:
            later = set(_ops_after(op))
            around += sum(_read_by(value, block, later) for value in unread)
        parent = block.parent_op()
        if not isinstance(parent, accel.ForOp):
            break
        around += sum(not _read_in(value, loop) for value in _vectors(block.args))
        op = parent
    return around


def _ops_before(op: Operation) -> Iterator[Operation]:
    """The ops before `op` in its block, in order."""
    block = op.parent_block()
    assert block is not None
    for before in block.ops:
        if before is op:
            return
        yield before


def _ops_after(op: Operation) -> Iterator[Operation]:
    """The ops after `op` in its block, in order."""
    after = op.next_op
    while after is not None:
        yield after
        after = after.next_op


def _read_in(value: SSAValue, op: Operation) -> bool:
    """Whether `op` or an op inside it reads `value`."""
    return any(op.is_ancestor(use.operation) for use in value.uses)


def _read_by(value: SSAValue, block: Block, ops: set[Operation]) -> bool:
    """Whether one of the `ops` of `block` (or an op inside one) reads `value`."""
    for use in value.uses:
        user: Operation | None = use.operation
        while user is not None and user.parent_block() is not block:
            user = user.parent_op()
        if user in ops:
            return True
    return False


def is_pure(op: Operation) -> bool:
    """Whether `op`'s one result depends only on its operands (a register
    the convention fixes, or an instruction with no effect or memory read).
    By the op's class: the passes ask for every op, and `isinstance` with
    the abstract instruction class is slow for the ops it is not."""
    return type(op) in PURE_OPS and len(op.results) == 1


def defined_outside(value: SSAValue, loop: Operation) -> bool:
    """Whether `value` is defined outside `loop`."""
    return not loop.is_ancestor(value.owner)


def _held_vectors(hoisted: list[Operation]) -> int:
    """The hoisted vectors the loop still reads."""
    moved = set(hoisted)
    return sum(
        any(use.operation not in moved for use in value.uses)
        for op in hoisted
        for value in _vectors(op.results)
    )


@dataclass
class _Pressure:
    """An estimate of the vector registers a loop needs: the vectors it
    reads from outside and its carried vectors (`base`), and the most
    vectors of its body live at once, which `without` gives for any set of
    body values left out (those hoisted: they are counted as held). Built in
    one look at the loop, so that the many prefixes of the invariants
    `_affordable` tries cost no walk of it: leaving a value out only lowers
    the live counts over its span. Scalars are not counted: hoisting keeps
    them out of its choices (`_without_held_scalars`)."""

    base: int
    entering: list[int]
    """Per body position: the vectors live before its op, plus what a nested
    loop there needs."""
    leaving: list[int]
    """Per body position: the vectors live after its op."""
    spans: dict[SSAValue, tuple[int, int]]
    """The body's vectors that it reads -> (the position that defines it,
    the position of its last read)."""

    def without(self, ignored: set[SSAValue]) -> int:
        """The demand with the `ignored` values of the body not counted."""
        size = len(self.entering)
        # starts and ends of the spans left out (a difference array)
        entering_change = [0] * (size + 1)
        leaving_change = [0] * (size + 1)
        for value in ignored:
            span = self.spans.get(value)
            if span is not None:
                defined, last = span
                leaving_change[defined] -= 1
                leaving_change[last] += 1
                entering_change[defined + 1] -= 1
                entering_change[last + 1] += 1
        peak = 0
        left_out_entering = left_out_leaving = 0
        for index in range(size):
            left_out_entering += entering_change[index]
            left_out_leaving += leaving_change[index]
            peak = max(
                peak,
                self.entering[index] + left_out_entering,
                self.leaving[index] + left_out_leaving,
            )
        return self.base + peak


def _pressure(loop: accel.ForOp, counted: set[SSAValue]) -> _Pressure:
    """`loop`'s `_Pressure`; the outside values of `counted` are held by an
    enclosing loop's count already."""
    body = loop.body.block
    ops = list(body.ops)
    position = {op: i for i, op in enumerate(ops)}
    inside: set[SSAValue] = set(body.args)
    outside: set[SSAValue] = set()
    last_read: dict[SSAValue, int] = {}
    for index, op in enumerate(ops):
        for inner in walk(op) if op.regions else (op,):
            inside.update(inner.results)
            for region in inner.regions:
                for block in region.blocks:
                    inside.update(block.args)
            for value in inner.operands:
                if value.owner.parent is body:  # pyright: ignore[reportAttributeAccessIssue]
                    last_read[value] = index
                else:
                    outside.add(value)
    base = len(_vectors([*body.args[1:], *(outside - inside - counted)]))
    spans: dict[SSAValue, tuple[int, int]] = {}
    # +1 where a vector starts being live after an op, -1 where it ends
    change = [0] * (len(ops) + 1)
    for value in _vectors(last_read):
        defined, last = position[value.owner], last_read[value]  # pyright: ignore[reportArgumentType]
        spans[value] = (defined, last)
        change[defined] += 1
        change[last] -= 1
    below = counted | set(last_read)
    nested = {
        index: _pressure(op, below).without(set())
        for index, op in enumerate(ops)
        if type(op) is accel.ForOp
    }
    entering: list[int] = []
    leaving: list[int] = []
    live = 0
    for index in range(len(ops)):
        entering.append(live + nested.get(index, 0))
        live += change[index]
        leaving.append(live)
    return _Pressure(base, entering, leaving, spans)


def _vectors(values: Iterable[SSAValue]) -> list[SSAValue]:
    """The values the allocator places in vector registers."""
    return [
        v
        for v in values
        if type(v.type) is accel.VRegisterType and not v.type.is_allocated
    ]


def _allocatable(values: Iterable[SSAValue]) -> list[SSAValue]:
    """The values the allocator places (unallocated x or v registers)."""
    return [
        v
        for v in values
        if (type(v.type) is accel.XRegisterType or type(v.type) is accel.VRegisterType)
        and not v.type.is_allocated
    ]


def _file(value: SSAValue) -> RegClass:
    return RegClass.X if isinstance(value.type, accel.XRegisterType) else RegClass.V
