"""Row reductions on a GPU, for `map-to-gpu`: one thread block per row.

A kernel's outer `loop.parallel (%row)` whose body is loads, pure ops and
inner `loop.parallel`s of static bounds, then one `loop.for` folding the row into one f32 or i32 accumulator with
one combiner (`arith.addf`, `maximumf`, `addi`, ...), then whatever uses
the result (its stores), becomes:

* block `b` takes row `b` (so the kernel must run on its own grid: its
  barriers are outside any control flow, where every thread reaches them);
  every thread computes the ops before the loop,
  but for the inner `loop.parallel`s, whose iterations are spread over the
  block's threads between two `gpu.barrier`s (what follows reads what they
  write: a softmax row's exponentials, then their sum);
* thread `t` folds the elements `t`, `t + T`, `t + 2T`, ... of the row (T
  threads), starting from the loop's initial value, which must be the
  combiner's identity (0 for a sum) unless the combiner is idempotent
  (max, min, and, or): every thread starts from it;
* the warp combines its 32 partials by butterfly shuffles
  (`simt.shuffle_xor` 16, 8, 4, 2, 1), after which every lane holds the
  warp's value;
* with several warps, lane 0 of each writes its value to shared memory
  (`simt.shared_memory`), `gpu.barrier`, and every warp reads the W values
  back (a lane past W takes the initial value) and shuffles them again;
* thread 0 runs the ops after the loop (the stores).

The sum is taken in another order than the loop's (a tree over strided
partials): floats differ from the serial sum by rounding (docs/nvptx.md
gives the tolerance).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.builder import Builder
from xdsl.dialects import arith, gpu
from xdsl.dialects.builtin import (
    Float32Type,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    i32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xlir.analysis.loop_utils import delinearize, index_constant, is_pure
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.dialects.simt import SharedMemoryOp, ShuffleXorOp
from xlir.passes.loop.gpu_builders import X, guarded
from xlir.passes.loop.launch_dimensions import row_reduction_launch

IDENTITIES: dict[str, float | int | None] = {
    "arith.addf": 0.0,
    "arith.mulf": 1.0,
    "arith.addi": 0,
    "arith.muli": 1,
    "arith.ori": 0,
    "arith.xori": 0,
    "arith.andi": -1,
    "arith.maximumf": None,
    "arith.minimumf": None,
    "arith.maxnumf": None,
    "arith.minnumf": None,
    "arith.maxsi": None,
    "arith.minsi": None,
    "arith.maxui": None,
    "arith.minui": None,
}
"""Combiners a row reduction may use, with their identity; None: the
combiner is idempotent (any initial value may be folded in twice)."""


@dataclass(frozen=True)
class RowReduction:
    """A row reduction found in a kernel (module docstring)."""

    parallel: ParallelOp
    """The loop over rows (one row where it has no dimension)."""
    loops: list[ForOp]
    """The loop over a row's elements, or a perfect nest of loops (a row of
    several dimensions), outermost first."""
    combiner: Operation
    """The op of the innermost body that folds an element into the value."""


def _identity_ok(combiner: Operation, init: SSAValue) -> bool:
    """Whether every thread may start from `init`."""
    identity = IDENTITIES[combiner.name]
    if identity is None:
        return True
    owner = init.owner
    if not isinstance(owner, arith.ConstantOp):
        return False
    value = owner.value
    if isinstance(value, FloatAttr):
        return value.value.data == identity
    return isinstance(value, IntegerAttr) and value.value.data == identity


def _runs_before(op: Operation) -> bool:
    """Whether an op may come before the row's loop: a pure op or a load
    (every thread runs it), or a loop.parallel of static bounds (its
    iterations spread over the block's threads, between barriers)."""
    if isinstance(op, ParallelOp):
        bounds = (*op.lower_bounds, *op.upper_bounds, *op.steps)
        return all(isinstance(b, int) for b in bounds)
    return not op.regions and (is_pure(op) or isinstance(op, LoadOp))


def spread_over_block(
    builder: Builder,
    parallel: ParallelOp,
    thread: SSAValue,
    threads: int,
    values: dict[SSAValue, SSAValue],
) -> None:
    """The iterations of a loop.parallel spread over the block's
    threads (thread t runs t, t + threads, ...), between barriers: what ran
    before it and what runs after it may read the memory it writes."""
    lowers = [_bound(b) for b in parallel.lower_bounds]
    steps = [_bound(b) for b in parallel.steps]
    counts = [
        max(0, -(-(_bound(upper) - lower) // step))
        for lower, upper, step in zip(lowers, parallel.upper_bounds, steps, strict=True)
    ]
    builder.insert(gpu.BarrierOp())
    loop = builder.insert(ForOp(thread, prod(counts), threads))
    terminator = loop.block.last_op
    assert terminator is not None
    inner = Builder(InsertPoint.before(terminator))
    indices = delinearize(inner, lowers, steps, counts, loop.block.args[0])
    mapping = dict(values)
    mapping.update(zip(parallel.induction_vars, indices, strict=True))
    for op in parallel.block.ops:
        if not isinstance(op, YieldOp):
            inner.insert(op.clone(value_mapper=mapping))
    builder.insert(gpu.BarrierOp())


def _static(loop: ForOp) -> bool:
    bounds = (*loop.lower_bounds, *loop.upper_bounds, *loop.steps)
    return all(isinstance(b, int) for b in bounds)


def _nest(loop: ForOp) -> list[ForOp] | None:
    """`loop` and the loops perfectly nested in it, each carrying one value
    into the next (`for i { for j { ... } }` over a 2-d block), outermost
    first; None where the nest is not of that shape."""
    nest = [loop]
    while True:
        current = nest[-1]
        if len(current.results) != 1 or not _static(current):
            return None
        ops = list(current.block.ops)
        inner = ops[0]
        if not (len(ops) == 2 and isinstance(inner, ForOp)):
            return nest
        carried = current.block.args[1]
        if inner.iter_args[0] is not carried or not carried.has_one_use():
            return None
        yielded = ops[1]
        assert isinstance(yielded, YieldOp)
        if list(yielded.operands) != list(inner.results):
            return None
        nest.append(inner)


def row_reduction(parallel: ParallelOp) -> RowReduction | None:
    """The row reduction `parallel` is, or None (module docstring)."""
    if len(parallel.lower_bounds) > 1:
        return None
    ops = [op for op in parallel.block.ops if not isinstance(op, YieldOp)]
    loops = [op for op in ops if isinstance(op, ForOp)]
    if len(loops) != 1:
        return None
    loop = loops[0]
    before = ops[: ops.index(loop)]
    after = ops[ops.index(loop) + 1 :]
    if not all(_runs_before(op) for op in before):
        return None
    if any(op.regions for op in after):
        return None
    nest = _nest(loop)
    if nest is None:
        return None
    innermost = nest[-1]
    accumulator = innermost.block.args[1]
    if not (isinstance(accumulator.type, Float32Type) or accumulator.type == i32):
        return None
    if any(isinstance(op, StoreOp) or op.regions for op in innermost.block.ops):
        return None
    yielded = innermost.block.last_op
    assert isinstance(yielded, YieldOp)
    combiner = yielded.operands[0].owner
    if (
        not isinstance(combiner, Operation)
        or combiner.name not in IDENTITIES
        or combiner.parent_block() is not innermost.block
        or accumulator not in combiner.operands
        or combiner.operands[0] is combiner.operands[1]
        or not accumulator.has_one_use()
        or not combiner.results[0].has_one_use()
    ):
        return None
    if not _identity_ok(combiner, loop.iter_args[0]):
        return None
    return RowReduction(parallel, nest, combiner)


def _combine(
    builder: Builder, combiner: Operation, a: SSAValue, b: SSAValue
) -> SSAValue:
    """`combiner`'s op on `a` and `b`."""
    op = combiner.clone()
    op.operands = [a, b]
    return builder.insert(op).results[0]


def _warp_reduce(
    builder: Builder, combiner: Operation, value: SSAValue, lanes: int
) -> SSAValue:
    """Every lane's `value` combined across `lanes` lanes by butterfly shuffles."""
    offset = lanes // 2
    while offset:
        other = builder.insert(ShuffleXorOp(value, offset)).result
        value = _combine(builder, combiner, value, other)
        offset //= 2
    return value


def map_row_reduction(
    found: RowReduction, warp_size: int, max_threads: int, shared_limit: int
) -> tuple[int, int, int] | None:
    """Rewrite the kernel around `found` (module docstring); its launch
    (blocks, threads, shared bytes); None (nothing rewritten) where its
    partials would not fit in shared memory. A row of a nest of loops is folded as
    one run of elements, row-major."""
    parallel, loops, combiner = found.parallel, found.loops, found.combiner
    outer, innermost = loops[0], loops[-1]
    lowers = [_bound(loop.lower_bounds[0]) for loop in loops]
    steps = [_bound(loop.steps[0]) for loop in loops]
    counts = [
        max(0, -(-(_bound(loop.upper_bounds[0]) - lower) // step))
        for loop, lower, step in zip(loops, lowers, steps, strict=True)
    ]
    rows, row_lower, row_step = 1, 0, 1
    if parallel.lower_bounds:
        row_lower, row_step = (
            _bound(parallel.lower_bounds[0]),
            _bound(parallel.steps[0]),
        )
        rows = -(-(_bound(parallel.upper_bounds[0]) - row_lower) // row_step)
    launch = row_reduction_launch(rows, prod(counts), warp_size, max_threads)
    warps = launch.threads // warp_size
    element = innermost.block.args[1].type
    shared_bytes = 4 * warps if warps > 1 else 0
    if shared_bytes > shared_limit:
        return None  # more warps than shared memory holds

    b = Builder(InsertPoint.before(parallel))
    values: dict[SSAValue, SSAValue] = {}
    if parallel.lower_bounds:
        row = b.insert(gpu.BlockIdOp(X)).result
        values[parallel.induction_vars[0]] = delinearize(
            b, [row_lower], [row_step], [rows], row
        )[0]
    thread = b.insert(gpu.ThreadIdOp(X)).result
    body = list(parallel.block.ops)
    for op in body[: body.index(outer)]:
        if isinstance(op, ParallelOp):
            spread_over_block(b, op, thread, launch.threads, values)
        else:
            b.insert(op.clone(value_mapper=values))

    init = values.get(outer.iter_args[0], outer.iter_args[0])
    strided = ForOp(thread, prod(counts), launch.threads, [init])
    b.insert(strided)
    terminator = strided.block.last_op
    assert terminator is not None
    inner = Builder(InsertPoint.before(terminator))
    indices = delinearize(inner, lowers, steps, counts, strided.block.args[0])
    element_values = dict(values)
    for loop, index in zip(loops, indices, strict=True):
        element_values[loop.block.args[0]] = index
    element_values[innermost.block.args[1]] = strided.block.args[1]
    for op in innermost.block.ops:
        if isinstance(op, YieldOp):
            break
        inner.insert(op.clone(value_mapper=element_values))
    terminator.operands = [element_values[combiner.results[0]]]

    total = _warp_reduce(b, combiner, strided.results[0], warp_size)
    if warps > 1:
        shared = b.insert(SharedMemoryOp(MemRefType(element, [warps]))).buffer
        warp_constant = index_constant(b, warp_size)
        lane = b.insert(arith.RemUIOp(thread, warp_constant)).result
        warp = b.insert(arith.DivUIOp(thread, warp_constant)).result
        zero = index_constant(b, 0)
        first_lane = b.insert(arith.CmpiOp(lane, zero, "eq")).result
        guarded(b, first_lane).insert(StoreOp(total, shared, [warp]))
        b.insert(gpu.BarrierOp())
        last = index_constant(b, warps - 1)
        slot = b.insert(arith.MinUIOp(thread, last)).result
        partial = b.insert(LoadOp(shared, [slot])).result
        present = b.insert(arith.CmpiOp(thread, index_constant(b, warps), "ult")).result
        partial = b.insert(arith.SelectOp(present, partial, init)).result
        total = _warp_reduce(b, combiner, partial, 1 << (warps - 1).bit_length())
    first = b.insert(arith.CmpiOp(thread, index_constant(b, 0), "eq")).result
    epilogue = guarded(b, first)
    values[outer.results[0]] = total
    for op in body[body.index(outer) + 1 :]:
        if isinstance(op, YieldOp):
            break
        epilogue.insert(op.clone(value_mapper=values))
    parallel.detach()
    parallel.erase()
    return launch.blocks, launch.threads, shared_bytes


def _bound(bound: object) -> int:
    assert isinstance(bound, int)  # row_reduction took static bounds only
    return bound
