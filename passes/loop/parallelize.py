"""`parallelize{threads=0 min-work=N}`: mark kernels' outer loops for threads.

A kernel's outermost `loop.parallel` (one not nested in another) is the work
of one launch; the CPU lowering can split its first dimension across threads
(targets/cpu/threaded_loops.py), which pays a thread start and join per launch.
This pass says where that pays: it sets `{threads = T : i64}` (`THREADS`) on
each outermost `loop.parallel` of a kernel whose estimated work is at least
`min-work` and whose first dimension has two iterations or more. A loop
already marked (by hand, or by an earlier run with other options) keeps its
mark, so the CPU pipeline's own run leaves a chosen count alone.

The estimate counts each op of a loop's body (a `loop.yield` is free) times
the trip counts of the loop dimensions it depends on, nested loops
recursively (a `loop.call` counts the ops it says its routine runs, or one:
dialects/loop/calls.py): an op that reads only the outer index (a gather's row index,
a broadcast operand's load) runs once per row once LLVM hoists it, and an
op of no index runs once. Trip counts are static where the bounds are,
else the largest the value ranges of the bounds allow (`index_ranges`),
else 1 (unknown work is taken as small). An op with regions counts one
plus all its regions, in every iteration. A vector op counts one, as it
runs; a nest that `register-tile` or `vectorize` jammed along a unit-stride
dimension in scalar copies counts its work divided by the copies that LLVM
makes one vector op (`_vector_lanes`): a 128^3 matmul's register tiles are
2 million scalar FMAs but 130,000 vector ones, less than a thread start
pays for (while_loops_128's ten of them ran 1.6x slower threaded).

`threads=0` asks for the CPUs online when the kernel runs; N > 0 for N
threads. The default `min-work` was set when each launch started and
joined its threads (a 2-core Xeon, glibc 2.36: a pthread create + join
cost about 20 us): the bench's kernels run from 0.02 ns per estimated op
(vectorized elementwise: gelu_1m, 82 million ops in 1.8 ms) to 0.2 ns
(gathers, memory-bound chains), and a split in two on a free core saves
half the serial time, so it paid from 2 x 23 us / (cost per op): 230,000 to
2,300,000 ops; the default, 2^20, sits between. Launches now go to a thread
pool (targets/cpu/thread_pool.py), which costs the calling thread a few
microseconds, but a pool thread that has gone to sleep joins 15-50 us late.
Lower defaults measured on a 2-core EPYC (same process, alternating):
2^18 ran while_loops_128 0.77x the time called back to back but 0.95x with
its arrays out of cache, and gather_index 1.29x out of cache; the default
stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    VectorType,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xlir.analysis.index_ranges import most_trips
from xlir.analysis.loop_utils import bounds_of
from xlir.dialects.loop.calls import CallOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import THREADS, ForOp, ParallelOp, YieldOp
from xlir.passes.loop.jam import (
    JAM_ATTRIBUTE,
    loads_in,
    reduction_loops,
    unit_stride_dim,
)
from xlir.passes.loop.vector_sizes import DEFAULT_VECTOR_BITS, check_vector_bits, lanes

from xlir.diagnostics import XlirError
from xlir.element_types import byte_width

DEFAULT_MIN_WORK = 1 << 20
"""Ops per launch from which threads pay (module docstring)."""


def estimated_work(block: Block) -> int:
    """Ops a block executes (module docstring)."""
    return sum(_op_work(op) for op in block.ops)


def _op_work(op: Operation) -> int:
    """Told by the op's exact class (the loop dialect's have no subclasses):
    an `isinstance` through `ABCMeta` that fails, as it does for most ops,
    cost more than the rest of an op's count."""
    if type(op) is YieldOp:
        return 0
    if type(op) is ParallelOp or type(op) is ForOp:
        return _loop_work(op)
    if type(op) is CallOp and op.work is not None:
        return op.work.value.data
    return 1 + sum(
        estimated_work(block) for region in op.regions for block in region.blocks
    )


def _loop_work(loop: ParallelOp | ForOp) -> int:
    """Ops a loop executes, each op counted once per iteration of the
    dimensions it depends on: an op of the outer index only (a gather's row
    index, a broadcast operand's load) is hoisted out of the inner one by
    LLVM, and runs once per row."""
    trips = [most_trips(*dim) for dim in bounds_of(loop)]
    ivs = (
        list(loop.induction_vars)
        if isinstance(loop, ParallelOp)
        else [loop.induction_var]
    )
    every = frozenset(range(len(trips)))
    depends: dict[SSAValue, frozenset[int]] = {
        iv: frozenset([d]) for d, iv in enumerate(ivs)
    }
    if isinstance(loop, ForOp):
        depends |= {arg: every for arg in loop.carried}
    times: dict[frozenset[int], int] = {}  # iterations by the dimensions run
    work = 0
    for op in loop.block.ops:
        dims = every if op.regions else _NONE
        if not op.regions:
            for value in op.operands:
                if (found := depends.get(value)) is not None:
                    dims |= found
        for result in op.results:
            depends[result] = dims
        if dims not in times:
            times[dims] = prod(trips[d] for d in dims)
        work += times[dims] * _op_work(op)
    return work


_NONE: frozenset[int] = frozenset()


def outer_parallels(kernel: KernelOp) -> list[ParallelOp]:
    """The `loop.parallel`s of a kernel not nested in another one."""
    found: list[ParallelOp] = []

    def visit(block: Block) -> None:
        for op in block.ops:
            if isinstance(op, ParallelOp):
                found.append(op)
                continue
            for region in op.regions:
                for inner in region.blocks:
                    visit(inner)

    visit(kernel.body.block)
    return found


def worth_threads(loop: ParallelOp, min_work: int, vector_bits: int) -> bool:
    bounds = bounds_of(loop)
    if not bounds or most_trips(*bounds[0]) < 2:
        return False
    return _loop_work(loop) // _vector_lanes(loop, vector_bits) >= min_work


def _vector_lanes(loop: ParallelOp, vector_bits: int) -> int:
    """How many of a jammed nest's copies run as one vector op: its jam
    factor along a dimension its reductions' loads read with unit stride
    (scalar copies of `register-tile`'s columns become vector lanes for
    LLVM's SLP vectorizer), at most a register's lanes; 1 for other nests
    (rows jammed for an in-order reduction stay scalar, though the rows'
    own results, `sum[i]`, are unit stride along them) and for vector
    copies, whose ops are counted as the vector ops they are."""
    factors = loop.attributes.get(JAM_ATTRIBUTE)
    if not isinstance(factors, DenseArrayBase):
        return 1
    loads = loads_in(reduction_loops(loop))
    if any(isinstance(load.result.type, VectorType) for load in loads):
        return 1
    jam = factors.get_values()
    best = 1
    for load in loads:
        dim = unit_stride_dim(load, loop.induction_vars)
        type_ = load.buffer.type
        assert isinstance(type_, MemRefType)
        bytes_ = byte_width(type_.element_type) or 8
        if dim is not None and jam[dim] > 1:
            best = max(best, min(jam[dim], lanes(vector_bits, 8 * bytes_)))
    return best


@dataclass(frozen=True)
class ParallelizePass(ModulePass):
    """Mark kernels' outermost `loop.parallel`s for threads (module docstring)."""

    name = "parallelize"

    threads: int = 0
    """Threads per marked loop; 0: the CPUs online at run time."""
    min_work: int = DEFAULT_MIN_WORK
    """Estimated ops per launch below which a loop stays on one thread."""
    vector_bits: int = DEFAULT_VECTOR_BITS
    """Bits per vector register (the target's): jammed copies one vector op runs."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.threads < 0:
            raise XlirError(
                "error: parallelize: threads must be non-negative (0: the CPUs "
                f"online), got {self.threads}"
            )
        if self.min_work < 0:
            raise XlirError(
                f"error: parallelize: min-work must be non-negative, got {self.min_work}"
            )
        check_vector_bits(self.name, self.vector_bits)
        for kernel in op.body.block.ops:
            if not isinstance(kernel, KernelOp):
                continue
            for loop in outer_parallels(kernel):
                if THREADS not in loop.attributes and worth_threads(
                    loop, self.min_work, self.vector_bits
                ):
                    loop.attributes[THREADS] = IntegerAttr(self.threads, i64)
