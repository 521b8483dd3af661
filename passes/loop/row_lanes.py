"""Rows as vector lanes: row reductions kept in order, at vector speed.

A float row sum (`loop.for %j { acc = acc + f(x[i, j]) }`) must add its
terms in order (docs/cpu.md: the bits are those of a fixed order), so it
cannot be split into partial sums along the row; nor can a reduction
`vectorize` cannot split at all (an argmax's compares and selects, ties to
the first index). Row jamming (`vectorize.jam_rows`) interleaves a few
rows' scalar chains; LLVM's ordered vector reduction then spends an
extract and a dependent add per element. Here the rows are the vector
lanes instead: the nest is jammed along its row dimension by `width` as
one vector copy (`passes/loop/jam_vector.py`), so lane l carries row
i + l's accumulator and adds that row's terms in the row's own order, one
vector add per column for all `width` rows: the same operations on every
element as before, so the same bits.

Lane l of a vector copy loads `x[i + l, j]`, a row's length away from
lane l - 1's element: gathered a lane at a time it ran slower than the scalar
rows (the rows' lines, a power of two of bytes apart, also share one L1
set). So each row loop that loads along its own induction variable steps
by `width` (then a remainder loop with the old body), and the `width` x
`width` tile a step reads is loaded as `width` contiguous vectors, one per
row, and transposed in registers (`transpose`: log2(width) rounds of
`width` two-input shuffles). In a nest of cheap steps (below), the step's
elementwise ops of the loaded values alone (a row dot's products; with
values the step does not change: constants, a row's mean, lane l's for
row l) run on those row vectors, before the transpose, the same op on the
same elements: only their results are transposed (`_rowwise`: one tile for
a dot, not one per operand). Many such ops (a bf16 sum's
decoding and rounding, as `widen-floats` writes them) run once, in a loop
over the tile's rows (`_row_loop`), not once per row. A small costly step (an exponential) then
runs once, in a loop over the tile's columns that carries them rotated by
one (`_column_loop`): one copy of the step to compile rather than `width`. The
others are written out once per column, copy k taking column k: a cheap
step costs little to compile and ran faster so, and a big one's rotated
columns did not fit in the registers (`_looped`). A big step whose costly
part (a transcendental) is of the loads and of values fixed along the loop
(random categorical's hash bits to float, two logarithms and an add) runs
that part on the rows instead, on half tiles (`_half_rows`): the loop steps
by `width`/2 columns, and row l of a step's tile is rows l and l + `width`/2,
half a vector each, loaded as one vector, which is the tile after the
transpose's first round: `width`/2 copies of the part rather than `width`,
and one tile transposed, the part's result's, not one per load (a loop over
the rows, one copy, ran slower: the copies' chains of dependent ops side
by side hide each other's latency). A loop whose combiners
reorder exactly (the row max beside logsumexp's sum, beside an argmax)
transposes nothing: each row's vector goes into partial results of its own,
and after the loop log2(width) rounds of shuffles and combiners give lane l
row l's result (`_row_partials`: no shuffles in the loop, half of a
transpose's after it). Each chain of adds is still in order, and
`block-sums` later splits the loop into the same blocks of columns as the
plain one (`width` divides its block; it counts the column loop's adds
through the columns it carries).

An inner `loop.parallel` of the rows (a layer norm's normalizing, softmax's
exponentials, reading the row sums the lanes stored as one vector) runs
once over the tile's rows as scalar code, the row its outer dimension
(`jam._merge_copies`; LLVM vectorizes it along its own columns); a nest
with one that cannot run so keeps scalar rows.

A nest is rewritten only where every load in its loops that moves along
the rows is such a load: the row dimension in one leading index (plus
something that does not move along it), the last index the enclosing
`loop.for`'s induction variable, that loop's bounds static, its step 1 and
at least `width` trips; where some loop's step computes a transcendental
that `expand-math` writes out (logsumexp's exponentials), or else every
loop's step is small past its row-wise ops (`CHEAP_STEP_OPS`,
`CHEAP_STEP_LOADS`: a row dot, an argmax, a bf16 layer norm's sums), with
at most `CHEAP_LANES` lanes; and only where the vector copy is possible at all
(`jam.vector_lanes`): otherwise `vectorize` jams scalar rows as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import (
    I64,
    AnyFloat,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xlir.analysis.dependence import dependents
from xlir.analysis.loop_utils import (
    bounds_of,
    constant_int,
    finish_with_remainder,
    index_constant,
    is_pure,
    static_trip_count,
)
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp
from xlir.passes.loop.combiners import exact_combiners, identity
from xlir.passes.loop.expand_math import EXPANSIONS
from xlir.passes.loop.jam import (
    Jammed,
    index_dim,
    jam,
    jammable_trips,
    vector_lanes,
)
from xlir.passes.loop.widen_floats import is_narrow

from xlir.walk import walk

LOOPED_STEP_OPS = 16
"""The most ops (the lane loads aside, the yield included) a step may have
to run once in a loop over a tile's columns (`_looped`); past it, a step's
row-wise ops run once in a loop over the tile's rows (`_row_loop`)."""

CHEAP_STEP_OPS = 16
"""The most ops (the yield included; in a step that loads bf16 or f16, the
row-wise ops, `_rowwise`, and the constants only they use aside: its
decoding and rounding) of each step of a nest without a transcendental
whose rows still become lanes (a row dot's or an argmax's): past it the
steps' per-column copies cost more compile time than the lanes win. An f32
step's row-wise ops count: how long f32 chains fare as row-wise ops is
unmeasured."""

CHEAP_STEP_LOADS = 2
"""The most loads of each such step: each one is a tile to load and
transpose."""

CHEAP_LANES = 8
"""The lanes of such a nest, at most: a cheap step is bound by its loads and
transposes, which 16 lanes (a 16 x 16 tile, four rounds of shuffles) made
no faster than 8, for twice the code."""


def lane_rows(nest: ParallelOp, width: int) -> Jammed | None:
    """Jam the nest's row dimension (its largest) as one vector copy of
    `width` lanes and load each row loop's tiles transposed (module
    docstring); None, the nest unchanged, where it does not apply."""
    counts = [jammable_trips(b) for b in bounds_of(nest)]
    if not counts or width < 2:
        return None
    dim = max(range(len(counts)), key=lambda d: counts[d])
    cheap = not any(
        type(op) in EXPANSIONS and isinstance(op.parent_op(), ForOp)
        for op in walk(nest)
    )
    if cheap:
        if not _cheap_steps(nest):
            return None
        width = min(width, CHEAP_LANES)
    if not _row_loads_only(nest, dim, width) or vector_lanes(nest, dim, width) != width:
        return None
    jammed = jam(nest, {dim: width}, (dim, width))
    assert jammed is not None
    for loop in [op for op in walk(jammed.nest) if isinstance(op, ForOp)]:
        transpose_row_loads(loop, width, rowwise=cheap)
    return jammed


def _cheap_steps(nest: ParallelOp) -> bool:
    """Whether every loop of the nest that carries values has a step of at
    most `CHEAP_STEP_OPS` ops and `CHEAP_STEP_LOADS` loads."""
    loops = [op for op in walk(nest) if isinstance(op, ForOp) and op.iter_args]
    for loop in loops:
        body = loop.body.block
        loads = [op for op in body.ops if isinstance(op, LoadOp)]
        ops = set(body.ops)
        if any(is_narrow(op.result.type) for op in loads):
            early = _rowwise(body, {op.result for op in loads}, set())
            ops -= _dead_without(set(early), body)
        if len(ops) > CHEAP_STEP_OPS or len(loads) > CHEAP_STEP_LOADS:
            return False
    return bool(loops)


def _row_loads_only(nest: ParallelOp, dim: int, width: int) -> bool:
    """Whether the loads in the nest's loops that move along dimension
    `dim` all load along their loop's induction variable (module
    docstring), and there is one."""
    iv = nest.induction_vars[dim]
    varying = dependents([iv], nest.body.block.ops)
    found = False
    for op in walk(nest):
        if not isinstance(op, LoadOp) or not any(v in varying for v in op.indices):
            continue
        loop = op.parent_op()
        if not isinstance(loop, ForOp) or loop is nest:
            continue
        *leading, last = op.indices
        count = static_trip_count(loop.lower, loop.upper, loop.step)
        moving = [v for v in leading if v in varying]
        if (
            last is not loop.induction_var
            or loop.step != 1
            or count is None
            or count < width
            or len(moving) != 1
            or index_dim(moving[0], [iv]) != 0
        ):
            return False
        found = True
    return found


@dataclass
class _LaneLoads:
    """A vector built lane by lane from loads of `x[..., row + l, ..., j]`
    (`jam_vector.Lanes._into_vector`): its ops, and how to load its rows."""

    result: SSAValue
    ops: list[Operation]
    buffer: SSAValue
    indices: list[SSAValue]
    """Lane 0's indices, the last one the loop's induction variable."""
    position: int
    """The index that moves along the lanes."""


def _lane_loads(op: Operation, loop: ForOp, width: int) -> _LaneLoads | None:
    """The lane-by-lane loads that `op` starts (a broadcast of lane 0's
    load), when lane l loads lane 0's element l rows on and the last index
    is `loop`'s induction variable; else None."""
    if not isinstance(op, vector.BroadcastOp):
        return None
    first = op.operands[0].owner
    if not isinstance(first, LoadOp) or first.parent is not op.parent:
        return None
    indices = list(first.indices)
    if not indices or indices[-1] is not loop.induction_var:
        return None
    ops: list[Operation] = [first, op]
    value = op.results[0]
    position: int | None = None
    for lane in range(1, width):
        insert = value.get_user_of_unique_use()
        if not isinstance(insert, vector.InsertOp) or insert.dest is not value:
            return None
        load = insert.source.owner
        if (
            insert.static_position.get_values() != (lane,)
            or not isinstance(load, LoadOp)
            or load.buffer is not first.buffer
            or not load.result.has_one_use()
        ):
            return None
        moved = [
            k
            for k, (a, b) in enumerate(zip(indices, load.indices, strict=True))
            if a is not b
        ]
        if len(moved) != 1 or (position is not None and moved != [position]):
            return None
        position = moved[0]
        if not _offset_of(load.indices[position], indices[position], lane):
            return None
        ops += [load, insert]
        value = insert.result
    if position is None or not first.result.has_one_use():
        return None
    type_ = first.buffer.type
    assert isinstance(type_, MemRefType)
    return _LaneLoads(value, ops, first.buffer, indices, position)


def _offset_of(index: SSAValue, base: SSAValue, lane: int) -> bool:
    """Whether `index` is `base + lane`."""
    owner = index.owner
    if not isinstance(owner, arith.AddiOp):
        return False
    for this, other in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
        if this is base and constant_int(other) == lane:
            return True
    return False


def transpose_row_loads(loop: ForOp, width: int, rowwise: bool = False) -> bool:
    """Unroll `loop` by `width` and load its lane-by-lane row loads as
    transposed tiles (module docstring), the step's elementwise ops of the
    loads alone run on the row vectors first where `rowwise` (`_rowwise`);
    whether it changed."""
    body = loop.body.block
    found = [g for op in body.ops if (g := _lane_loads(op, loop, width))]
    count = static_trip_count(loop.lower, loop.upper, loop.step)
    if not found or count is None or count < width or loop.step != 1:
        return False
    lower = loop.lower
    assert isinstance(lower, int)
    skipped = _dead_without({op for g in found for op in g.ops}, body)
    split = lower + count - count % width
    builder = Builder(InsertPoint.before(loop))
    partials = _row_partials(loop, found, skipped, width, split, builder)
    if partials is not None:
        finish_with_remainder(loop, partials, split, builder)
        return True
    loaded = {g.result for g in found}
    early = _rowwise(body, loaded, skipped) if rowwise else []
    skipped = _dead_without(skipped | set(early), body)
    looped = _looped(loop, skipped)
    costly = [] if rowwise or looped else _rowwise(body, loaded, skipped, True)
    if not any(type(op) in EXPANSIONS for op in costly):
        costly = []
    varying = dependents(loaded, costly)
    moving = [op for op in costly if op.results[0] in varying]
    skipped = _dead_without(skipped | set(moving), body)
    transposed = _transposed(found, early + moving, skipped)
    columns = width // 2 if costly else width
    split = lower + count - count % columns
    block = Block(arg_types=[a.type for a in body.args])
    main = builder.insert(
        ForOp(lower, split, columns, list(loop.iter_args), Region(block))
    )
    inner = Builder(InsertPoint.at_end(block))
    start = block.args[0]
    if costly:
        rows = _half_rows(found, costly, moving, transposed, start, width, inner)
    else:
        rows = _row_values(found, early, start, width, inner)
    tiles = [transpose(rows[v], inner, lanes=width) for v in transposed]
    carried: list[SSAValue] = list(block.args[1:])
    indexed = any(u.operation not in skipped for u in loop.induction_var.uses)
    if looped:
        carried = _column_loop(
            loop, transposed, tiles, carried, start, indexed, skipped, inner
        )
    else:
        for k in range(columns):
            index = start
            if k and indexed:
                index = inner.insert(
                    arith.AddiOp(start, index_constant(inner, k))
                ).result
            column = [tile[k] for tile in tiles]
            carried = _step(loop, transposed, column, carried, index, skipped, inner)
    inner.insert(YieldOp(*carried))
    finish_with_remainder(loop, main.results, split, builder)
    return True


def _row_values(
    found: list[_LaneLoads],
    early: list[Operation],
    start: SSAValue,
    width: int,
    builder: Builder,
) -> dict[SSAValue, list[SSAValue]]:
    """The tile from column `start` of each lane load and row-wise op
    (`_rowwise`) as its rows: row l holds lane l's values of `width` steps."""
    rows = {g.result: _load_rows(g, start, width, builder) for g in found}
    cloned: dict[SSAValue, SSAValue] = {}
    made = {op.results[0] for op in early}
    for op in early:
        body = op.parent_block()
        assert body is not None
        for v in op.operands:
            if v not in rows and v not in made:
                rows[v] = _invariant_rows(v, body, cloned, width, builder)
    if len(early) > LOOPED_STEP_OPS:
        return _row_loop(early, rows, width, builder)
    for op in early:
        rows[op.results[0]] = [
            builder.insert(
                op.clone(value_mapper={v: rows[v][lane] for v in op.operands})
            ).results[0]
            for lane in range(width)
        ]
    return rows


def _row_loop(
    early: list[Operation],
    rows: dict[SSAValue, list[SSAValue]],
    width: int,
    builder: Builder,
) -> dict[SSAValue, list[SSAValue]]:
    """`rows` with the row-wise ops' results, the ops run once, in a loop
    over the tile's rows (more than `LOOPED_STEP_OPS` of them: a bf16
    rounding's, written out per row, took LLVM longer than the scalar rows
    did): as `_column_loop`, it carries its inputs' rows rotated by one and
    each result's rows so far, the newest last, so trip k takes row k and
    after `width` trips the results are in row order."""
    ran = set(early)
    used = {v for op in early for v in op.operands}
    inputs = [v for v in rows if v in used and len(set(rows[v])) > 1]
    made = [
        op.results[0]
        for op in early
        if any(u.operation not in ran for u in op.results[0].uses)
    ]
    passed = [r for v in inputs for r in rows[v]]
    passed += [z for v in made for z in [_zero(v.type, builder)] * width]
    block = Block(arg_types=[IndexType(), *(v.type for v in passed)])
    inside = Builder(InsertPoint.at_end(block))
    args = list(block.args[1:])
    mapping = {v: rows[v][0] for v in used if v in rows}
    mapping.update({v: args[n * width] for n, v in enumerate(inputs)})
    for op in early:
        inside.insert(op.clone(value_mapper=mapping))
    rotated = [
        args[n * width + (k + 1) % width]
        for n in range(len(inputs))
        for k in range(width)
    ]
    sofar = args[len(inputs) * width :]
    for n, v in enumerate(made):
        rotated += [*sofar[n * width + 1 : (n + 1) * width], mapping[v]]
    inside.insert(YieldOp(*rotated))
    loop = builder.insert(ForOp(0, width, 1, passed, Region(block)))
    results: list[SSAValue] = list(loop.results[len(inputs) * width :])
    for n, v in enumerate(made):
        rows[v] = results[n * width : (n + 1) * width]
    return rows


def _zero(type_: Attribute, builder: Builder) -> SSAValue:
    """A vector of `type_` of zeros: a start for `_row_loop`'s results."""
    assert isinstance(type_, VectorType)
    scalar = type_.get_element_type()
    value = (
        IntegerAttr(0, scalar)
        if isinstance(scalar, IntegerType)
        else FloatAttr(0.0, cast(AnyFloat, scalar))
    )
    zero = builder.insert(arith.ConstantOp(value, scalar)).result
    return builder.insert(vector.BroadcastOp(zero, type_)).vector


def _invariant_rows(
    value: SSAValue,
    body: Block,
    cloned: dict[SSAValue, SSAValue],
    width: int,
    builder: Builder,
) -> list[SSAValue]:
    """An `_invariant` operand of a row-wise op as each row's: itself where
    its lanes are all the same (a constant's broadcast), else lane l's value
    broadcast for row l (a row's mean the step subtracts)."""
    value = _clone_invariant(value, body, cloned, builder)
    type_ = value.type
    if not isinstance(type_, VectorType) or _same_in_lanes(value):
        return [value] * width
    return [
        _shuffle(
            value, value, DenseArrayBase.from_list(i64, [lane] * width), type_, builder
        )
        for lane in range(width)
    ]


def _clone_invariant(
    value: SSAValue, body: Block, cloned: dict[SSAValue, SSAValue], builder: Builder
) -> SSAValue:
    """`value` (`_invariant`), copied at `builder` with what it is made of
    where the step `body` defines it (constants and their broadcasts)."""
    op = value.owner
    if not isinstance(op, Operation) or op.parent_block() is not body:
        return value
    if value not in cloned:
        mapper = {v: _clone_invariant(v, body, cloned, builder) for v in op.operands}
        cloned[value] = builder.insert(op.clone(value_mapper=mapper)).results[0]
    return cloned[value]


def _same_in_lanes(value: SSAValue) -> bool:
    """Whether every lane of `value` is known to be the same: a broadcast, or
    an `arith` op's of such."""
    op = value.owner
    if isinstance(op, vector.BroadcastOp):
        return True
    return (
        isinstance(op, Operation)
        and op.dialect_name() == "arith"
        and bool(op.operands)
        and all(
            _same_in_lanes(v) or not isinstance(v.type, VectorType) for v in op.operands
        )
    )


def _row_partials(
    loop: ForOp,
    found: list[_LaneLoads],
    skipped: set[Operation],
    width: int,
    split: int,
    builder: Builder,
) -> list[SSAValue] | None:
    """Where every combiner of `loop` reorders exactly (a row max) and
    combines a value of the loads alone (`_rowwise`), with nothing else in
    the step: the loop up to `split` with no transpose, each row of the tile
    combined into a vector of partial results of its own (started from the
    combiner's identity), then each row's partials combined into its lane
    (`_combine_lanes`) and with `loop`'s initial values; those values, or
    None."""
    combiners = exact_combiners(loop)
    body = loop.body.block
    if combiners is None:
        return None
    early = _rowwise(body, {g.result for g in found}, skipped)
    produced = {g.result for g in found} | {op.results[0] for op in early}
    elements: list[SSAValue] = []
    for combiner, arg in zip(combiners, loop.carried, strict=True):
        others = [v for v in combiner.operands if v is not arg]
        if len(others) != 1 or others[0] not in produced:
            return None
        elements.append(others[0])
    step = skipped | set(early) | set(combiners) | {loop.yield_op()}
    if any(op not in step for op in body.ops) or not all(
        isinstance(arg.type, VectorType) for arg in loop.carried
    ):
        return None
    inits: list[SSAValue] = []
    for combiner, arg in zip(combiners, loop.carried, strict=True):
        type_ = arg.type
        assert isinstance(type_, VectorType)
        scalar = type_.get_element_type()
        constant = arith.ConstantOp(identity(combiner.name, scalar), scalar)
        start = builder.insert(constant).result
        inits += [builder.insert(vector.BroadcastOp(start, type_)).vector] * width
    block = Block(arg_types=[loop.induction_var.type, *(v.type for v in inits)])
    lower = loop.lower
    assert isinstance(lower, int)
    main = builder.insert(ForOp(lower, split, width, inits, Region(block)))
    inner = Builder(InsertPoint.at_end(block))
    rows = _row_values(found, early, block.args[0], width, inner)
    yielded: list[SSAValue] = []
    triples = zip(combiners, loop.carried, elements, strict=True)
    for n, (combiner, arg, element) in enumerate(triples):
        for lane in range(width):
            mapping = {
                arg: block.args[1 + n * width + lane],
                element: rows[element][lane],
            }
            yielded.append(
                inner.insert(combiner.clone(value_mapper=mapping)).results[0]
            )
    inner.insert(YieldOp(*yielded))
    results: list[SSAValue] = []
    triples = zip(combiners, loop.carried, elements, strict=True)
    for n, (combiner, arg, element) in enumerate(triples):
        partials: list[SSAValue] = list(main.results[n * width : (n + 1) * width])
        lanes = _combine_lanes(partials, combiner, arg, element, builder)
        mapping = {arg: loop.iter_args[n], element: lanes}
        results.append(builder.insert(combiner.clone(value_mapper=mapping)).results[0])
    return results


def _half_rows(
    found: list[_LaneLoads],
    rowwise: list[Operation],
    moving: list[Operation],
    transposed: list[SSAValue],
    start: SSAValue,
    width: int,
    builder: Builder,
) -> dict[SSAValue, list[SSAValue]]:
    """Rows 0 to `width`/2 of each of `transposed`'s tiles of `width` rows
    by `width`/2 columns from `start` after `transpose`'s first round, the
    row-wise ops (`_rowwise` with invariants; `moving`: those of the loads,
    the others written once) run on them: row l is rows l
    and l + `width`/2 of each lane load, half a vector each, loaded as one
    vector. Half as many copies of a costly row-wise part (random
    categorical's hash, bits to float and two logarithms) as a copy per
    column, the same ops on the same elements, and one tile to transpose,
    not one per load."""
    half = width // 2
    concatenate = DenseArrayBase.from_list(i64, list(range(width)))
    rows: dict[SSAValue, list[SSAValue]] = {value: [] for value in transposed}
    fixed: dict[SSAValue, SSAValue] = {}
    for op in rowwise:
        if op not in moving:
            builder.insert(op.clone(value_mapper=fixed))
    for row in range(half):
        mapping = dict(fixed)
        for lanes in found:
            type_ = lanes.buffer.type
            assert isinstance(type_, MemRefType)
            half_type = VectorType(type_.element_type, [half])
            halves: list[SSAValue] = []
            for offset in (row, row + half):
                indices = list(lanes.indices)
                if offset:
                    offset_value = index_constant(builder, offset)
                    indices[lanes.position] = builder.insert(
                        arith.AddiOp(indices[lanes.position], offset_value)
                    ).result
                indices[-1] = start
                load = LoadOp(lanes.buffer, indices, half_type)
                halves.append(builder.insert(load).result)
            vector_type = VectorType(type_.element_type, [width])
            low, high = halves
            mapping[lanes.result] = _shuffle(
                low, high, concatenate, vector_type, builder
            )
        for op in moving:
            builder.insert(op.clone(value_mapper=mapping))
        for value in transposed:
            rows[value].append(mapping[value])
    return rows


def _combine_lanes(
    rows: list[SSAValue],
    combiner: Operation,
    arg: SSAValue,
    element: SSAValue,
    builder: Builder,
) -> SSAValue:
    """One vector whose lane l combines the lanes of `rows[l]` (`combiner`,
    its operands `arg` and `element`): `transpose`'s rounds, each combining
    the two rows it makes of a pair into one, so that round h halves the
    rows (2 x 2h shuffles and h combiners for the 2h rows left)."""

    def combine(low: SSAValue, high: SSAValue) -> SSAValue:
        mapping = {arg: low, element: high}
        return builder.insert(combiner.clone(value_mapper=mapping)).results[0]

    return transpose(rows, builder, combine)[0]


def _rowwise(
    body: Block,
    loaded: set[SSAValue],
    skipped: set[Operation],
    invariants: bool = False,
) -> list[Operation]:
    """The step's elementwise ops (`arith`, `math`) of the lane loads alone
    (a row dot's products), in order: each row's vector of the tile goes
    through them before the transpose, the same op on the same elements, so
    only their results are transposed (one tile, not one per load). With
    `invariants`, also of values that do not change along the loop (defined
    outside it, or by pure ops of such values, which are then among the ops
    returned): random categorical's hash, bits to float and logarithms."""
    found: list[Operation] = []
    inputs = set(loaded)
    fixed: set[SSAValue] = set()

    def outside(v: SSAValue) -> bool:
        return v in fixed or (
            invariants and v.owner is not body and v.owner not in body_ops
        )

    body_ops = set(body.ops)
    for op in body.ops:
        if op in skipped or op.regions or len(op.results) != 1 or not is_pure(op):
            continue
        if invariants and all(outside(v) for v in op.operands):
            found.append(op)
            fixed.add(op.results[0])
        elif (
            op.dialect_name() in ("arith", "math")
            and any(v in inputs for v in op.operands)
            and all(
                v in inputs or outside(v) or (not invariants and _invariant(v, body))
                for v in op.operands
            )
        ):
            found.append(op)
            inputs.add(op.results[0])
    return found


def _invariant(value: SSAValue, body: Block) -> bool:
    """Whether `value` is the same at every column of the step `body`: a
    value from outside it (a row's mean), or a pure op's of such (a bf16
    rounding's constants and their broadcasts)."""
    op = value.owner
    if not isinstance(op, Operation) or op.parent_block() is not body:
        return not (isinstance(op, Block) and op is body)
    return (
        not op.regions
        and is_pure(op)
        and op.dialect_name() in ("arith", "vector")
        and all(_invariant(v, body) for v in op.operands)
    )


def _transposed(
    found: list[_LaneLoads], rowwise: list[Operation], skipped: set[Operation]
) -> list[SSAValue]:
    """The lane loads' and row-wise ops' values the rest of the step uses:
    those whose tiles are transposed."""
    values = [g.result for g in found] + [op.results[0] for op in rowwise]
    return [v for v in values if any(u.operation not in skipped for u in v.uses)]


def _looped(loop: ForOp, skipped: set[Operation]) -> bool:
    """Whether `loop`'s step runs in a loop over a tile's columns: where it
    computes a transcendental (a cheap step, written out per column, costs
    little to compile, and ran faster so) and, the lane loads aside, is
    small enough for the rotated columns to stay in registers (random
    categorical's step of a hash and two logs, 100 ops, spilled them: 1.5x
    the time)."""
    ops = [op for op in loop.body.block.ops if op not in skipped]
    return len(ops) <= LOOPED_STEP_OPS and any(type(op) in EXPANSIONS for op in ops)


def _column_loop(
    loop: ForOp,
    transposed: list[SSAValue],
    tiles: list[list[SSAValue]],
    carried: Sequence[SSAValue],
    start: SSAValue,
    indexed: bool,
    skipped: set[Operation],
    builder: Builder,
) -> list[SSAValue]:
    """`loop`'s step once, in a loop over the tiles' columns from `start`
    (`carried`: `loop`'s values there, `indexed`: whether the step uses the
    column's index): it carries the columns before `loop`'s values, takes the
    first as the lane loads' vector and passes them on rotated by one, so
    trip k sees column k (LLVM keeps the rotation in registers, moves at
    rename); `loop`'s values after the tile."""
    width = len(tiles[0])
    passed = [column for tile in tiles for column in tile]
    types = [v.type for v in (*passed, *carried)]
    block = Block(arg_types=[start.type, *types])
    trip, rotating = block.args[0], list(block.args[1 : 1 + len(passed)])
    inside = Builder(InsertPoint.at_end(block))
    index = inside.insert(arith.AddiOp(start, trip)).result if indexed else trip
    column = rotating[::width]
    accumulators = list(block.args[1 + len(passed) :])
    yielded = _step(loop, transposed, column, accumulators, index, skipped, inside)
    rotated = [
        rotating[n * width + (k + 1) % width]
        for n in range(len(tiles))
        for k in range(width)
    ]
    inside.insert(YieldOp(*rotated, *yielded))
    columns = builder.insert(ForOp(0, width, 1, [*passed, *carried], Region(block)))
    return list(columns.results[len(passed) :])


def _step(
    loop: ForOp,
    transposed: list[SSAValue],
    column: Sequence[SSAValue],
    carried: Sequence[SSAValue],
    index: SSAValue,
    skipped: set[Operation],
    builder: Builder,
) -> list[SSAValue]:
    """A copy of `loop`'s step at column `index` of the tiles (`column`: each
    tile's vector there) from `carried`; the values it yields."""
    mapping: dict[SSAValue, SSAValue] = {loop.induction_var: index}
    mapping.update(zip(loop.carried, carried, strict=True))
    mapping.update(zip(transposed, column, strict=True))
    yielded: list[SSAValue] = []
    for op in loop.body.block.ops:
        if isinstance(op, YieldOp):
            yielded = [mapping.get(v, v) for v in op.arguments]
        elif op not in skipped:
            builder.insert(op.clone(value_mapper=mapping))
    return yielded


def _dead_without(removed: set[Operation], body: Block) -> set[Operation]:
    """`removed` and the pure ops of `body` only they use (the lanes' row
    offsets)."""
    dead = set(removed)
    for op in reversed(list(body.ops)):
        if op in dead or not is_pure(op) or not op.results:
            continue
        if all(use.operation in dead for r in op.results for use in r.uses):
            dead.add(op)
    return dead


def _load_rows(
    lanes: _LaneLoads, start: SSAValue, width: int, builder: Builder
) -> list[SSAValue]:
    """The tile of `width` rows by `width` columns from `start` that the lane
    loads read across its steps, as its rows: row l holds lane l's elements
    of the `width` steps."""
    type_ = lanes.buffer.type
    assert isinstance(type_, MemRefType)
    vector_type = VectorType(type_.element_type, [width])
    base = lanes.indices[lanes.position]
    rows: list[SSAValue] = []
    for lane in range(width):
        row = base
        if lane:
            row = builder.insert(
                arith.AddiOp(base, index_constant(builder, lane))
            ).result
        indices = list(lanes.indices)
        indices[lanes.position] = row
        indices[-1] = start
        rows.append(builder.insert(LoadOp(lanes.buffer, indices, vector_type)).result)
    return rows


def transpose(
    rows: list[SSAValue],
    builder: Builder,
    combine: Callable[[SSAValue, SSAValue], SSAValue] | None = None,
    lanes: int | None = None,
) -> list[SSAValue]:
    """The columns of the square tile whose rows are `rows` (vectors of
    `len(rows)` lanes, a power of two): in each round, for the distance h =
    n/2, n/4, ..., 1, rows a and a + h (a & h == 0) swap their off-diagonal
    h x h blocks, each new row one two-input shuffle. With `combine`, each
    round combines the two new rows of a pair into row a and keeps the
    first h rows: row 0 then holds in lane l the combination of `rows[l]`'s
    lanes. Where `rows` has fewer vectors than its vectors' `lanes` (rows
    0 to m of a tile after the rounds from h = `lanes`/2 to 2m), the rounds
    from h = m/2 on: the first m columns."""
    n = lanes or len(rows)
    type_ = rows[0].type
    assert isinstance(type_, VectorType)
    tile = list(rows)
    h = len(rows) // 2
    while h:
        low, high = _round_masks(n, h)
        for a in range(len(tile)):
            if a & h:
                continue
            top, bottom = tile[a], tile[a + h]
            tile[a] = _shuffle(top, bottom, low, type_, builder)
            tile[a + h] = _shuffle(top, bottom, high, type_, builder)
            if combine is not None:
                tile[a] = combine(tile[a], tile[a + h])
        if combine is not None:
            tile = tile[:h]
        h //= 2
    return tile


def _round_masks(n: int, h: int) -> tuple[DenseArrayBase[I64], DenseArrayBase[I64]]:
    """The shuffle masks of `transpose`'s round h over rows of n lanes: the
    new rows a and a + h, made once for all the round's pairs."""
    low = [i if not i & h else n + i - h for i in range(n)]
    high = [i + h if not i & h else n + i for i in range(n)]
    return DenseArrayBase.from_list(i64, low), DenseArrayBase.from_list(i64, high)


def _shuffle(
    a: SSAValue,
    b: SSAValue,
    mask: DenseArrayBase[I64],
    type_: VectorType,
    builder: Builder,
) -> SSAValue:
    return builder.insert(vector.ShuffleOp(a, b, mask, result_type=type_)).result
