"""`jam-partials{count=4 max-ops=16}`: independent partial sums computed
side by side.

`block-sums` turns a long sum into a loop over chunks, each chunk's partial
summed from -0.0 by an inner loop and then added to the accumulator:

    %s = loop.for %c = 0 to 1024 step 256 iter_args(%acc = %init)
      %p = loop.for %j = 0 to 256 step 1 iter_args(%q = %nz)    # -0.0
        ... %q2 = arith.addf %q, %term
      %t = arith.addf %acc, %p

Without reassociation (`vectorize{reassociate=false}`, the default), each
partial is one chain of dependent adds that runs at an add's latency per
term (four cycles), a full reduction of scalars one term per chain link:
the core's out-of-order window cannot reach the next chunk's chain, 256
terms later. Yet the chunks' partials depend on nothing but their own
terms. This pass unrolls the loop over chunks by `count` and jams the
copies' inner loops into one that carries every copy's partial: `count`
independent chains per trip, then the partials added to the accumulator in
chunk order, as before. The order of every add is unchanged, so the
results are bit for bit the same.

A loop is jammed when its body is pure ops (an offset, say), one innermost
`loop.for` with static bounds whose initial values are defined above the
loop (so its iterations are independent), an `arith.addf` of each
accumulator and the partial at its position, and the yield of those sums.
Its body may load but not store, and its partials are scalars: a vector
partial comes from `vectorize` or `row_lanes`, which already run several
chains side by side (einsum_row_dot's row lanes ran slower jammed again). The factor is the largest
power of two up to `count` that divides the static trip count and keeps
the jammed loop's body at most `max-ops` ops: a core that issues about
four ops a cycle runs a body of sixteen in the four cycles of one add's
latency, so a larger body is bound by its ops, not its chains (the three
sums of fourteen ops of regression_losses ran slower jammed). Loops it
leaves at 1 stay as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.analysis.loop_utils import (
    clone_body,
    contains_loop,
    index_constant,
    is_pure,
    static_trip_count,
)
from xlir.dialects.loop.loops import ForOp, YieldOp
from xlir.dialects.loop.memory import LoadOp

from xlir.diagnostics import XlirError
from xlir.walk import walk


@dataclass(frozen=True)
class _Shape:
    """A loop over chunks: the ops before the partial's loop, the partial's
    loop, and the adds of its results into the accumulators."""

    prefix: list[Operation]
    partial: ForOp
    adds: list[arith.AddfOp]


def _shape(loop: ForOp) -> _Shape | None:
    """`loop`'s parts when it is a loop over chunks (module docstring)."""
    ops = list(loop.body.block.ops)
    partials = [k for k, op in enumerate(ops) if isinstance(op, ForOp)]
    if len(partials) != 1 or not loop.iter_args:
        return None
    (at,) = partials
    partial = ops[at]
    assert isinstance(partial, ForOp)
    prefix, rest = ops[:at], ops[at + 1 :]
    n = len(loop.iter_args)
    yielded = rest[-1]
    adds = rest[:-1]
    if (
        len(partial.results) != n
        or len(adds) != n
        or not isinstance(yielded, YieldOp)
        or contains_loop(partial)
        or any(isinstance(v.type, VectorType) for v in partial.iter_args)
        or static_trip_count(partial.lower, partial.upper, partial.step) is None
        or any(op.regions or not is_pure(op) for op in prefix)
        or any(not _reads_only(op) for op in partial.body.block.ops)
    ):
        return None
    inside = loop.body.block
    for value in partial.iter_args:
        if value.owner is inside or getattr(value.owner, "parent", None) is inside:
            return None  # a partial that starts from this iteration's values
    for k, add in enumerate(adds):
        if not (
            isinstance(add, arith.AddfOp)
            and add.lhs is loop.carried[k]
            and add.rhs is partial.results[k]
            and yielded.operands[k] is add.result
            and add.result.has_one_use()
            and loop.carried[k].has_one_use()
            and partial.results[k].has_one_use()
        ):
            return None
    return _Shape(
        prefix, partial, [add for add in adds if isinstance(add, arith.AddfOp)]
    )


def _reads_only(op: Operation) -> bool:
    return isinstance(op, LoadOp | YieldOp) or is_pure(op)


def _factor(loop: ForOp, partial: ForOp, count: int, max_ops: int) -> int:
    trips = static_trip_count(loop.lower, loop.upper, loop.step)
    if trips is None:
        return 1
    ops = len(partial.body.block.ops) - 1  # not its yield
    factor = count
    while factor > 1 and (trips % factor or factor * ops > max_ops):
        factor //= 2
    return factor


def _jam(loop: ForOp, shape: _Shape, factor: int) -> None:
    """`loop` stepping `factor` chunks at a time, their partials computed by
    one loop and added to the accumulators in chunk order."""
    step = loop.step
    assert isinstance(step, int)
    partial = shape.partial
    n = len(partial.iter_args)
    builder = Builder(InsertPoint.before(loop))
    block = Block(arg_types=[IndexType(), *(v.type for v in loop.iter_args)])
    jammed = builder.insert(
        ForOp(
            loop.lower, loop.upper, step * factor, list(loop.iter_args), Region(block)
        )
    )
    inside = Builder(InsertPoint.at_end(block))
    mappings: list[dict[SSAValue, SSAValue]] = []
    for copy in range(factor):
        index = jammed.induction_var
        if copy:
            offset = index_constant(inside, copy * step)
            index = inside.insert(arith.AddiOp(index, offset)).result
        mapping: dict[SSAValue, SSAValue] = {loop.induction_var: index}
        for op in shape.prefix:
            inside.insert(op.clone(value_mapper=mapping))
        mappings.append(mapping)
    inits = list(partial.iter_args) * factor  # defined above the loop
    terms = Block(arg_types=[IndexType(), *(v.type for v in inits)])
    sums = inside.insert(
        ForOp(partial.lower, partial.upper, partial.step, inits, Region(terms))
    )
    each = Builder(InsertPoint.at_end(terms))
    yielded: list[SSAValue] = []
    for copy, mapping in enumerate(mappings):
        mapping[partial.induction_var] = terms.args[0]
        for k, carried in enumerate(partial.carried):
            mapping[carried] = terms.args[1 + copy * n + k]
        yielded.extend(clone_body(partial.body.block, each, mapping))
    each.insert(YieldOp(*yielded))
    accumulators: list[SSAValue] = list(jammed.carried)
    for copy in range(factor):
        for k, add in enumerate(shape.adds):
            mapping = {
                loop.carried[k]: accumulators[k],
                partial.results[k]: sums.results[copy * n + k],
            }
            accumulators[k] = inside.insert(add.clone(value_mapper=mapping)).result
    inside.insert(YieldOp(*accumulators))
    for old, new in zip(loop.results, jammed.results, strict=True):
        old.replace_all_uses_with(new)
    loop.detach()
    loop.erase()


def jam_partials(module: Operation, count: int, max_ops: int) -> None:
    loops = [op for op in walk(module) if isinstance(op, ForOp)]
    for loop in loops:
        if loop.parent is None:
            continue  # a partial's loop, jammed with the loop around it
        shape = _shape(loop)
        if shape is None:
            continue
        factor = _factor(loop, shape.partial, count, max_ops)
        if factor > 1:
            _jam(loop, shape, factor)


@dataclass(frozen=True)
class JamPartialsPass(ModulePass):
    """Loops over chunks of a blocked sum run `count` chunks' partials side
    by side (module docstring)."""

    name = "jam-partials"

    count: int = 4
    max_ops: int = 16

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.count < 1 or self.max_ops < 1:
            raise XlirError(
                "error: jam-partials: count and max-ops must be positive, got "
                f"count={self.count} max-ops={self.max_ops}"
            )
        jam_partials(op, self.count, self.max_ops)
