"""A memory-minimizing order of a function's top-level ops.

Program order is the exporter's: JAX puts a training step's weight updates at
the end, so every activation and gradient stays live until then. Like XLA's
list scheduler (`HloMemoryScheduler`), `list_schedule` orders the ops by
their data dependencies, greedily taking among the ready ops the one that
frees the most bytes net of what it allocates (ties: the earlier in program
order). `assign-buffers` plans both orders and keeps the smaller arena, as
XLA's default scheduler keeps the best of its heuristics. The ready ops wait
in a heap; an op's gain changes only when it becomes the last reader of a
value, so each step costs a logarithm, not a pass over the ready ops.

Ops read values of their own regions' ancestors, so an op depends on every
value defined outside it that it or anything nested in it uses. Ops that may
have side effects (custom calls, unregistered ops) keep their order among
themselves. The block's terminator stays last.
"""

from __future__ import annotations

import heapq
from itertools import pairwise

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import is_side_effect_free
from xlir.dialects.hlo_buffers import byte_size

from xlir.walk import walk


def _inputs(op: Operation) -> set[SSAValue]:
    """Values from outside `op` that it or its regions read."""
    nested = list(walk(op))
    inside = {r for o in nested for r in o.results} | {
        a for o in nested for region in o.regions for b in region.blocks for a in b.args
    }
    return {v for o in nested for v in o.operands if v not in inside}


def _bytes(value: SSAValue) -> int:
    return byte_size(value.type) if isinstance(value.type, TensorType) else 0


def list_schedule(block: Block) -> list[Operation]:
    """The ops of `block` in a memory-friendly order (see the module docstring)."""
    ops = list(block.ops)
    terminator = ops.pop()
    position = {op: i for i, op in enumerate(ops)}
    inputs = {op: _inputs(op) for op in ops}
    readers: dict[SSAValue, set[Operation]] = {}
    for op in ops:
        for value in inputs[op]:
            readers.setdefault(value, set()).add(op)
    kept = set(terminator.operands) | set(block.args)
    waiting = {op: sum(1 for v in inputs[op] if v.owner in position) for op in ops}
    effectful = [op for op in ops if not is_side_effect_free(op)]
    after = dict(pairwise(effectful))
    for op in effectful[1:]:
        waiting[op] += 1
    pending_readers = {v: len(r) for v, r in readers.items()}
    order: list[Operation] = []
    # The ready ops by (gain, -position), largest first: a heap of entries
    # (-gain, position), where an entry is stale once its op is scheduled or
    # its gain has grown (`gains` holds the gain of each ready op).
    gains: dict[Operation, int] = {}
    heap: list[tuple[int, int]] = []

    def make_ready(op: Operation) -> None:
        freed = sum(
            _bytes(v) for v in inputs[op] if pending_readers[v] == 1 and v not in kept
        )
        allocated = sum(_bytes(r) for r in op.results if r not in kept)
        gains[op] = freed - allocated
        heapq.heappush(heap, (allocated - freed, position[op]))

    for op in ops:
        if waiting[op] == 0:
            make_ready(op)
    while heap:
        negated, index = heapq.heappop(heap)
        best = ops[index]
        if gains.get(best) != -negated:
            continue
        del gains[best], waiting[best]
        order.append(best)
        for value in inputs[best]:
            pending_readers[value] -= 1
            if pending_readers[value] == 1 and value not in kept:
                # Its last reader would now free it: that reader gains.
                (last,) = (r for r in readers[value] if r in waiting)
                if last in gains:
                    gains[last] += _bytes(value)
                    heapq.heappush(heap, (-gains[last], position[last]))
        successors = [r for v in best.results for r in readers.get(v, ())]
        if best in after:
            successors.append(after[best])
        for successor in successors:
            waiting[successor] -= 1
            if waiting[successor] == 0:
                make_ready(successor)
    assert len(order) == len(ops), "a dependency cycle among top-level ops"
    return [*order, terminator]


def reorder(block: Block, order: list[Operation]) -> None:
    """Put the ops of `block` in `order`."""
    for op in order:
        op.detach()
        block.add_op(op)
