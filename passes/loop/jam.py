"""Unroll-and-jam of `loop.parallel` dimensions into the loops of its body:
the transformation `register-tile` and `vectorize` share.

A `loop.parallel` body computes reductions (`loop.for`s with carried values)
and then an epilogue. Jamming dimensions by factors strip-mines them: the
nest steps `factor` times as far over the whole tiles, and its body runs the
old body once per copy (one copy per combination of offsets), op by op: one
`loop.for` carries every copy's accumulators, and each op is cloned once per
copy, or once for all copies when its operands are the same in every copy
(a load of `A[i, k]` is shared by the copies that differ only in `j`):

    loop.parallel (%i, %j) = (0, 0) to (4, 6) step (1, 1)        # j by 2
      %s = loop.for %k ... iter_args(%a = %zero)
        %x = loop.load %A[%i, %k]    %y = loop.load %B[%k, %j] ...

becomes

    loop.parallel (%i, %j) = (0, 0) to (4, 6) step (1, 2) {jam = array<i64: 1, 2>}
      %j1 = arith.addi %j, %c1
      %s:2 = loop.for %k ... iter_args(%a0 = %zero, %a1 = %zero)
        %x = loop.load %A[%i, %k]                                 # shared
        %y0 = loop.load %B[%k, %j]    %y1 = loop.load %B[%k, %j1] ...

**A heavy epilogue runs once per tile, not once per copy.** Cloning the
ops after the reductions (bias, activation, store) per copy multiplies them
by the tile's size: a 12 x 16 register tile of a tanh-GELU dense layer is
192 GELUs, tens of thousands of ops once `expand-math` writes them out,
and seconds of compile time in `loop-to-llvm` and LLVM. When the epilogue
costs more than `CLONED_EPILOGUE_COST` (an op `expand-math` expands counts
`EXPANDED_OP_COST`) and it ends in a store of a value of the accumulator's
type to an output at the nest's own indices (`epilogue_scratch`), each
copy's accumulator is stored into that output element instead, and one
`loop.parallel` over the tile loads it back, runs the epilogue once and
stores the result (LLVM vectorizes it along the unit-stride column). Where
the output's type is narrower (a bf16 layer summing in f32), each copy
first runs the epilogue's cheap ops that make an output-typed value of the
accumulator (its rounding to bf16) when the rest uses only that value, and
stores that:

    loop.parallel (%i, %j) = (0, 0) to (4, 6) step (1, 2) {jam = array<i64: 1, 2>}
      %s:2 = loop.for %k ...
      loop.store %s#0, %C[%i, %j]    loop.store %s#1, %C[%i, %j1]
      loop.parallel (%dj) = (0) to (2) step (1)
        %e = arith.addi %j, %dj
        %a = loop.load %C[%i, %e]    ... epilogue of (%i, %e) ...
        loop.store %r, %C[%i, %e]

When all that is left of the epilogue is its store of that value (a bf16
dot's rounding, done by each copy), the copies' stores are the result and
there is no nest over the tile.

Each element goes through the same ops as before (a store and load of a
value's own type are exact), so the bits are the same.

Copies along a unit-stride dimension can be vector copies instead
(`passes/loop/jam_vector.py`): one copy of vector ops for `lanes` scalar ones,
lane for lane the same ops.

Dimensions whose trip count the factor does not divide leave remainder nests
with the old body (the returned `Jammed.remainders`), covering the rest of
the index space one jammed dimension at a time.

Running the copies op by op is what `loop.parallel` allows: its iterations
are independent and may run all at once (as vector lanes, which is what the
loop interpreter does), so no copy reads what another writes, and a load
shared between copies reads the same element either way. Each copy's own ops
stay in their order, so every output element is computed by the same
operations in the same order as before: the result is bit for bit the same.

Only nests whose body holds nothing but region-free ops, `loop.for`s and
inner `loop.parallel`s (recursively) are jammed, with static bounds and
steps on the jammed dimensions and `loop.for` bounds that do not depend on
them (copies must walk the same iterations together). An inner
`loop.parallel` (softmax writes a row's exponentials before it sums them)
runs once for the copies of a jam along one dimension, the copy's offset
its outer dimension, where the values it takes from the copies can be
computed again inside it (`_merge_copies`); otherwise it is cloned whole
once per copy, one after the other. The lanes of one vector copy are
copies too: the inner nest runs once for them as scalar code, and where it
cannot, the jam makes no vector copies (`merge_plan`, `_vector_copies`).
A jammed nest carries the
`jam` attribute (the factor of each dimension), so it is not jammed again;
the remainder nests keep the old nest's attributes (a caller may jam them
by what is left).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import (
    Callable,
    Collection,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IndexType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xlir.analysis.dependence import dependents
from xlir.analysis.index_ranges import most_trips
from xlir.analysis.kernel_aliasing import arguments_may_alias, launches_by_kernel
from xlir.analysis.loop_utils import (
    bounds_of,
    index_constant,
    is_pure,
    static_trip_count,
)
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import Bound, ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import (
    LoadOp,
    StoreOp,
)
from xlir.dialects.syntax import i64_array
from xlir.passes.loop.expand_math import EXPANSIONS
from xlir.passes.loop.jam_vector import Lanes, blocker, lane_addresses

from xlir.walk import walk

EXPANDED_OP_COST = 64
"""What an op that `expand-math` writes out as straight-line code (log:
about 70 ops, exp 56, tanh 28, sin 160) counts for in an epilogue's cost."""

CLONED_EPILOGUE_COST = 4
"""The costliest epilogue cloned once per copy (a bias add and a relu);
a costlier one runs once per tile when it can (module docstring)."""

CLONED_EPILOGUE_BUDGET = 1024
"""The most epilogue cost a jam clones when the epilogue cannot run once per
tile: the callers jam by less then (`epilogue_copies`)."""

JAM_ATTRIBUTE = "jam"
"""The attribute of a jammed nest: the factor of each dimension, 1 for the
dimensions not jammed."""


@dataclass
class Jammed:
    """A jammed nest, and the remainder nests with the old body by the
    jammed dimension whose rest each covers."""

    nest: ParallelOp
    remainders: dict[int, ParallelOp]


def is_jammed(nest: ParallelOp) -> bool:
    return JAM_ATTRIBUTE in nest.attributes


def reduction_loops(nest: ParallelOp) -> list[ForOp]:
    """The `loop.for`s with carried values directly in the nest's body."""
    return [op for op in nest.body.block.ops if isinstance(op, ForOp) and op.iter_args]


def loads_in(loops: Iterable[ForOp]) -> list[LoadOp]:
    return [op for loop in loops for op in walk(loop) if isinstance(op, LoadOp)]


def unit_stride_dim(access: LoadOp | StoreOp, ivs: Sequence[SSAValue]) -> int | None:
    """The position in `ivs` of the induction variable the access's last
    index is (or is plus something independent of it), if any."""
    return index_dim(access.indices[-1], ivs) if access.indices else None


def index_dim(index: SSAValue, ivs: Sequence[SSAValue]) -> int | None:
    """The position in `ivs` of the induction variable `index` is (or is
    plus something independent of it), if any: the index moves by one
    element as that dimension does."""
    if index in ivs:
        return ivs.index(index)
    owner = index.owner
    if isinstance(owner, arith.AddiOp):
        for this, other in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
            if this in ivs and other not in dependents([this], [owner]) - {
                owner.result
            }:
                return ivs.index(this)
    return None


def jam_blocker(nest: ParallelOp, dims: Iterable[int]) -> str | None:
    """Why the nest cannot be jammed along `dims`, or None when it can."""
    if is_jammed(nest):
        return "already jammed"
    bounds = bounds_of(nest)
    for d in dims:
        if not runtime_count(bounds[d]) and not all(
            isinstance(b, int) for b in bounds[d]
        ):
            return f"dimension {d} has a dynamic lower bound or step"
    varying = dependents([nest.induction_vars[d] for d in dims], nest.body.block.ops)
    for op in walk(nest):
        if isinstance(op, ForOp):
            bound_operands = (*op.dynamic_lower, *op.dynamic_upper, *op.dynamic_step)
            if any(v in varying for v in bound_operands):
                return "a loop.for's bounds depend on a jammed dimension"
        elif op.regions and not isinstance(op, ParallelOp):
            return f"its body holds '{op.name}', which has regions"
    return None


def epilogue(nest: ParallelOp) -> list[Operation]:
    """The ops of the nest's body after its last `loop.for` (its yield left
    out); all of them when it has none."""
    body = [op for op in nest.body.block.ops if not isinstance(op, YieldOp)]
    loops = [n for n, op in enumerate(body) if isinstance(op, ForOp)]
    return body[loops[-1] + 1 :] if loops else body


def ops_cost(ops: Iterable[Operation]) -> int:
    """The ops under `ops`, each that `expand-math` expands counting
    `EXPANDED_OP_COST`, stores not counted (each copy has its own)."""
    return sum(
        EXPANDED_OP_COST if type(inner) in EXPANSIONS else 1
        for op in ops
        for inner in walk(op)
        if not isinstance(inner, StoreOp | YieldOp)
    )


def epilogue_copies(nest: ParallelOp) -> int:
    """How many copies a jam of the nest may make, as far as its epilogue
    goes: any number when the epilogue is cheap or runs once per tile,
    else as many as keep the cloned epilogues within
    `CLONED_EPILOGUE_BUDGET` (at least one)."""
    cost = ops_cost(epilogue(nest))
    if cost <= CLONED_EPILOGUE_COST or epilogue_scratch(nest) is not None:
        return sys.maxsize
    return max(1, CLONED_EPILOGUE_BUDGET // cost)


def _kernel_arguments_may_alias(nest: ParallelOp, a: SSAValue, b: SSAValue) -> bool:
    """Whether two buffers of the nest's kernel may be one: unless both are
    kernel arguments that no launch passes overlapping buffers."""
    kernel = nest.parent_op()
    while kernel is not None and not isinstance(kernel, KernelOp):
        kernel = kernel.parent_op()
    if kernel is None:
        return True
    arguments: list[SSAValue] = list(kernel.body.block.args)
    if a not in arguments or b not in arguments:
        return True
    module = kernel.parent_op()
    launches = (
        launches_by_kernel(module).get(kernel.sym_name.data, [])
        if isinstance(module, ModuleOp)
        else []
    )
    return arguments_may_alias(kernel, arguments.index(a), arguments.index(b), launches)


@dataclass
class Scratch:
    """How an epilogue runs once per tile: each copy computes `value` (the
    accumulator, or what `head` makes of it) and stores it where `store`
    stores, and one nest over the tile loads it back and runs `tail`."""

    store: StoreOp
    value: SSAValue
    head: list[Operation]
    """The epilogue's ops `value` is computed by (none for the accumulator),
    cloned per copy: a bf16 result's rounding of its f32 sum, say."""
    tail: list[Operation]
    """The rest of the epilogue, in order."""


def epilogue_scratch(nest: ParallelOp) -> Scratch | None:
    """How the epilogue can run once per tile (`Scratch`), or None.

    The reductions carry one value in all. The value kept between them and
    the epilogue's nest is the accumulator, or else the first value the
    epilogue computes from it alone by cheap pure ops (`_scratch_values`:
    a bf16 output's f32 sum rounded to bf16) that the rest of the epilogue
    uses in its stead. The epilogue stores that value (or what it becomes,
    of its type) to an output at the nest's own indices (each induction
    variable once), which nothing else in the nest reads or writes, and the
    values the epilogue takes from before the reductions either do not
    depend on the induction variables or are computed by pure ops (they are
    computed again per element). A load of another buffer of that type at
    those indices may be the same memory (an in-place result,
    `passes/hlo/buffers/sharing.py`): then only when the launches say it is not.
    """
    results = [r for loop in reduction_loops(nest) for r in loop.results]
    ops = epilogue(nest)
    if len(results) != 1 or not ops or _recomputed(nest) is None:
        return None
    stores: dict[Attribute, StoreOp] = {}
    for store in _scratch_stores(nest, ops):
        stores.setdefault(store.value.type, store)
    if not stores:
        return None
    live = _live(ops)
    for value, head in _scratch_values(results[0], live, stores.keys()):
        if value.type in stores:
            tail = [op for op in live if op not in head]
            return Scratch(stores[value.type], value, head, tail)
    return None


def _live(ops: Sequence[Operation]) -> list[Operation]:
    """`ops` without the pure region-free ones whose results nothing but
    such dead ops use (a rounding's sign test that its result ignores)."""
    dead: set[Operation] = set()
    for op in reversed(ops):
        if (
            not op.regions
            and is_pure(op)
            and all(use.operation in dead for r in op.results for use in r.uses)
        ):
            dead.add(op)
    return [op for op in ops if op not in dead]


def _scratch_stores(nest: ParallelOp, ops: Sequence[Operation]) -> list[StoreOp]:
    """The epilogue's stores to an output at the nest's own indices that
    nothing else in the nest accesses (nor may alias): each could hold
    values of its type between the reductions and the epilogue's nest."""
    ivs = nest.induction_vars
    candidates = [
        op
        for op in ops
        if isinstance(op, StoreOp)
        and len(op.indices) == len(ivs)
        and set(op.indices) == set(ivs)
    ]
    found: list[StoreOp] = []
    all_accesses = (
        [op for op in walk(nest) if isinstance(op, LoadOp | StoreOp)]
        if candidates
        else []
    )
    for store in candidates:
        buffer = store.buffer
        accesses = [op for op in all_accesses if op is not store]
        if any(op.buffer is buffer for op in accesses):
            continue
        if any(
            isinstance(op, LoadOp)
            and op.buffer.type == buffer.type
            and list(op.indices) == list(store.indices)
            and _kernel_arguments_may_alias(nest, op.buffer, buffer)
            for op in accesses
        ):
            continue
        found.append(store)
    return found


def _scratch_values(
    accumulator: SSAValue, ops: Sequence[Operation], types: Collection[Attribute]
) -> Iterator[tuple[SSAValue, list[Operation]]]:
    """The values the epilogue `ops` could keep between the reductions and
    the epilogue's nest, with the ops among `ops` that compute each (its
    head): the accumulator first (no head), then in order each result of
    one of `types` computed from the accumulator by pure region-free ops
    that `expand-math` leaves alone, such that the rest of the epilogue uses
    neither the accumulator nor what the head computes but that result (and
    the head's constants, the same in every copy)."""
    yield accumulator, []
    position = {op: n for n, op in enumerate(ops)}
    for op in ops:
        if len(op.results) != 1 or op.results[0].type not in types:
            continue
        if not _cheap_pure(op):
            continue
        head = _head(op, position)
        if head is None:
            continue
        value = op.results[0]
        inside = set(head)
        allowed = {value} | {r for h in head if not h.operands for r in h.results}
        used = {
            v
            for rest in ops
            if rest not in inside
            for inner in walk(rest)
            for v in inner.operands
        }
        made = {r for h in head for r in h.results}
        if accumulator not in used and not (used & made) - allowed:
            yield value, head


def _head(op: Operation, position: Mapping[Operation, int]) -> list[Operation] | None:
    """The ops among the epilogue's (`position`: each one's place) that
    `op`'s result depends on, `op` included, in order; None unless they
    depend on the accumulator (an operand from outside the epilogue that
    varies: a loop result) and are all cheap and pure."""
    wanted = {op}
    pending = [op]
    from_loop = False
    while pending:
        for operand in pending.pop().operands:
            owner = operand.owner
            if isinstance(owner, ForOp):
                from_loop = True
            elif owner in position and owner not in wanted:
                assert isinstance(owner, Operation)
                if not _cheap_pure(owner):
                    return None
                wanted.add(owner)
                pending.append(owner)
    if not from_loop:
        return None
    return sorted(wanted, key=position.__getitem__)


def _cheap_pure(op: Operation) -> bool:
    """Pure, region-free, and not one `expand-math` writes out."""
    return not op.regions and type(op) not in EXPANSIONS and is_pure(op)


def _recomputed(nest: ParallelOp) -> list[Operation] | None:
    """The ops before the reductions whose results the epilogue uses and
    that depend on the induction variables (with those they depend on, in
    order), to compute again per element; None when one is not pure."""
    body = list(nest.body.block.ops)
    ops = epilogue(nest)
    before = body[: body.index(ops[0])] if ops else body
    varying = dependents(nest.induction_vars, before)
    defined_before: dict[SSAValue, Operation] = {
        r: op for op in before for r in op.results
    }
    wanted: set[Operation] = set()
    pending = [v for op in ops for inner in walk(op) for v in inner.operands]
    while pending:
        value = pending.pop()
        owner = defined_before.get(value)
        if owner is None or value not in varying or owner in wanted:
            continue
        if isinstance(owner, ForOp):
            continue  # the accumulator: loaded back
        if not is_pure(owner):
            return None
        wanted.add(owner)
        pending += owner.operands
    return [op for op in before if op in wanted]


def _shareable(op: Operation) -> bool:
    """Region-free ops only: an inner nest reads the copy's own values."""
    return not op.regions and (isinstance(op, LoadOp) or is_pure(op))


def _jam_ops(
    ops: Iterable[Operation],
    maps: list[dict[SSAValue, SSAValue]],
    builder: Builder,
    lanes: Lanes | None,
    rows: RowCopies | None = None,
) -> None:
    """Clone `ops` once per copy (`maps[c]` maps the old values to copy c's),
    op by op; a load or pure op once per distinct list of operands, shared
    by the copies that have it. With `lanes`, the copies are vector copies
    and what varies along their dimension is cloned as vector ops. With
    `rows` (`ops` are that nest's body), an inner `loop.parallel` runs
    once over the copies where it can (`_merge_copies`)."""
    for op in ops:
        if isinstance(op, YieldOp):
            continue
        if isinstance(op, ForOp):
            _jam_for(op, maps, builder, lanes)
            continue
        if (
            isinstance(op, ParallelOp)
            and rows is not None
            and _merge_copies(op, maps, builder, rows)
        ):
            continue

        def clone(m: dict[SSAValue, SSAValue], op: Operation = op) -> None:
            if lanes is not None and lanes.vectorizes(op):
                lanes.clone(op, m, builder)
            else:
                builder.insert(op.clone(value_mapper=m))

        if not _shareable(op):
            for m in maps:
                clone(m)
            continue
        first_with: dict[tuple[SSAValue, ...], dict[SSAValue, SSAValue]] = {}
        for m in maps:
            key = tuple(m.get(v, v) for v in op.operands)
            if key not in first_with:
                first_with[key] = m
                clone(m)
                continue
            for old in op.results:
                m[old] = first_with[key][old]


def _jam_for(
    loop: ForOp,
    maps: list[dict[SSAValue, SSAValue]],
    builder: Builder,
    lanes: Lanes | None,
):
    """One `loop.for` carrying every copy's values (copy-major)."""
    first = maps[0]
    lower, upper, step = (
        b if isinstance(b, int) else first.get(b, b)
        for b in (loop.lower, loop.upper, loop.step)
    )

    def lane_value(value: SSAValue, arg: SSAValue, at: Builder) -> SSAValue:
        """A carried value as its copy carries it: a vector when it varies."""
        if lanes is not None and arg in lanes.varying:
            return lanes.splat(value, at)
        return value

    inits = [
        lane_value(m.get(v, v), arg, builder)
        for m in maps
        for v, arg in zip(loop.iter_args, loop.carried, strict=True)
    ]
    block = Block(arg_types=[IndexType(), *(v.type for v in inits)])
    jammed = builder.insert(ForOp(lower, upper, step, inits, Region(block)))
    count = len(loop.iter_args)
    block.args[0].name_hint = loop.induction_var.name_hint
    for c, m in enumerate(maps):
        m[loop.induction_var] = block.args[0]
        for r, arg in enumerate(loop.carried):
            m[arg] = block.args[1 + c * count + r]
            m[arg].name_hint = arg.name_hint
    inner = Builder(InsertPoint.at_end(block))
    _jam_ops(loop.body.block.ops, maps, inner, lanes)
    yielded = loop.yield_op().arguments
    block.add_op(
        YieldOp(
            *(
                lane_value(m.get(v, v), arg, inner)
                for m in maps
                for v, arg in zip(yielded, loop.carried, strict=True)
            )
        )
    )
    for c, m in enumerate(maps):
        for r, result in enumerate(loop.results):
            m[result] = jammed.results[c * count + r]


@dataclass(frozen=True)
class RowCopies:
    """The copies of a jam along one dimension: the old nest, the dimension,
    its step and the copies (copy c runs at the jammed index plus c steps;
    the lanes of a vector copy count one each), and which of the body's
    values differ between them."""

    nest: ParallelOp
    dim: int
    step: int
    copies: int
    differs: Callable[[SSAValue], bool]


def merge_plan(inner: ParallelOp, rows: RowCopies) -> list[Operation] | None:
    """The ops of the nest's body to compute again inside `inner` when it
    runs once for all copies (`_merge_copies`), in order; None when it
    cannot: it takes a value that differs between copies from an op that is
    neither pure nor a load that nothing from the load up to and through
    `inner` may overwrite, or its own bounds differ."""
    body = list(rows.nest.body.block.ops)
    position = {op: n for n, op in enumerate(body)}
    if rows.copies < 2 or inner not in position:
        return None
    if any(rows.differs(v) for v in inner.operands):
        return None
    iv = rows.nest.induction_vars[rows.dim]
    inside = {r for op in walk(inner) for r in op.results} | {
        a
        for op in walk(inner)
        for region in op.regions
        for b in region.blocks
        for a in b.args
    }
    pending = [
        v
        for op in walk(inner)
        for v in op.operands
        if v not in inside and v is not iv and rows.differs(v)
    ]
    wanted: set[Operation] = set()
    while pending:
        value = pending.pop()
        owner = value.owner
        if owner in wanted:
            continue
        if (
            not isinstance(owner, Operation)
            or position.get(owner, len(body)) >= (position[inner])
        ):
            return None
        if not _cheap_pure(owner) and not (
            isinstance(owner, LoadOp)
            and not _overwritten(
                owner, body[position[owner] + 1 : position[inner] + 1], rows.nest
            )
        ):
            return None
        wanted.add(owner)
        pending += [v for v in owner.operands if v is not iv and rows.differs(v)]
    return sorted(wanted, key=position.__getitem__)


def _merge_copies(
    inner: ParallelOp,
    maps: list[dict[SSAValue, SSAValue]],
    builder: Builder,
    rows: RowCopies,
) -> bool:
    """Run an inner `loop.parallel` of the nest's body once for all copies,
    as one nest with the copy's offset as an extra outer dimension, instead
    of one clone per copy; whether it did. A clone per copy gains nothing
    (the inner nest is not a reduction the copies interleave) and each clone
    is one more loop for LLVM to vectorize: softmax's exponentials, four
    times over. The values the inner nest takes from the body that differ
    between copies are computed again inside it from the copy's index (LLVM
    hoists them out of the inner loops), as scalars also where the copies
    are vector lanes (`merge_plan`); otherwise it is cloned."""
    recomputed = merge_plan(inner, rows)
    if recomputed is None:
        return False
    iv = rows.nest.induction_vars[rows.dim]
    bounds = [
        tuple(b if isinstance(b, int) else maps[0].get(b, b) for b in dim)
        for dim in bounds_of(inner)
    ]
    merged = ParallelOp(
        [0, *(b[0] for b in bounds)],
        [rows.copies * rows.step, *(b[1] for b in bounds)],
        [rows.step, *(b[2] for b in bounds)],
    )
    merged.attributes |= inner.attributes
    factors = inner.attributes.get(JAM_ATTRIBUTE)
    if isinstance(factors, DenseArrayBase):  # a jammed inner nest: one more dimension
        merged.attributes[JAM_ATTRIBUTE] = i64_array([1, *factors.get_values()])
    merged = builder.insert(merged)
    at = Builder(InsertPoint.before(merged.yield_op()))
    copy, *ivs = merged.induction_vars
    copy.name_hint = f"d{iv.name_hint or rows.dim}"
    mapping = dict(maps[0])
    mapping[iv] = at.insert(arith.AddiOp(maps[0][iv], copy)).result
    for new, old in zip(ivs, inner.induction_vars, strict=True):
        new.name_hint = old.name_hint
        mapping[old] = new
    for op in (*recomputed, *inner.body.block.ops):
        if not isinstance(op, YieldOp):
            at.insert(op.clone(value_mapper=mapping))
    for op in reversed(recomputed):  # the copies' own, now unused
        for m in maps:
            copied = m.get(op.results[0], op.results[0]).owner
            if (
                isinstance(copied, Operation)
                and copied.parent is not None
                and not any(r.uses for r in copied.results)
            ):
                copied.detach()
                copied.erase()
    return True


def _differs_between(
    maps: Sequence[Mapping[SSAValue, SSAValue]],
) -> Callable[[SSAValue], bool]:
    """Whether the scalar copies (`maps`, as far as they are built when it
    is asked) have different values for a value."""

    def differs(value: SSAValue) -> bool:
        first = maps[0].get(value, value)
        return any(m.get(value, value) is not first for m in maps[1:])

    return differs


def _overwritten(load: LoadOp, ops: Iterable[Operation], nest: ParallelOp) -> bool:
    """Whether any of `ops` (and the ops inside them) may write what `load`
    reads: a store to its buffer or one that may alias it, or an op whose
    effects are not known."""
    for op in ops:
        for inner in walk(op):
            if isinstance(inner, StoreOp):
                if inner.buffer is load.buffer or _kernel_arguments_may_alias(
                    nest, inner.buffer, load.buffer
                ):
                    return True
            elif not (
                inner.regions or isinstance(inner, LoadOp | YieldOp) or is_pure(inner)
            ):
                return True
    return False


def _nest_like(
    nest: ParallelOp,
    ranges: Mapping[int, tuple[Bound, Bound]],
    steps: Mapping[int, int],
    body: Region | None = None,
) -> ParallelOp:
    """A nest with the bounds of `nest` but for `ranges` and `steps`, the
    nest's attributes, and `body` (default: an empty one)."""
    lowers: list[Bound] = []
    uppers: list[Bound] = []
    step_list: list[Bound] = []
    for d, (lower, upper, step) in enumerate(bounds_of(nest)):
        low, up = ranges.get(d, (lower, upper))
        lowers.append(low)
        uppers.append(up)
        step_list.append(steps.get(d, step))
    made = ParallelOp(lowers, uppers, step_list, body)
    made.attributes |= nest.attributes
    for new, old in zip(made.induction_vars, nest.induction_vars, strict=True):
        new.name_hint = old.name_hint
    return made


def runtime_count(bounds: tuple[Bound, Bound, Bound]) -> bool:
    """Whether a dimension runs from a constant by 1 to a runtime bound: one
    a jam splits at run time (the whole tiles, then a remainder nest)."""
    lower, upper, step = bounds
    return isinstance(lower, int) and isinstance(upper, SSAValue) and step == 1


def jammable_trips(bounds: tuple[Bound, Bound, Bound]) -> int:
    """The most iterations of a dimension a jam can split: its trip count,
    the most its runtime bound allows (`most_trips`), 0 for other bounds."""
    if static_trip_count(*bounds) is None and not runtime_count(bounds):
        return 0
    return most_trips(*bounds)


def _split(nest: ParallelOp, bounds: tuple[Bound, Bound, Bound], factor: int) -> Bound:
    """Where a dimension's whole tiles of `factor` iterations end: a
    constant, or for a runtime bound `upper - (upper - lower) rem factor`
    computed before the nest (signed, so an empty range stays empty)."""
    lower, upper, step = bounds
    if isinstance(upper, int):
        assert isinstance(lower, int) and isinstance(step, int)
        count = static_trip_count(lower, upper, step)
        assert count is not None
        return lower + (count - count % factor) * step
    assert isinstance(lower, int)
    builder = Builder(InsertPoint.before(nest))
    span = upper
    if lower != 0:
        start = index_constant(builder, lower)
        span = builder.insert(arith.SubiOp(upper, start)).result
    rest = builder.insert(arith.RemSIOp(span, index_constant(builder, factor)))
    return builder.insert(arith.SubiOp(upper, rest.result)).result


def jam(
    nest: ParallelOp,
    factors: Mapping[int, int],
    vector: tuple[int, int] | None = None,
) -> Jammed | None:
    """Jam dimension d of `nest` by `factors[d]` (clipped to its trip count,
    or the most a runtime upper bound allows: the split is computed then);
    None, and the nest unchanged, when no factor above 1 is left or
    `jam_blocker` refuses. `vector` = (d, lanes) makes the copies along d
    vector copies (`passes/loop/jam_vector.py`) of the most lanes, up to `lanes`,
    that divide its factor (a power of two), where the nest allows."""
    bounds = bounds_of(nest)
    clipped: dict[int, int] = {}
    for d, factor in factors.items():
        if min(factor, jammable_trips(bounds[d])) > 1:
            clipped[d] = min(factor, jammable_trips(bounds[d]))
    if not clipped or jam_blocker(nest, clipped) is not None:
        return None
    splits: dict[int, Bound] = {}
    whole: dict[int, tuple[Bound, Bound]] = {}
    for d, factor in clipped.items():
        splits[d] = _split(nest, bounds[d], factor)
        whole[d] = (bounds[d][0], splits[d])
    steps = {d: bounds[d][2] * f for d, f in clipped.items()}  # type: ignore[operator]
    main = _nest_like(nest, whole, steps)
    main.attributes[JAM_ATTRIBUTE] = i64_array(
        [clipped.get(d, 1) for d in range(len(bounds))]
    )
    builder = Builder(InsertPoint.before(main.yield_op()))
    dims = list(clipped)
    scratch = None
    if ops_cost(epilogue(nest)) > CLONED_EPILOGUE_COST:
        scratch = epilogue_scratch(nest)
    lanes = _vector_copies(nest, clipped, vector, scratch)
    strides = {d: 1 for d in dims}
    if lanes is not None and vector is not None:
        strides[vector[0]] = lanes.width
    maps: list[dict[SSAValue, SSAValue]] = []
    offset_values: dict[tuple[int, int], SSAValue] = {}
    copies = (range(0, clipped[d], strides[d]) for d in dims)
    for offsets in itertools.product(*copies):
        m: dict[SSAValue, SSAValue] = dict(
            zip(nest.induction_vars, main.induction_vars, strict=True)
        )
        for d, offset in zip(dims, offsets, strict=True):
            if offset == 0:
                continue
            if (d, offset) not in offset_values:
                step = bounds[d][2]
                assert isinstance(step, int)
                shifted = arith.AddiOp(
                    main.induction_vars[d], index_constant(builder, offset * step)
                )
                offset_values[d, offset] = builder.insert(shifted).result
            m[nest.induction_vars[d]] = offset_values[d, offset]
        maps.append(m)
    rows = None
    if len(dims) == 1:
        step = bounds[dims[0]][2]
        assert isinstance(step, int)
        if lanes is None:
            rows = RowCopies(nest, dims[0], step, len(maps), _differs_between(maps))
        elif len(maps) == 1:
            rows = RowCopies(
                nest, dims[0], step, lanes.width, lanes.varying.__contains__
            )
    if scratch is None:
        _jam_ops(nest.body.block.ops, maps, builder, lanes, rows)
    else:
        _jam_with_epilogue_nest(
            nest, main, clipped, scratch, maps, builder, lanes, rows
        )
    at = Builder(InsertPoint.before(nest))
    at.insert(main)
    remainders: dict[int, ParallelOp] = {}
    done: dict[int, tuple[Bound, Bound]] = {}
    for d in dims:
        upper = bounds[d][1]
        if not isinstance(upper, int) or splits[d] != upper:
            ranges = {**done, d: (splits[d], upper)}
            rest = _nest_like(nest, ranges, {}, nest.body.clone())
            remainders[d] = at.insert(rest)
        done[d] = whole[d]
    nest.detach()
    nest.erase()
    return Jammed(main, remainders)


def _jam_with_epilogue_nest(
    nest: ParallelOp,
    main: ParallelOp,
    factors: Mapping[int, int],
    scratch: Scratch,
    maps: list[dict[SSAValue, SSAValue]],
    builder: Builder,
    lanes: Lanes | None,
    rows: RowCopies | None,
) -> None:
    """Jam the ops up to the reductions and the epilogue's head, store each
    copy's scratch value to its element of the scratch output (its
    elements, for a vector copy), then one nest over the tile's offsets runs
    the rest of the epilogue per element on the value loaded back."""
    body = list(nest.body.block.ops)
    before = body[: body.index(epilogue(nest)[0])]
    _jam_ops([*before, *scratch.head], maps, builder, lanes, rows)
    store = scratch.store
    for m in maps:
        indices = [m.get(v, v) for v in store.indices]
        builder.insert(StoreOp(m[scratch.value], store.buffer, indices))
    if scratch.tail == [store] and store.value is scratch.value:
        return  # the copies' stores are the epilogue's: nothing is left to run
    bounds = bounds_of(nest)
    dims = list(factors)
    steps: list[int] = []
    for d in dims:
        step = bounds[d][2]
        assert isinstance(step, int)
        steps.append(step)
    uppers: list[Bound] = [factors[d] * s for d, s in zip(dims, steps, strict=True)]
    tile = builder.insert(ParallelOp([0] * len(dims), uppers, list[Bound](steps)))
    inner = Builder(InsertPoint.before(tile.yield_op()))
    mapping: dict[SSAValue, SSAValue] = dict(maps[0])
    for d, offset in zip(dims, tile.induction_vars, strict=True):
        offset.name_hint = f"d{nest.induction_vars[d].name_hint or d}"
        shifted = arith.AddiOp(main.induction_vars[d], offset)
        mapping[nest.induction_vars[d]] = inner.insert(shifted).result
    indices = [mapping.get(v, v) for v in store.indices]
    mapping[scratch.value] = inner.insert(LoadOp(store.buffer, indices)).result
    recomputed = _recomputed(nest)
    assert recomputed is not None
    for op in (*recomputed, *scratch.tail):
        inner.insert(op.clone(value_mapper=mapping))


def vector_lanes(nest: ParallelOp, dim: int, width: int) -> int:
    """The lanes of the vector copies `jam(nest, {dim: width}, (dim, width))`
    would make, 0 where it would make scalar copies (or none)."""
    if jammable_trips(bounds_of(nest)[dim]) < width or jam_blocker(nest, [dim]):
        return 0
    scratch = None
    if ops_cost(epilogue(nest)) > CLONED_EPILOGUE_COST:
        scratch = epilogue_scratch(nest)
    lanes = _vector_copies(nest, {dim: width}, (dim, width), scratch)
    return 0 if lanes is None else lanes.width


def _vector_copies(
    nest: ParallelOp,
    factors: Mapping[int, int],
    vector: tuple[int, int] | None,
    scratch: Scratch | None,
) -> Lanes | None:
    """The vector copies of the jam, or None for scalar copies: `vector`'s
    dimension must step by 1 and the ops cloned per copy (those before the
    epilogue and the accumulator's store, when the epilogue runs once per
    tile) must allow them (`jam_vector.blocker`)."""
    if vector is None or vector[0] not in factors:
        return None
    dim, most = vector
    factor = factors[dim]
    width = 1
    while width * 2 <= most and factor % (width * 2) == 0:
        width *= 2
    if width == 1 or bounds_of(nest)[dim][2] != 1:
        return None
    iv = nest.induction_vars[dim]
    body = [op for op in nest.body.block.ops if not isinstance(op, YieldOp)]
    if scratch is None:
        cloned = body
    else:
        cloned = [*body[: body.index(epilogue(nest)[0])], *scratch.head]
        if scratch.store.indices[-1] is not iv:
            return None
    varying = dependents([iv], body)
    if len(factors) == 1 and factor == width:
        rows = RowCopies(nest, dim, 1, width, varying.__contains__)
        cloned = [
            op
            for op in cloned
            if not isinstance(op, ParallelOp) or merge_plan(op, rows) is None
        ]
    addresses = lane_addresses(cloned, iv, varying)
    if blocker(cloned, varying, addresses, width) is not None:
        return None
    return Lanes(varying, addresses, width)
