"""`vectorize{width=V reassociate=false}`: reductions LLVM can vectorize.

LLVM vectorizes an elementwise nest's innermost unit-stride loop by itself,
but not a reduction nest: each `loop.parallel` iteration runs its own
`loop.for`, and a float reduction inside it may not be reordered. Two
rewrites give it vector work, for the reduction nests `register-tile` left
alone (those that are not contractions):

* **Jam along a unit-stride parallel dimension** (exact). A column sum,
  `loop.parallel (%j) { loop.for %i { acc += x[i, j] } }`, is jammed along
  `j` (`passes/loop/jam.py`) by up to `COLUMN_VECTORS` whole vectors of V,
  as vector copies where it can be (`passes/loop/jam_vector.py`): per step,
  a vector load and a vector add into each copy's vector accumulator (else
  scalar copies, which SLP packs), so each row is read once for all of
  them. The dimension is the innermost one that a load in the reductions
  indexes with unit stride; the remainder is jammed by what is left.
* **Split a reduction along a unit-stride dimension into V partial sums**.
  A row reduction, `loop.for %j { acc = acc + x[i, j] }`, has no such
  parallel dimension; its `loop.for` is unrolled by V with one accumulator
  per copy (copy v takes the elements j = v mod V, starting from the
  combiner's identity), the partials are combined in order after the loop,
  and a remainder loop continues from the combined value. This reassociates
  the reduction, so for floating-point `addf` and `mulf` it is done only
  with `reassociate=true` (results then differ in rounding, as with
  XLA:CPU's fast math). Reductions whose combiners are all associative and
  commutative exactly (`maximumf`/`minimumf`, the integer ones) are left
  to LLVM's loop vectorizer, which reorders those by itself: split by hand,
  it vectorized the split loop across its copies with strided gathers
  (a row max ran 1.7x slower).

* **Jam rows for the reductions that stay in order** (exact). A float sum
  that may not be split runs one dependent add per element: its speed is
  the add's latency, not its throughput. Jamming the nest's largest
  parallel dimension by `ROW_JAM` interleaves that many independent rows
  (`passes/loop/jam.py`): each row still adds its elements in order, so the bits
  are the same, and the core keeps several adds in flight (layernorm's
  row sums: ~3x). Where a row's step computes a transcendental (an `exp`)
  or every step is small (a row dot, an argmax), its rows become the lanes
  of one vector copy instead (`passes/loop/row_lanes.py`): each lane still
  reduces its own row in order, and the per-element work runs as vector
  code.

All three bound the code they clone as `register-tile` does (`passes/loop/jam.py`):
a costly epilogue runs once per jammed tile where it can, else the jam
takes fewer columns, and a loop whose body would be cloned past
`CLONED_EPILOGUE_BUDGET` (V expanded `exp`s, say) is not split.

Before either, the clamps and comparisons of indices that the nest's
bounds decide are folded (`fold_index.fold_decided`), as `register-tile`
does.

A loop is split only when it is innermost, has static bounds and at least
2V iterations, reads some buffer with unit stride along it, and each carried
value is used only by its combiner, whose result is only yielded (not a
scan). `width` counts elements of the reduction's type; 0 (the default)
takes the lanes of a `vector-bits` register, an option the target's
pipeline sets (`passes/loop/vector_sizes.py`).

The cpu target's pipeline runs it exact; a fast pipeline is
`register-tile,vectorize{reassociate=true},...`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerType,
    ModuleOp,
)
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.analysis.loop_utils import (
    bounds_of,
    clone_body,
    contains_loop,
    finish_with_remainder,
    index_constant,
    static_trip_count,
)
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp
from xlir.passes.loop.combiners import (
    EXACT_COMBINERS,
    REASSOCIATING_COMBINERS,
    combiners_of,
    exact_combiners,
    identity,
)
from xlir.passes.loop.fold_index import fold_decided
from xlir.passes.loop.jam import (
    CLONED_EPILOGUE_BUDGET,
    epilogue_copies,
    is_jammed,
    jam,
    jammable_trips,
    loads_in,
    ops_cost,
    reduction_loops,
    unit_stride_dim,
)
from xlir.passes.loop.row_lanes import lane_rows
from xlir.passes.loop.vector_sizes import DEFAULT_VECTOR_BITS, check_vector_bits, lanes

from xlir.diagnostics import XlirError
from xlir.walk import walk

ROW_JAM = 8
"""Rows interleaved for an in-order reduction: enough independent adds to
cover a float add's latency (3-4 cycles) on two or more ports."""

ROW_JAM_BUDGET = 320
"""The most body cost (`ops_cost`) row jamming clones: a costly row (softmax's
exponentials, 72) gets 4 rows, not 8, which would cost more compile time
than its run time gains. An inner nest that runs once over the rows
(`jam._merge_copies`) still counts: 8 rows there cost more code (the sums'
copies, the merged nest's rows) and run no faster than 4."""

COLUMN_VECTORS = 4
"""Vector copies of a column reduction's body jammed side by side where it
has the columns: each step then reads 4 vectors of a row (a 64-column f32
row on AVX-512, 4 cache lines) into 4 independent chains of adds, one pass
over the rows, where one vector copy a nest iteration read each row's
vectors in as many passes over the rows, each a single chain of dependent
adds. Each column's terms are added in the same order either way."""

COLUMN_ACCUMULATORS = 8
"""The most vector accumulators the copies of a column reduction carry in
all (a sum and a minimum: 4 copies; an argmax's value and index: 4)."""

ROW_JAM_LOADS = 16
"""The most loads a step of the jammed rows' reductions issues (each row's
loads in its loops, counted once): past it the steps wait on their loads,
not on the chains of in-order ops the rows interleave, so more rows would
clone code for nothing (a merge sort of keys and values: 4 loads a row)."""


def _element_bits(loop: ForOp) -> int:
    widths = [
        t.width.data if isinstance(t, IntegerType) else t.bitwidth
        for t in (v.type for v in loop.iter_args)
        if isinstance(t, IntegerType | AnyFloat)
    ]
    return max(widths, default=32)


def jam_unit_stride(nest: ParallelOp, width: int) -> bool:
    """Jam the innermost parallel dimension that the reductions read with
    unit stride by up to `COLUMN_VECTORS` vectors of `width`, and its
    remainder by what is left; whether it changed."""
    bounds = bounds_of(nest)
    counts = [static_trip_count(*b) for b in bounds]
    dims = {
        d
        for load in loads_in(reduction_loops(nest))
        if (d := unit_stride_dim(load, nest.induction_vars)) is not None
        and (counts[d] or 0) > 1
    }
    if not dims:
        return False
    dim = max(dims)
    allowed = epilogue_copies(nest)
    while width > allowed:
        width //= 2  # whole vectors still
    most = min(COLUMN_VECTORS, allowed // width, _column_budget(nest))
    factor = width * max(1, min(most, jammable_trips(bounds[dim]) // width))
    jammed = jam(nest, {dim: factor}, (dim, width))
    if jammed is None:
        return False
    for rest in jammed.remainders.values():
        left = jammable_trips(bounds_of(rest)[dim])
        jam(rest, {dim: width * max(1, min(most, left // width))}, (dim, width))
    return True


def _column_budget(nest: ParallelOp) -> int:
    """The most vector copies of the nest's body `ROW_JAM_BUDGET` allows (at
    least one), and that keep their accumulators within
    `COLUMN_ACCUMULATORS`."""
    carried = sum(len(loop.iter_args) for loop in reduction_loops(nest))
    cost = max(1, ops_cost(nest.body.block.ops))
    return max(1, min(ROW_JAM_BUDGET // cost, COLUMN_ACCUMULATORS // max(1, carried)))


def jam_rows(nest: ParallelOp, rows: int) -> bool:
    """Jam the parallel dimension with the most iterations by `rows` (fewer
    where the cloned body would cost more than `ROW_JAM_BUDGET` or the rows'
    reductions would load more than `ROW_JAM_LOADS` a step, but one
    more, up to `rows`, where that divides a static trip count the fewer
    would leave a remainder of: the remainder nest is one more copy of the
    body too); whether it changed."""
    bounds = bounds_of(nest)
    counts = [jammable_trips(b) for b in bounds]
    if not counts:
        return False
    dim = max(range(len(counts)), key=lambda d: counts[d])
    cost = max(1, ops_cost(nest.body.block.ops))
    loads = max(1, len(loads_in(reduction_loops(nest))))
    allowed = min(rows, epilogue_copies(nest), max(1, ROW_JAM_LOADS // loads))
    jammed = min(allowed, ROW_JAM_BUDGET // cost)
    count = static_trip_count(*bounds[dim])
    if 0 < jammed < allowed and count and count % jammed and count % (jammed + 1) == 0:
        jammed += 1
    return jammed > 1 and jam(nest, {dim: jammed}) is not None


def left_to_llvm(loop: ForOp) -> bool:
    """Whether every combiner of the reduction gives the same bits in any
    order, which LLVM's loop vectorizer knows (module docstring)."""
    return exact_combiners(loop) is not None


def split_reduction(loop: ForOp, width: int, reassociate: bool) -> bool:
    """Split one reduction loop into `width` partial accumulators (module
    docstring); whether it changed."""
    lower, upper, step = loop.lower, loop.upper, loop.step
    count = static_trip_count(lower, upper, step)
    if count is None or width < 2 or count < 2 * width or contains_loop(loop):
        return False
    if width * ops_cost(loop.body.block.ops) > CLONED_EPILOGUE_BUDGET:
        return False
    assert isinstance(lower, int) and isinstance(upper, int)
    assert isinstance(step, int)
    combiners = combiners_of(loop)
    allowed = EXACT_COMBINERS | REASSOCIATING_COMBINERS
    if (
        not reassociate
        or combiners is None
        or not all(c.name in allowed for c in combiners)
    ):
        return False
    iv = loop.induction_var
    body_loads = [op for op in walk(loop) if isinstance(op, LoadOp)]
    if not any(unit_stride_dim(load, [iv]) == 0 for load in body_loads):
        return False
    builder = Builder(InsertPoint.before(loop))
    identities = [
        builder.insert(arith.ConstantOp(identity(c.name, arg.type), arg.type)).result
        for c, arg in zip(combiners, loop.carried, strict=True)
    ]
    inits = list(loop.iter_args) + identities * (width - 1)
    split = lower + (count - count % width) * step
    block = Block(arg_types=[iv.type, *(v.type for v in inits)])
    main = builder.insert(ForOp(lower, split, step * width, inits, Region(block)))
    block.args[0].name_hint = iv.name_hint
    for new, old in zip(block.args[1:], loop.carried * width, strict=True):
        new.name_hint = old.name_hint
    inner = Builder(InsertPoint.at_end(block))
    carried_count = len(loop.carried)
    yielded: list[SSAValue] = []
    for copy in range(width):
        index = block.args[0]
        if copy:
            offset = index_constant(inner, copy * step)
            index = inner.insert(arith.AddiOp(block.args[0], offset)).result
        own = block.args[1 + copy * carried_count : 1 + (copy + 1) * carried_count]
        mapping = {iv: index, **dict(zip(loop.carried, own, strict=True))}
        yielded += clone_body(loop.body.block, inner, mapping)
    inner.insert(YieldOp(*yielded))
    combined: list[SSAValue] = []
    for r, (combiner, arg) in enumerate(zip(combiners, loop.carried, strict=True)):
        (element,) = [v for v in combiner.operands if v is not arg]
        total = main.results[r]
        for copy in range(1, width):
            partial = main.results[copy * carried_count + r]
            mapping: dict[SSAValue, SSAValue] = {arg: total, element: partial}
            total = builder.insert(combiner.clone(value_mapper=mapping)).results[0]
        combined.append(total)
    finish_with_remainder(loop, combined, split, builder)
    return True


@dataclass(frozen=True)
class VectorizePass(ModulePass):
    """Vectorizable reductions (module docstring)."""

    name = "vectorize"

    width: int = 0
    reassociate: bool = False
    vector_bits: int = DEFAULT_VECTOR_BITS
    """Bits per vector register, for `width` 0."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.width < 0:
            raise XlirError(
                "error: vectorize: width must be non-negative (0: from "
                f"vector-bits), got {self.width}"
            )
        check_vector_bits(self.name, self.vector_bits)
        # Inner nests first: jamming a nest clones the nests inside it and
        # erases the originals, which must not be visited after.
        nests = [p for p in walk(op) if isinstance(p, ParallelOp)]
        for nest in reversed(nests):
            loops = reduction_loops(nest)
            if is_jammed(nest) or not loops:
                continue
            fold_decided(nest)
            width = self.width or lanes(
                self.vector_bits, max(map(_element_bits, loops))
            )
            if jam_unit_stride(nest, width):
                continue
            reductions = [
                inner
                for inner in walk(nest)
                if isinstance(inner, ForOp) and inner.iter_args
            ]
            in_order = [
                loop
                for loop in reductions
                if not left_to_llvm(loop)
                and not split_reduction(
                    loop,
                    self.width or lanes(self.vector_bits, _element_bits(loop)),
                    self.reassociate,
                )
            ]
            if in_order:
                jammed = lane_rows(nest, width)
                rows = [nest] if jammed is None else jammed.remainders.values()
                for rest in rows:
                    jam_rows(rest, ROW_JAM)
