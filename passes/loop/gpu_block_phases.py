"""Kernels of several phases on one GPU thread block, for `map-to-gpu`.

A kernel whose outer loops must run one after the other (a
dynamic_update_slice's copy of the operand, then the update written over
it), or whose loads before its loop read what the loop writes, cannot
spread its loops over a grid: blocks do not wait for each other. One block
can: its threads take each outer `loop.parallel`'s iterations in turn
(`spread_over_block`: thread t runs t, t + T, ...), with a `gpu.barrier`
before and after each, so that a phase and the loads after it see every
store of the phases before. The ops between the loops (pure ops, loads)
run in every thread.

The kernel must run on its own grid of one block (its barriers are outside
control flow); the block has as many threads as the largest phase needs,
rounded to warps, up to the block's limit.
"""

from __future__ import annotations

from math import prod

from xdsl.builder import Builder
from xdsl.dialects import gpu
from xdsl.rewriter import InsertPoint
from xlir.analysis.loop_utils import is_pure
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ParallelOp
from xlir.dialects.loop.memory import LoadOp
from xlir.passes.loop.gpu_builders import X
from xlir.passes.loop.gpu_row_reduction import spread_over_block


def block_phases(kernel: KernelOp) -> list[tuple[ParallelOp, int]] | None:
    """The outer loops of a kernel made only of loops of static bounds,
    loads and pure ops, with their iteration counts; None for any other
    kernel (stores or control flow outside a loop, bounds known at run
    time) and for loops that all run no iteration."""
    phases: list[tuple[ParallelOp, int]] = []
    for op in kernel.body.block.ops:
        if isinstance(op, ParallelOp):
            bounds = (*op.lower_bounds, *op.upper_bounds, *op.steps)
            if not all(isinstance(b, int) for b in bounds):
                return None
            counts = [
                max(0, -(-(upper - lower) // step))  # pyright: ignore[reportOperatorIssue]
                for lower, upper, step in zip(
                    op.lower_bounds, op.upper_bounds, op.steps, strict=True
                )
            ]
            phases.append((op, prod(counts)))
        elif not (
            isinstance(op, ReturnOp | LoadOp) or (is_pure(op) and not op.regions)
        ):
            return None
    if not any(count for _, count in phases):
        return None  # nothing to spread: the serial shape has no barriers
    return phases


def map_block_phases(
    kernel: KernelOp,
    phases: list[tuple[ParallelOp, int]],
    warp_size: int,
    max_threads_per_block: int,
) -> tuple[int, int, int]:
    """Each phase spread over one block's threads, between barriers (module
    docstring); the launch: one block."""
    most = max(count for _, count in phases)
    threads = min(max_threads_per_block, max(1, -(-most // warp_size)) * warp_size)
    block = kernel.body.block
    first = block.first_op
    assert first is not None
    thread = Builder(InsertPoint.before(first)).insert(gpu.ThreadIdOp(X)).result
    for parallel, _ in phases:
        spread_over_block(
            Builder(InsertPoint.before(parallel)), parallel, thread, threads, {}
        )
        parallel.detach()
        parallel.erase()
    return 1, threads, 0
