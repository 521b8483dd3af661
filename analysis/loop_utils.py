"""Helpers the loop-level passes share (`hoist`, `unroll`, `tile`,
`fold-index`): trip counts, index constants, the effects of scalar ops,
cloning a loop body, and the ops of some kinds in a module's kernels."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from math import prod

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import get_effects, is_speculatable
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import Bound, ForOp, ParallelOp, YieldOp

from xlir.walk import walk

LoopOp = ParallelOp | ForOp
"""Either kind of loop."""


def static_trip_count(lower: Bound, upper: Bound, step: Bound) -> int | None:
    """Iterations of one loop dimension, when all three are static."""
    if isinstance(lower, int) and isinstance(upper, int) and isinstance(step, int):
        return max(0, -(-(upper - lower) // step))
    return None


def runs_at_least_once(loop: LoopOp) -> bool:
    """Whether every dimension's static bounds give at least one iteration, so
    that moving an op out of the body executes nothing the loop would not."""
    return all(
        (count := static_trip_count(lower, upper, step)) is not None and count > 0
        for lower, upper, step in zip(
            loop.lower_bounds, loop.upper_bounds, loop.steps, strict=True
        )
    )


def is_pure(op: Operation) -> bool:
    """Whether an op neither reads nor writes memory. xDSL 0.74 declares no
    effects at all for `arith.remui` and `arith.extsi`, which are as pure as
    `arith.remsi` and `arith.extui` (a jam shares one sign extension of a
    load among the copies that share the load)."""
    return isinstance(op, arith.RemUIOp | arith.ExtSIOp) or get_effects(op) == set()


def is_pure_speculatable(op: Operation) -> bool:
    """Pure and safe to execute where the original program would not (no
    division by zero): may leave a loop that could run zero times."""
    return is_pure(op) and is_speculatable(op) and not op.regions


INDEX = IndexType()


def index_constant(builder: Builder, value: int) -> SSAValue:
    """An `arith.constant` of type `index`, created directly, its value
    attribute made once (`ConstantOp(attr)` builds it generically: several
    times the cost, on one of the loop passes' commonest ops)."""
    properties = {"value": _index_attribute(value)}
    op = arith.ConstantOp.create(result_types=[INDEX], properties=properties)
    return builder.insert(op).result


def delinearize(
    builder: Builder,
    lowers: Sequence[int],
    steps: Sequence[int],
    counts: Sequence[int],
    linear: SSAValue,
) -> list[SSAValue]:
    """The indices of iteration `linear` of a loop nest of `counts`
    iterations per dimension (row-major), from `lowers` by `steps`."""
    indices: list[SSAValue] = []
    for dim, count in enumerate(counts):
        stride = prod(counts[dim + 1 :])
        value = linear
        if stride != 1:
            value = builder.insert(
                arith.DivUIOp(value, index_constant(builder, stride))
            ).result
        if dim > 0:
            value = builder.insert(
                arith.RemUIOp(value, index_constant(builder, count))
            ).result
        if steps[dim] != 1:
            value = builder.insert(
                arith.MuliOp(value, index_constant(builder, steps[dim]))
            ).result
        if lowers[dim] != 0:
            value = builder.insert(
                arith.AddiOp(value, index_constant(builder, lowers[dim]))
            ).result
        indices.append(value)
    return indices


@lru_cache(maxsize=1024)
def _index_attribute(value: int) -> IntegerAttr[IndexType]:
    """Bounded: the offsets and sizes vary with the programs compiled."""
    return IntegerAttr(value, INDEX)


def kernel_ops_of(
    module: ModuleOp, kinds: tuple[type[Operation], ...]
) -> list[Operation]:
    """The ops of `kinds` in the module's `loop.kernel`s, listed before a
    pass rewrites any. Each class met is tested against `kinds` once: an
    `isinstance` on xDSL's op classes goes through `ABCMeta`, and one that
    fails (nearly every op) cost more than the rest of the walk, once per
    class of `kinds`."""
    known: dict[type[Operation], bool] = {}
    found: list[Operation] = []
    for kernel in module.ops:
        if type(kernel) is not KernelOp:
            continue
        for op in walk(kernel):
            kind = type(op)
            hit = known.get(kind)
            if hit is None:
                hit = known[kind] = issubclass(kind, kinds)
            if hit:
                found.append(op)
    return found


def plain_nests(module: ModuleOp) -> list[ParallelOp]:
    """The outermost `loop.parallel`s of the module's kernels whose bodies
    hold no op with regions (no loop, no reduction): element-by-element
    nests, which `split-ranges` and `split-divided` rewrite whole."""
    return [
        nest
        for kernel in module.ops
        if isinstance(kernel, KernelOp)
        for nest in kernel.body.block.ops
        if isinstance(nest, ParallelOp)
        and not any(inner.regions for inner in nest.body.block.ops)
    ]


def constant_int(value: SSAValue) -> int | None:
    """The integer an `arith.constant` defines, if `value` is one."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def bound_value(builder: Builder, bound: Bound) -> SSAValue:
    """A bound as an SSA value (a constant for a static one)."""
    return index_constant(builder, bound) if isinstance(bound, int) else bound


def clone_body(
    body: Block, builder: Builder, mapping: Mapping[SSAValue, SSAValue]
) -> list[SSAValue]:
    """Clone a loop body's ops (all but its `loop.yield`) at the builder's
    insertion point, with the block arguments replaced as `mapping` says;
    returns the values the yield passes, mapped."""
    values = dict(mapping)
    for op in body.ops:
        if isinstance(op, YieldOp):
            return [values.get(v, v) for v in op.arguments]
        builder.insert(op.clone(value_mapper=values))
    raise AssertionError("loop body without loop.yield")


def loops_innermost_first(ops: Iterable[Operation]) -> list[LoopOp]:
    """Every loop under `ops`, each after the loops nested in it."""
    found = [op for top in ops for op in walk(top) if isinstance(op, LoopOp)]
    return found[::-1]


def contains_loop(op: Operation) -> bool:
    """Whether a loop is nested anywhere inside `op`'s regions (told by its
    exact class: a failing `isinstance` goes through `ABCMeta`, twice per
    op)."""
    return any(
        type(inner) is ParallelOp or type(inner) is ForOp
        for inner in walk(op)
        if inner is not op
    )


def bounds_of(loop: LoopOp) -> Sequence[tuple[Bound, Bound, Bound]]:
    """(lower, upper, step) per dimension."""
    return list(zip(loop.lower_bounds, loop.upper_bounds, loop.steps, strict=True))


def finish_with_remainder(
    loop: ForOp, results: Sequence[SSAValue], split: int, builder: Builder
) -> None:
    """Put in place of a loop with static bounds a loop that ran its
    iterations before `split` and gave `results` (`vectorize`'s split
    reductions, `row_lanes`' unrolled rows): the iterations from `split`
    on run in a remainder loop of the old body (inserted by `builder`),
    and `loop` is erased."""
    upper, step = loop.upper, loop.step
    assert isinstance(upper, int) and isinstance(step, int)
    values = list(results)
    if split < upper:
        rest = builder.insert(ForOp(split, upper, step, values, loop.body.clone()))
        values = list(rest.results)
    for old, new in zip(loop.results, values, strict=True):
        old.replace_all_uses_with(new)
    loop.detach()
    loop.erase()
