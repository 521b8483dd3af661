"""A kernel `map-to-gpu` mapped, rewritten so that the host can run it: its
thread and block numbers become loop variables.

* `thread_loops`: the kernel's body inside `loop.parallel (%block, %thread)
  = (0, 0) to (%blocks, THREADS)`, the launch's block count `%blocks` a new
  last argument: every thread of every block, one after the other. Right
  for a kernel whose threads never wait for each other (no `gpu.barrier`,
  no warp shuffle, no shared memory): the host compiles it as any
  loop-level kernel.
* `lockstep_block`: one block of the kernel, its threads in lockstep: the
  body inside `loop.parallel (%thread) = (0) to (THREADS)`, with the block's
  number and the launch's block count two new last arguments. The loop
  evaluator runs a parallel loop's body op by op over all its iterations at
  once (numpy arrays over the threads), so a barrier is the boundary
  between two ops, a warp shuffle a gather across the thread axis, shared
  memory an array made when the block starts (`simt_steps`), and
  divergence a lane mask.

`gpu.grid_dim` becomes the launch's block count and `gpu.block_dim` the
threads of the kernel's launch (`gpu_launch`): the host runs the kernel on
any number of blocks of that many threads, as a GPU would.
"""

from __future__ import annotations

from xdsl.dialects import arith, gpu
from xdsl.dialects.builtin import FunctionType, IndexType, IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ParallelOp
from xlir.dialects.simt import SharedMemoryOp, ShuffleXorOp
from xlir.passes.loop.map_to_gpu import launch_of

from xlir.diagnostics import XlirError, format_at_op

LOCKSTEP_OPS = (gpu.BarrierOp, ShuffleXorOp, SharedMemoryOp)
"""Ops by which the threads of a block depend on each other."""


def launch(kernel: KernelOp) -> tuple[int, int, int]:
    """(blocks, threads, shared bytes) of a mapped kernel, or a diagnostic."""
    found = launch_of(kernel)
    if found is None:
        raise XlirError(
            format_at_op(
                kernel,
                f"kernel @{kernel.sym_name.data} has no gpu_launch; the emulator "
                "runs kernels map-to-gpu mapped",
            )
        )
    return found


def needs_lockstep(kernel: KernelOp) -> bool:
    """Whether the kernel's threads wait for or read each other."""
    return any(isinstance(op, LOCKSTEP_OPS) for op in kernel.walk())


def thread_loops(kernel: KernelOp) -> KernelOp:
    """A copy of `kernel` running all its threads in loops (module docstring)."""
    _, threads, _ = launch(kernel)
    copy = kernel.clone()
    (blocks,) = _append_indices(copy, 1)
    loop = ParallelOp([0, 0], [blocks, threads], [1, 1])
    block_id, thread_id = loop.block.args
    _move_body(copy.body.block, loop)
    _bind_numbers(loop, block_id, thread_id, blocks, threads)
    return copy


def lockstep_block(kernel: KernelOp) -> KernelOp:
    """A copy of `kernel` running one block, given as an argument, with the
    threads of the block in one parallel loop (module docstring)."""
    _, threads, _ = launch(kernel)
    copy = kernel.clone()
    block_id, blocks = _append_indices(copy, 2)
    loop = ParallelOp([0], [threads], [1])
    _move_body(copy.body.block, loop)
    _bind_numbers(loop, block_id, loop.block.args[0], blocks, threads)
    return copy


def _append_indices(kernel: KernelOp, count: int) -> list[BlockArgument]:
    """`count` new `index` arguments at the end of `kernel`'s."""
    body = kernel.body.block
    added = [body.insert_arg(IndexType(), len(body.args)) for _ in range(count)]
    kernel.properties["function_type"] = FunctionType.from_lists(
        [*kernel.argument_types, *[IndexType()] * count], []
    )
    return added


def _move_body(body: Block, loop: ParallelOp) -> None:
    """The ops of a kernel's body (but its `loop.return`) into `loop`, which
    takes their place."""
    end = loop.block.last_op
    assert end is not None
    for op in list(body.ops):
        if isinstance(op, ReturnOp):
            continue
        op.detach()
        loop.block.insert_op_before(op, end)
    terminator = body.last_op
    assert isinstance(terminator, ReturnOp)
    body.insert_op_before(loop, terminator)


def _bind_numbers(
    loop: ParallelOp,
    block_id: SSAValue,
    thread_id: SSAValue,
    blocks: SSAValue,
    threads: int,
) -> None:
    """The gpu dialect's numbers inside `loop` replaced by `block_id`,
    `thread_id`, the launch's block count `blocks` and `threads`."""
    for op in list(loop.walk()):
        if not isinstance(
            op, gpu.BlockIdOp | gpu.ThreadIdOp | gpu.BlockDimOp | gpu.GridDimOp
        ):
            continue
        if op.dimension.data != gpu.DimensionEnum.X:
            raise XlirError(
                format_at_op(op, "the emulator runs one-dimensional grids (x) only")
            )
        value: SSAValue
        match op:
            case gpu.BlockIdOp():
                value = block_id
            case gpu.ThreadIdOp():
                value = thread_id
            case gpu.GridDimOp():
                value = blocks
            case _:
                constant: Operation = arith.ConstantOp(
                    IntegerAttr(threads, IndexType())
                )
                op.parent_block().insert_op_before(constant, op)  # pyright: ignore[reportOptionalMemberAccess]
                value = constant.results[0]
        op.results[0].replace_all_uses_with(value)
        op.detach()
        op.erase()
