"""`accel-tile`: tile the kernels whose buffers do not fit XA-1's
scratchpad, so that DMA can stream them through it double-buffered (manual
section 11.1; at the loop level, before `loop-to-accel`).

A kernel whose work is one `loop.parallel` is strip-mined along the nest's
first dimension: a `loop.for` steps over pairs of tiles of T iterations
and holds the nest twice, once per scratchpad slot, each over its tile
(`(t) to (t + T)`); an odd last tile follows the loop, in slot 0. The program computes what it computed before; the
attributes are the plan `loop-to-accel` carries out: `accel.tile_size` (T)
and `accel.tiled_buffers` (the kernel arguments that move a tile at a
time) on the loop, `accel.tile_slot` (0 or 1) on each nest.

A buffer's footprint in a tile follows from the row-major indices of its
loads and stores: one indexed by the tiled dimension in one position, its
other indices independent of it, needs the tile's part of that dimension
(T rows, contiguous in DRAM, when the position is the first; else a
strided 2-D descriptor); one none of whose indices depend on it is staged
whole; any other (an index computed from the dimension: a gather, a
transpose) makes the kernel an error saying so. T is the largest divisor
of the trip count that leaves two tiles or more and lets the staged
buffers and two slots of every tiled buffer fit (a multiple of the 16
lanes when the dimension is the nest's last, so the lanes still cover
it), preferring tiles whose slots all start within an access's 16-bit
immediate (one register then addresses every buffer's tile), else tiles
that take at most an eighth of the scratchpad, so the first load and the
last store, which nothing overlaps, stay short.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from math import isqrt

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xlir.analysis.dependence import dependents
from xlir.analysis.index_ranges import linear_form, linear_range
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.dialects.syntax import array_values, i64_array
from xlir.targets.accel.layout import (
    ALIGNMENT,
    IN_DRAM,
    TileFootprint,
    aligned,
    container_bytes,
    staged_bytes,
)
from xlir.targets.accel.matmul import matmul_plan
from xlir.targets.accel.split_kernels import split_kernel

from xlir.diagnostics import XlirError, format_at_op

TILE_SIZE = "accel.tile_size"
TILED_BUFFERS = "accel.tiled_buffers"
TILED_POSITIONS = "accel.tiled_positions"
TILED_SIZES = "accel.tiled_sizes"
TILED_STARTS = "accel.tiled_starts"
"""Per tiled buffer, (scale, first): its tile at t starts at scale * t + first."""
TILE_DIMENSION = "accel.tile_dimension"
TILE_SLOT = "accel.tile_slot"
LANES = 16
PREFERRED_SHARE = 8
"""Failing that, a tile's buffers take at most 1/8 of the scratchpad."""
REACH = 1 << 15
"""Preferably every buffer's slots start within the reach of an access's
16-bit immediate (manual section 4.6), so one register addresses them all."""


@dataclass(frozen=True)
class _Span:
    """Where a buffer is accessed along the tiled loop's variable v: at
    index `position`, `scale * v + r` with r in [low, high] (the other
    indices independent of v); a negative scale runs backwards (a
    reversal)."""

    position: int
    scale: int
    low: int
    high: int

    def size(self, tile: int) -> int:
        """Indices a tile of `tile` iterations covers."""
        return abs(self.scale) * (tile - 1) + self.high - self.low + 1

    def first(self, tile: int) -> int:
        """The tile at t covers indices from `scale * t` plus this."""
        return self.low + min(0, self.scale * (tile - 1))

    def joined(self, other: _Span) -> _Span | None:
        if (self.position, self.scale) != (other.position, other.scale):
            return None
        return _Span(
            self.position,
            self.scale,
            min(self.low, other.low),
            max(self.high, other.high),
        )


def _access_span(
    indices: Sequence[SSAValue], first: SSAValue, varying: set[SSAValue]
) -> _Span | str | None:
    """The span of one access (None: independent of `first`), or why its
    footprint per tile has no such form."""
    dependent = [p for p, i in enumerate(indices) if i in varying]
    if not dependent:
        return None
    if len(dependent) > 1:
        return "indices computed from the tiled dimension"
    position = dependent[0]
    terms, constant = linear_form(indices[position])
    scale = terms.pop(first, 0)
    rest = linear_range(terms, constant)
    if scale == 0 or rest is None or any(t in varying for t in terms):
        return "an index computed from the tiled dimension"
    return _Span(position, scale, *rest)


def _buffer_span(
    arg: SSAValue, first: SSAValue, varying: set[SSAValue]
) -> _Span | str | None:
    """The footprint of kernel argument `arg` per tile of `loop`: a span
    (module docstring), None if it is staged whole (no access depends on
    the tiled dimension), or why it is neither."""
    spans: list[_Span | None] = []
    for use in arg.uses:
        access = use.operation
        if not isinstance(access, LoadOp | StoreOp) or use.index != (
            1 if isinstance(access, StoreOp) else 0
        ):
            return f"it is used by '{access.name}', not loaded or stored"
        span = _access_span(list(access.indices), first, varying)
        if isinstance(span, str):
            return f"it is accessed at {span}"
        spans.append(span)
    if all(span is None for span in spans):
        return None
    if None in spans:
        return "it is accessed both in a tile and outside it"
    joined: _Span | None = spans[0]
    for span in spans[1:]:
        assert span is not None
        joined = joined.joined(span) if joined else None
    if joined is None:
        return "it is accessed at different positions or scales of the tiled dimension"
    written = any(isinstance(use.operation, StoreOp) for use in arg.uses)
    if written and (abs(joined.scale) != 1 or joined.low != joined.high):
        return "it is stored to at more than one index per tile row"
    return joined


def _tiled_loop(kernel: KernelOp) -> ParallelOp | ForOp | str:
    """The loop whose dimension `accel-tile` cuts: the kernel's one
    `loop.parallel`, if everything else at its top is a scalar op (loads and
    stores outside it make their buffers staged whole) or its return; where that nest has no dimension (a reduction of a whole array),
    the one `loop.for` at the top of its body. Else why there is none."""
    nests = [op for op in kernel.body.block.ops if isinstance(op, ParallelOp)]
    if len(nests) != 1:
        return f"its body holds {len(nests)} loop.parallel nests, not one"
    for op in kernel.body.block.ops:
        if op is nests[0] or isinstance(op, ReturnOp):
            continue
        if op.regions:
            return f"'{op.name}' runs outside its loop.parallel"
    if nests[0].block.args:
        return nests[0]
    loops = [op for op in nests[0].block.ops if op.regions]
    if len(loops) != 1 or not isinstance(loops[0], ForOp):
        return "its loop.parallel has no dimension, and not one loop.for to tile"
    return loops[0]


def _index_bytes(type_: MemRefType, position: int) -> int:
    """Scratchpad bytes of `type_` per index of dimension `position`."""
    elements = 1
    for index, size in enumerate(type_.get_shape()):
        if index != position:
            elements *= size
    return container_bytes(type_.element_type) * elements


def tile_size(
    trips: int,
    spans: Sequence[tuple[int, _Span]],
    staged: int,
    capacity: int,
    lanes: bool,
) -> int | None:
    """T for a dimension of `trips` iterations whose tiled buffers take
    (bytes per index, span) `spans`, beside `staged` bytes staged whole
    (module docstring); None if no tiling fits."""

    def slots(tile: int) -> int:
        return sum(aligned(bytes_ * span.size(tile)) for bytes_, span in spans)

    divisors = {
        d for n in range(1, isqrt(trips) + 1) if trips % n == 0 for d in (n, trips // n)
    }
    fitting = [
        size
        for size in sorted(divisors)
        if trips // size > 1
        and (not lanes or size % LANES == 0)
        and staged + 2 * slots(size) <= capacity
    ]
    if not fitting:
        return None
    reached = [s for s in fitting if staged + 2 * slots(s) < REACH]
    small = [s for s in fitting if slots(s) <= capacity // PREFERRED_SHARE]
    return max(reached or small or fitting)


def _with_dimension(
    loop: ParallelOp | ForOp,
    dimension: int,
    lower: SSAValue | int,
    upper: SSAValue | int,
    slot: int,
    carried: Sequence[SSAValue],
    last: bool,
) -> ParallelOp | ForOp:
    """A copy of `loop` whose `dimension` runs from `lower` to `upper` (a
    `loop.for` starting from the `carried` values); the `last` copy takes
    `loop`'s own body instead of a clone of it."""
    body = loop.detach_region(loop.body) if last else loop.body.clone()
    if isinstance(loop, ForOp):
        tile = ForOp(lower, upper, loop.step, carried, body)
    else:
        lowers, uppers = list(loop.lower_bounds), list(loop.upper_bounds)
        lowers[dimension], uppers[dimension] = lower, upper
        tile = ParallelOp(lowers, uppers, loop.steps, body)
    tile.attributes |= loop.attributes
    tile.attributes[TILE_SLOT] = IntegerAttr(slot, 64)
    return tile


@dataclass(frozen=True)
class _Plan:
    loop: ParallelOp | ForOp
    dimension: int
    spans: dict[int, _Span]
    """The tiled kernel arguments -> their footprints."""
    size: int


def tile_kernel(kernel: KernelOp, capacity: int, matrix: bool = True) -> None:
    """Strip-mine `kernel` if its buffers do not fit `capacity` bytes whole
    (module docstring), the matrix unit's blocking aside when `matrix`; an
    XlirError at the kernel saying why if it cannot."""
    if _fits(kernel, capacity, matrix):
        return
    needed = _needed(kernel)
    plan = _plan(kernel, capacity)
    if isinstance(plan, str):
        plan = _plan_in_dram(kernel, capacity, plan)
        if plan is None:
            return  # what stays in the scratchpad fits whole
    if isinstance(plan, str):
        raise XlirError(
            format_at_op(
                kernel,
                f"kernel @{kernel.sym_name.data} needs {needed} bytes of scratchpad "
                f"for its buffers, more than the {capacity} available, and "
                f"accel-tile cannot tile it: {plan}",
            )
        )
    nest, dimension, size = plan.loop, plan.dimension, plan.size
    low, high = nest.lower_bounds[dimension], nest.upper_bounds[dimension]
    assert isinstance(low, int) and isinstance(high, int)
    initial = list(nest.iter_args) if isinstance(nest, ForOp) else []
    odd = (high - low) // size % 2
    loop = ForOp(low, high - odd * size, 2 * size, initial)
    spans = list(plan.spans.values())
    loop.attributes[TILE_SIZE] = IntegerAttr(size, 64)
    loop.attributes[TILE_DIMENSION] = IntegerAttr(dimension, 64)
    loop.attributes[TILED_BUFFERS] = i64_array(list(plan.spans))
    loop.attributes[TILED_POSITIONS] = i64_array([s.position for s in spans])
    loop.attributes[TILED_SIZES] = i64_array([s.size(size) for s in spans])
    loop.attributes[TILED_STARTS] = i64_array(
        [v for s in spans for v in (s.scale, s.first(size))]
    )
    body = loop.block
    yielded = body.last_op
    assert isinstance(yielded, YieldOp)
    span = arith.ConstantOp(IntegerAttr(size, IndexType()))
    start = loop.induction_var
    carried: list[SSAValue] = list(loop.carried)
    ops: list[Operation] = [span]
    for slot in (0, 1):
        end = arith.AddiOp(start, span.result)
        last = slot == 1 and not odd
        tile = _with_dimension(nest, dimension, start, end.result, slot, carried, last)
        ops += [end, tile]
        start, carried = end.result, list[SSAValue](tile.results)
    for op in ops:
        body.insert_op_before(op, yielded)
    yielded.operands = carried
    block = nest.parent_block()
    assert block is not None
    block.insert_op_before(loop, nest)
    results = list(loop.results)
    if odd:  # the last tile, in slot 0, after the pairs
        tile = _with_dimension(nest, dimension, high - size, high, 0, results, True)
        block.insert_op_before(tile, nest)
        results = list(tile.results)
    for old, new in zip(nest.results, results, strict=True):
        old.replace_all_uses_with(new)
    nest.detach()
    nest.erase()


def _needed(kernel: KernelOp) -> int:
    """Scratchpad bytes of `kernel`'s buffers staged whole."""
    args = kernel.body.block.args
    return staged_bytes([a.type for a in args if isinstance(a.type, MemRefType)])


def _fits(kernel: KernelOp, capacity: int, matrix: bool) -> bool:
    """Whether `kernel` needs no tiling: its buffers fit whole, or the
    matrix unit (if `matrix`) streams them with its blocking."""
    needed = _needed(kernel)
    return needed <= capacity or (matrix and matmul_plan(kernel, capacity) is not None)


def _plan_in_dram(kernel: KernelOp, capacity: int, reason: str) -> _Plan | str | None:
    """The fallback: the largest buffers stay in DRAM (`IN_DRAM`), as few
    as let the others fit whole (None) or tile; else `reason`, why the
    kernel cannot tile with all its buffers in the scratchpad, if even the
    bounce area does not fit."""
    capacity -= ALIGNMENT  # the bounce area
    if capacity < 0:
        return reason
    args = kernel.body.block.args
    buffers = sorted(
        (i for i, a in enumerate(args) if isinstance(a.type, MemRefType)),
        key=lambda i: -staged_bytes([args[i].type]),  # pyright: ignore[reportArgumentType]
    )
    for count in range(1, len(buffers)):
        in_dram = set(buffers[:count])
        kernel.attributes[IN_DRAM] = i64_array(sorted(in_dram))
        rest = [args[i].type for i in buffers[count:]]
        if staged_bytes(rest) <= capacity:  # pyright: ignore[reportArgumentType]
            return None
        plan = _plan(kernel, capacity, in_dram)
        if isinstance(plan, _Plan):
            return plan
    kernel.attributes[IN_DRAM] = i64_array(sorted(buffers))
    return None


def _plan(
    kernel: KernelOp, capacity: int, in_dram: Collection[int] = ()
) -> _Plan | str:
    """How to tile `kernel` (the arguments `in_dram` aside): along the
    first dimension of its loop that admits a tiling; or why there is none."""
    nest = _tiled_loop(kernel)
    if isinstance(nest, str):
        return nest
    dimensions = len(nest.steps)
    reasons: list[str] = []
    for dimension, variable in enumerate(nest.body.block.args[:dimensions]):
        plan = _plan_dimension(kernel, nest, dimension, variable, capacity, in_dram)
        if isinstance(plan, _Plan):
            return plan
        reasons.append(
            f"along dimension {dimension}: {plan}" if dimensions > 1 else plan
        )
    return "; ".join(reasons)


def _plan_dimension(
    kernel: KernelOp,
    nest: ParallelOp | ForOp,
    dimension: int,
    variable: SSAValue,
    capacity: int,
    in_dram: Collection[int],
) -> _Plan | str:
    """The tiling of `nest` along `dimension`, or why there is none: each
    buffer in tiles of its span, or whole where it has none."""
    low = nest.lower_bounds[dimension]
    high = nest.upper_bounds[dimension]
    if not (isinstance(low, int) and isinstance(high, int)):
        return "dynamic bounds"
    if nest.steps[dimension] != 1:
        return "a step other than 1"
    varying = dependents([variable], nest.body.block.ops, through_bounds=True)
    spans: dict[int, _Span] = {}
    whole: list[MemRefType] = []
    why: list[str] = []
    for index, arg in enumerate(kernel.body.block.args):
        if not isinstance(type_ := arg.type, MemRefType) or index in in_dram:
            continue
        span = _buffer_span(arg, variable, varying)
        if isinstance(span, _Span) and not _inside(span, type_, low, high):
            span = "its footprint per tile reaches outside it"
        if isinstance(span, _Span):
            spans[index] = span
            continue
        whole.append(type_)
        if isinstance(span, str):
            why.append(f"argument {index} is staged whole: {span}")
    staged = staged_bytes(whole)
    args = kernel.body.block.args
    sized = [
        (_index_bytes(args[i].type, s.position), s)  # pyright: ignore[reportArgumentType]
        for i, s in spans.items()
    ]
    lanes = isinstance(nest, ParallelOp) and dimension == len(nest.steps) - 1
    size = tile_size(high - low, sized, staged, capacity, lanes)
    if size is None:
        rows = f"no tile of its {high - low} rows fits twice beside the {staged} bytes staged whole"
        return "; ".join([*why, rows])
    return _Plan(nest, dimension, spans, size)


def _inside(span: _Span, type_: MemRefType, low: int, high: int) -> bool:
    """Whether every tile's footprint, for a loop from `low` to `high`, lies
    inside the buffer (the tiles cover the loop: its ends suffice)."""
    extent = type_.get_shape()[span.position]
    ends = (span.scale * low, span.scale * (high - 1))
    return min(ends) + span.low >= 0 and max(ends) + span.high < extent


def tile_loop(kernel: KernelOp) -> ForOp | None:
    """The loop `tile_kernel` made in `kernel`, if any."""
    for op in kernel.body.walk():
        if isinstance(op, ForOp) and TILE_SIZE in op.attributes:
            return op
    return None


def tile_dimension(loop: ForOp) -> int:
    """Which dimension of its nests the loop of `tile_kernel` tiles."""
    dimension = loop.attributes[TILE_DIMENSION]
    assert isinstance(dimension, IntegerAttr)
    return dimension.value.data


def tile_plan(kernel: KernelOp) -> dict[int, TileFootprint]:
    """The tiled arguments of `kernel` -> their footprints per tile."""
    loop = tile_loop(kernel)
    if loop is None:
        return {}
    tiled, positions, sizes, starts = (
        array_values(attribute)
        for key in (TILED_BUFFERS, TILED_POSITIONS, TILED_SIZES, TILED_STARTS)
        if isinstance(attribute := loop.attributes[key], DenseArrayBase)
    )
    return {
        index: TileFootprint(position, size, *starts[2 * n : 2 * n + 2])
        for n, (index, position, size) in enumerate(
            zip(tiled, positions, sizes, strict=True)
        )
    }


@dataclass(frozen=True)
class TileScratchpadPass(ModulePass):
    """Tile the kernels that do not fit the scratchpad (module docstring)."""

    name = "accel-tile"

    scratchpad_bytes: int = 512 * 1024
    """The scratchpad's size (the target's TargetInfo)."""
    reserved_bytes: int = 32 * 1024
    """At its top: the stack and spill slots."""
    matrix: bool = True
    """Whether `loop-to-accel` computes matrix products on the matrix unit,
    whose blocking streams operands too large to stage (else they tile)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        capacity = self.scratchpad_bytes - self.reserved_bytes
        for kernel in [k for k in op.body.block.ops if isinstance(k, KernelOp)]:
            fits = _fits(kernel, capacity, self.matrix)
            pieces = [kernel] if fits else split_kernel(kernel, op)
            for piece in pieces:
                tile_kernel(piece, capacity, self.matrix)
