"""The loop evaluator's steps for the `simt` dialect and `gpu.barrier`,
inside the thread loop `emulation.lockstep_block` makes: every value of the
body is a numpy array over the block's threads (its last axis; a uniform
value may be a scalar), and every op runs for all of them before the next
starts, so

* `gpu.barrier` is already the boundary it asks for: it checks that every
  thread of the block reaches it (none is masked off by a branch or a loop
  that differs between threads, where a GPU would hang or misbehave);
* `simt.shuffle_xor` gathers: thread `t` gets the value of thread
  `t ^ offset` (its partner in the same warp, as the block's threads are
  whole warps);
* `simt.shared_memory` is a new array each time the block starts: one per
  block, shared by its threads.

Importing this module registers them (`evaluator.loop.engine.impl`).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import gpu
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation
from xlir.dialects.simt import SharedMemoryOp, ShuffleXorOp
from xlir.evaluator.hlo.types import Unsupported
from xlir.evaluator.loop.engine import Env, Scope, Step, impl
from xlir.evaluator.loop.values import storage_dtype

from xlir.diagnostics import XlirError, format_at_op


@impl(gpu.BarrierOp)
def _barrier(op: Operation, scope: Scope) -> Step:
    _in_lockstep(op, scope)
    sources = scope.program.sources

    def barrier(env: Env) -> None:
        active = env[0]
        if active is not None and not np.all(active):
            raise XlirError(
                format_at_op(
                    op,
                    "a gpu.barrier that only some threads of the block reach (in a "
                    "branch or loop that differs between them) cannot be emulated",
                    sources,
                )
            )

    return barrier


def _in_lockstep(op: Operation, scope: Scope) -> None:
    """The op must sit in the thread loop (no inner parallel loop)."""
    if not scope.vector or scope.rank != 1:
        raise Unsupported(
            f"'{op.name}' runs only in the thread loop of an emulated block (all "
            "threads in lockstep)"
        )


@impl(ShuffleXorOp)
def _shuffle_xor(op: Operation, scope: Scope) -> Step:
    assert isinstance(op, ShuffleXorOp)
    _in_lockstep(op, scope)
    source = scope.slot(op.value)
    result = scope.slot(op.result)
    offset = op.offset.value.data

    def shuffle(env: Env) -> None:
        value = env[source]
        if type(value) is not np.ndarray or value.shape[-1:] in ((), (1,)):
            env[result] = value  # the same in every thread
            return
        threads = value.shape[-1]
        partner = np.arange(threads) ^ offset
        if partner.max() >= threads:
            raise Unsupported(
                f"a shuffle by {offset} in a block of {threads} threads reads "
                "past the last warp (a block must be whole warps)"
            )
        env[result] = value[..., partner]

    return shuffle


@impl(SharedMemoryOp)
def _shared_memory(op: Operation, scope: Scope) -> Step:
    assert isinstance(op, SharedMemoryOp)
    type_ = op.buffer.type
    assert isinstance(type_, MemRefType)
    shape = tuple(type_.get_shape())
    dtype = storage_dtype(type_)
    result = scope.slot(op.buffer)

    def allocate(env: Env) -> None:
        env[result] = np.zeros(shape, dtype)

    return allocate
