"""`map-to-gpu{warp-size=32 max-threads-per-block=1024 shared-memory-bytes=49152
max-unroll=4 row-reductions=true max-threads-with-loops=64}`: each kernel's outer `loop.parallel` onto
a grid of GPU thread blocks.

A kernel ends up in one of three shapes, and carries its launch on the
attribute `gpu_launch = array<i64: BLOCKS, THREADS, SHARED_BYTES>` (one-
dimensional grid and blocks; the runtime launches it so, the host schedule
is unchanged):

* elementwise: a kernel of pure ops and loads that run before one outer
  `loop.parallel` of static bounds. Its iterations, row-major, are spread
  over the threads of the grid XLA's loop emitter would launch
  (`launch_dimensions.elementwise_launch`): thread `t` (`block_id *
  block_dim + thread_id`) runs iterations `t * unroll + u` for u < unroll,
  in a grid-stride loop (`t`, `t + grid_dim * block_dim`, ... below the
  count: once on the grid computed here, and right on any grid the kernel
  is launched on); inner loops stay serial in the thread
  (and a body with loops is not unrolled: XLA unrolls elementwise loops;
  its blocks are small, `max-threads-with-loops`, to use more of the GPU).
* row reduction (`row-reductions`, `gpu_row_reduction`): one block per row,
  partial sums per thread, warp shuffles and shared memory; a whole array
  reduced to one value (a loop of no dimension around a nest of loops) is
  one such row, on one block.
* block phases (`gpu_block_phases`): several outer loops that must run
  one after the other, or loads before the loop of memory the loop may
  write: one block, whose threads share each loop in turn, with barriers
  between them.
* serial: anything else (bounds known only at run time, stores or control
  flow outside a loop) runs as it is on thread 0 of block 0 (`run_once`;
  its launch is one thread): correct, if slow.

Elementwise and serial kernels are right on any grid they are launched on;
a row reduction or block phases only on their own (its barriers must be outside control
flow, where every thread of a block reaches them).

The sizes are options, which the target's pipeline sets from its
`TargetInfo`; the pass probes no device.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, gpu
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i64
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.analysis.kernel_aliasing import distinct_arguments, launches_by_kernel
from xlir.analysis.loop_utils import (
    clone_body,
    contains_loop,
    delinearize,
    index_constant,
    is_pure,
)
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ForOp, ParallelOp
from xlir.dialects.loop.memory import LoadOp, ReshapeOp, StoreOp, ViewOp
from xlir.passes.loop.gpu_block_phases import block_phases, map_block_phases
from xlir.passes.loop.gpu_builders import X, global_thread, guarded
from xlir.passes.loop.gpu_row_reduction import map_row_reduction, row_reduction
from xlir.passes.loop.launch_dimensions import LaunchDimensions, elementwise_launch

from xlir.diagnostics import XlirError

GPU_LAUNCH = "gpu_launch"
"""The kernel attribute of its launch: `array<i64: blocks, threads,
shared bytes>`."""


def launch_of(kernel: KernelOp) -> tuple[int, int, int] | None:
    """(blocks, threads, shared bytes) of a mapped kernel; None if unmapped."""
    found = kernel.attributes.get(GPU_LAUNCH)
    if not isinstance(found, DenseArrayBase):
        return None
    blocks, threads, shared = (int(v) for v in found.get_values())
    return blocks, threads, shared


def set_launch(kernel: KernelOp, blocks: int, threads: int, shared: int) -> None:
    kernel.attributes[GPU_LAUNCH] = DenseArrayBase.from_list(
        i64, [blocks, threads, shared]
    )


def static_counts(parallel: ParallelOp) -> list[int] | None:
    """The trip count of each dimension, if all bounds are static."""
    counts: list[int] = []
    for lower, upper, step in zip(
        parallel.lower_bounds, parallel.upper_bounds, parallel.steps, strict=True
    ):
        if not (
            isinstance(lower, int) and isinstance(upper, int) and isinstance(step, int)
        ):
            return None
        counts.append(max(0, -(-(upper - lower) // step)))
    return counts


def _root(buffer: SSAValue) -> SSAValue:
    """The buffer a view or reshape is of."""
    while isinstance(buffer.owner, ViewOp | ReshapeOp):
        buffer = buffer.owner.operands[0]
    return buffer


def outer_parallel(kernel: KernelOp, distinct: list[bool]) -> ParallelOp | None:
    """The one outer loop of a kernel the grid can run (module docstring),
    or None where the kernel must run on one thread."""
    block = kernel.body.block
    arguments: list[SSAValue] = list(block.args)
    written = {_root(op.buffer) for op in kernel.walk() if isinstance(op, StoreOp)}
    parallel: ParallelOp | None = None
    for op in block.ops:
        if isinstance(op, ParallelOp):
            if parallel is not None:
                return None
            parallel = op
        elif isinstance(op, ReturnOp):
            continue
        elif isinstance(op, LoadOp):
            source = _root(op.buffer)
            if (
                source in written
                or source not in arguments
                or not distinct[arguments.index(source)]
            ):
                return None
        elif not is_pure(op) or op.regions:
            return None
    if parallel is None:
        return None
    counts = static_counts(parallel)
    if counts is None or prod(counts) == 0:
        return None
    return parallel


def run_once(kernel: KernelOp) -> tuple[int, int, int]:
    """The kernel's body as it is, run by thread 0 of block 0 (of any grid
    it is launched on); its launch: one thread."""
    block = kernel.body.block
    ops = [op for op in block.ops if not isinstance(op, ReturnOp)]
    returned = block.last_op
    assert isinstance(returned, ReturnOp)
    builder = Builder(InsertPoint.before(returned))
    both = builder.insert(
        arith.OrIOp(
            builder.insert(gpu.BlockIdOp(X)).result,
            builder.insert(gpu.ThreadIdOp(X)).result,
        )
    ).result
    first = builder.insert(arith.CmpiOp(both, index_constant(builder, 0), "eq")).result
    inside = guarded(builder, first)
    for op in ops:
        op.detach()
        inside.insert(op)
    return 1, 1, 0


def _delinearize(
    builder: Builder, parallel: ParallelOp, counts: list[int], linear: SSAValue
) -> list[SSAValue]:
    """The induction variables of iteration `linear` of `parallel`."""
    lowers, steps = parallel.lower_bounds, parallel.steps
    assert all(isinstance(v, int) for v in (*lowers, *steps))
    return delinearize(builder, lowers, steps, counts, linear)  # pyright: ignore[reportArgumentType]


def map_elementwise(
    parallel: ParallelOp, counts: list[int], launch: LaunchDimensions
) -> None:
    """Replace `parallel` by its iterations spread over the grid (module
    docstring): a grid-stride loop, which on the launch computed here runs
    once per thread (or not at all, past the end) and on any other grid
    still does every iteration once. Where the innermost count is a multiple of the unroll, a
    thread's iterations are consecutive along the last dimension: they are
    delinearized once and the last index stepped, so that LLVM sees
    neighbouring addresses."""
    builder = Builder(InsertPoint.before(parallel))
    grid_threads = builder.insert(
        arith.MuliOp(
            builder.insert(gpu.GridDimOp(X)).result,
            builder.insert(gpu.BlockDimOp(X)).result,
        )
    ).result
    work = prod(counts) // launch.unroll
    loop = builder.insert(ForOp(global_thread(builder), work, grid_threads))
    terminator = loop.block.last_op
    assert terminator is not None
    inside = Builder(InsertPoint.before(terminator))
    thread = loop.block.args[0]
    first = thread
    if launch.unroll > 1:
        first = inside.insert(
            arith.MuliOp(thread, index_constant(inside, launch.unroll))
        ).result
    same_row = counts[-1] % launch.unroll == 0
    base = _delinearize(inside, parallel, counts, first) if same_row else []
    step = parallel.steps[-1]
    assert isinstance(step, int)
    for u in range(launch.unroll):
        if same_row:
            ivs = list(base)
            if u:
                offset = index_constant(inside, u * step)
                ivs[-1] = inside.insert(arith.AddiOp(base[-1], offset)).result
        else:
            linear = first
            if u:
                linear = inside.insert(
                    arith.AddiOp(first, index_constant(inside, u))
                ).result
            ivs = _delinearize(inside, parallel, counts, linear)
        clone_body(
            parallel.block, inside, dict(zip(parallel.induction_vars, ivs, strict=True))
        )
    parallel.detach()
    parallel.erase()


@dataclass(frozen=True)
class MapToGpuPass(ModulePass):
    """See the module docstring."""

    name = "map-to-gpu"

    warp_size: int = 32
    max_threads_per_block: int = 1024
    shared_memory_bytes: int = 49152
    """Static shared memory a block may use."""
    max_unroll: int = 4
    row_reductions: bool = True
    max_threads_with_loops: int = 64
    """Threads per block where each iteration runs a loop (a column
    reduction, an element of a dot): such kernels are bound by each
    multiprocessor's loads, so small blocks spread them over more of them."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.warp_size <= 0 or self.max_threads_per_block < self.warp_size:
            raise XlirError(
                f"error: map-to-gpu: warp-size {self.warp_size} and "
                f"max-threads-per-block {self.max_threads_per_block} must be "
                "positive, with at least one warp per block"
            )
        launches = launches_by_kernel(op)
        for kernel in [k for k in op.body.block.ops if isinstance(k, KernelOp)]:
            if launch_of(kernel) is not None:
                continue
            distinct = distinct_arguments(
                kernel, launches.get(kernel.sym_name.data, [])
            )
            set_launch(kernel, *self.map_kernel(kernel, distinct))

    def map_kernel(
        self, kernel: KernelOp, distinct: list[bool]
    ) -> tuple[int, int, int]:
        parallel = outer_parallel(kernel, distinct)
        counts = static_counts(parallel) if parallel is not None else None
        if parallel is None or counts is None:
            phases = block_phases(kernel)
            if phases is None:
                return run_once(kernel)
            return map_block_phases(
                kernel, phases, self.warp_size, self.max_threads_per_block
            )
        if self.row_reductions and len(counts) <= 1:
            found = row_reduction(parallel)
            launch = found and map_row_reduction(
                found,
                self.warp_size,
                self.max_threads_per_block,
                self.shared_memory_bytes,
            )
            if launch:
                return launch
        if not counts:
            return run_once(kernel)
        looped = contains_loop(parallel)
        launch = elementwise_launch(
            prod(counts),
            self.warp_size,
            min(self.max_threads_per_block, self.max_threads_with_loops)
            if looped
            else self.max_threads_per_block,
            1 if looped else self.max_unroll,
        )
        map_elementwise(parallel, counts, launch)
        return launch.blocks, launch.threads, 0
