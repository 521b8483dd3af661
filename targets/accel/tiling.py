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

from collections.abc import Sequence
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
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.dialects.syntax import array_values, i64_array
from xlir.targets.accel.layout import aligned, staged_bytes
from xlir.targets.accel.matmul import matmul_plan

from xlir.diagnostics import XlirError, format_at_op

TILE_SIZE = "accel.tile_size"
TILED_BUFFERS = "accel.tiled_buffers"
TILED_POSITIONS = "accel.tiled_positions"
TILE_SLOT = "accel.tile_slot"
LANES = 16
PREFERRED_SHARE = 8
"""Failing that, a tile's buffers take at most 1/8 of the scratchpad."""
REACH = 1 << 15
"""Preferably every buffer's slots start within the reach of an access's
16-bit immediate (manual section 4.6), so one register addresses them all."""


def _tiled_buffers(
    kernel: KernelOp, loop: ParallelOp | ForOp, first: SSAValue
) -> dict[int, int] | str:
    """The kernel arguments that move a tile at a time -> the index the
    tile cuts (module docstring), or why a buffer's footprint is neither a
    tile nor all of it."""
    varying = dependents([first], loop.body.block.ops, through_bounds=True)
    tiled: dict[int, int] = {}
    for index, arg in enumerate(kernel.body.block.args):
        if not isinstance(arg.type, MemRefType):
            continue
        kinds: set[int | None] = set()
        for use in arg.uses:
            access = use.operation
            if not isinstance(access, LoadOp | StoreOp) or use.index != (
                1 if isinstance(access, StoreOp) else 0
            ):
                return (
                    f"argument {index} is used by '{access.name}', not loaded or stored"
                )
            indices = list(access.indices)
            dependent = [p for p, i in enumerate(indices) if i in varying]
            if not dependent:
                kinds.add(None)
            elif len(dependent) == 1 and indices[dependent[0]] is first:
                kinds.add(dependent[0])
            else:
                return (
                    f"argument {index} is accessed at an index computed from the "
                    "tiled dimension"
                )
        if len(kinds) > 1:
            return f"argument {index} is accessed both in a tile and outside it"
        if kinds and None not in kinds:
            tiled[index] = kinds.pop()  # pyright: ignore[reportArgumentType]
    return tiled


def _tile_bytes(type_: MemRefType, position: int) -> int:
    """Scratchpad bytes of `type_` per index of dimension `position`."""
    elements = 1
    for index, size in enumerate(type_.get_shape()):
        if index != position:
            elements *= size
    return 4 * elements


def tile_size(
    trips: int, rows: list[int], staged: int, capacity: int, lanes: bool
) -> int | None:
    """T for a dimension of `trips` iterations whose tiled buffers take
    `rows` bytes per iteration, beside `staged` bytes staged whole (module
    docstring); None if no tiling fits."""
    divisors = {
        d for n in range(1, isqrt(trips) + 1) if trips % n == 0 for d in (n, trips // n)
    }
    fitting = [
        size
        for size in sorted(divisors)
        if trips // size > 1
        and (not lanes or size % LANES == 0)
        and staged + 2 * sum(aligned(size * r) for r in rows) <= capacity
    ]
    if not fitting:
        return None
    reached = [
        s for s in fitting if staged + 2 * sum(aligned(s * r) for r in rows) < REACH
    ]
    small = [
        s
        for s in fitting
        if sum(aligned(s * r) for r in rows) <= capacity // PREFERRED_SHARE
    ]
    return max(reached or small or fitting)


def _tiled_loop(kernel: KernelOp) -> ParallelOp | ForOp | str:
    """The loop whose first dimension `accel-tile` cuts: the kernel's one
    `loop.parallel`, if everything else at its top is a scalar op or its
    return; where that nest has no dimension (a reduction of a whole array),
    the one `loop.for` at the top of its body. Else why there is none."""
    nests = [op for op in kernel.body.block.ops if isinstance(op, ParallelOp)]
    if len(nests) != 1:
        return f"its body holds {len(nests)} loop.parallel nests, not one"
    for op in kernel.body.block.ops:
        if op is nests[0] or isinstance(op, ReturnOp):
            continue
        if op.regions or isinstance(op, LoadOp | StoreOp):
            return f"'{op.name}' runs outside its loop.parallel"
    if nests[0].block.args:
        return nests[0]
    loops = [op for op in nests[0].block.ops if op.regions]
    if len(loops) != 1 or not isinstance(loops[0], ForOp):
        return "its loop.parallel has no dimension, and not one loop.for to tile"
    return loops[0]


def _with_first_dimension(
    loop: ParallelOp | ForOp,
    lower: SSAValue | int,
    upper: SSAValue | int,
    slot: int,
    carried: Sequence[SSAValue] = (),
) -> ParallelOp | ForOp:
    """A copy of `loop` whose first dimension runs from `lower` to `upper`
    (a `loop.for` starting from the `carried` values)."""
    if isinstance(loop, ForOp):
        tile = ForOp(lower, upper, loop.step, carried, loop.body.clone())
    else:
        tile = ParallelOp(
            [lower, *loop.lower_bounds[1:]],
            [upper, *loop.upper_bounds[1:]],
            loop.steps,
            loop.body.clone(),
        )
    tile.attributes |= loop.attributes
    tile.attributes[TILE_SLOT] = IntegerAttr(slot, 64)
    return tile


def tile_kernel(kernel: KernelOp, capacity: int) -> None:
    """Strip-mine `kernel` if its buffers do not fit `capacity` bytes whole
    (module docstring); an XlirError at the kernel saying why if it cannot."""
    buffers = [a.type for a in kernel.body.block.args if isinstance(a.type, MemRefType)]
    needed = staged_bytes(buffers)
    if needed <= capacity or matmul_plan(kernel, capacity) is not None:
        return  # fits, or the matrix unit's blocking streams it
    plan = _plan(kernel, capacity)
    if isinstance(plan, str):
        raise XlirError(
            format_at_op(
                kernel,
                f"kernel @{kernel.sym_name.data} needs {needed} bytes of scratchpad "
                f"for its buffers, more than the {capacity} available, and "
                f"accel-tile cannot tile it: {plan}",
            )
        )
    nest, tiled, size = plan
    low, high = nest.lower_bounds[0], nest.upper_bounds[0]
    assert isinstance(low, int) and isinstance(high, int)
    initial = list(nest.iter_args) if isinstance(nest, ForOp) else []
    odd = (high - low) // size % 2
    loop = ForOp(low, high - odd * size, 2 * size, initial)
    loop.attributes[TILE_SIZE] = IntegerAttr(size, 64)
    loop.attributes[TILED_BUFFERS] = i64_array(list(tiled))
    loop.attributes[TILED_POSITIONS] = i64_array(list(tiled.values()))
    body = loop.block
    yielded = body.last_op
    assert isinstance(yielded, YieldOp)
    span = arith.ConstantOp(IntegerAttr(size, IndexType()))
    start = loop.induction_var
    carried: list[SSAValue] = list(loop.carried)
    ops: list[Operation] = [span]
    for slot in (0, 1):
        end = arith.AddiOp(start, span.result)
        tile = _with_first_dimension(nest, start, end.result, slot, carried)
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
        last = _with_first_dimension(nest, high - size, high, 0, results)
        block.insert_op_before(last, nest)
        results = list(last.results)
    for old, new in zip(nest.results, results, strict=True):
        old.replace_all_uses_with(new)
    nest.detach()
    nest.erase()


def _plan(
    kernel: KernelOp, capacity: int
) -> tuple[ParallelOp | ForOp, dict[int, int], int] | str:
    """The loop to tile, the tiled arguments and T; or why there is none."""
    nest = _tiled_loop(kernel)
    if isinstance(nest, str):
        return nest
    low, high, step = nest.lower_bounds[0], nest.upper_bounds[0], nest.steps[0]
    if not (isinstance(low, int) and isinstance(high, int) and step == 1):
        return "its first dimension has dynamic bounds or a step other than 1"
    tiled = _tiled_buffers(kernel, nest, nest.body.block.args[0])
    if isinstance(tiled, str):
        return tiled
    args = kernel.body.block.args
    staged = staged_bytes(
        [
            a.type
            for i, a in enumerate(args)
            if isinstance(a.type, MemRefType) and i not in tiled
        ]
    )
    rows = [_tile_bytes(args[i].type, p) for i, p in tiled.items()]  # pyright: ignore[reportArgumentType]
    lanes = isinstance(nest, ParallelOp) and len(nest.block.args) == 1
    size = tile_size(high - low, rows, staged, capacity, lanes)
    if size is None:
        return (
            f"no tile of its {high - low} rows fits twice beside the {staged} bytes "
            "staged whole"
        )
    return nest, tiled, size


def tile_loop(kernel: KernelOp) -> ForOp | None:
    """The loop `tile_kernel` made in `kernel`, if any."""
    for op in kernel.body.walk():
        if isinstance(op, ForOp) and TILE_SIZE in op.attributes:
            return op
    return None


def tile_plan(kernel: KernelOp) -> dict[int, tuple[int, int]]:
    """The tiled arguments of `kernel` -> (the index the tile cuts, T)."""
    loop = tile_loop(kernel)
    if loop is None:
        return {}
    size, tiled, positions = (
        loop.attributes[key] for key in (TILE_SIZE, TILED_BUFFERS, TILED_POSITIONS)
    )
    assert isinstance(size, IntegerAttr)
    assert isinstance(tiled, DenseArrayBase) and isinstance(positions, DenseArrayBase)
    return {
        index: (position, size.value.data)
        for index, position in zip(
            array_values(tiled), array_values(positions), strict=True
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

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        capacity = self.scratchpad_bytes - self.reserved_bytes
        for kernel in [k for k in op.body.block.ops if isinstance(k, KernelOp)]:
            tile_kernel(kernel, capacity)
