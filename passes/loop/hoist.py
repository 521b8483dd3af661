"""`hoist`: loop-invariant code motion out of `loop.parallel` and `loop.for`.

`hlo-to-loop` computes each element from scratch, so a value that depends on
no induction variable (a broadcast operand's load, a constant, the scale of a
normalization) is recomputed in every iteration. This pass moves each op whose
operands are all defined outside a loop to just before it, loops innermost
first, so an op climbs a nest to the outermost loop it is invariant in.

What moves:

* pure ops without regions (arith, math, `loop.view`, `loop.reshape`). Ops
  that may trap (`arith.divui` and the like: division by zero) only move out
  of loops that surely run (static bounds, at least one iteration).
* `loop.load`, out of loops that surely run, when nothing in the loop can
  write the element it reads. The rule for aliasing: two different buffer
  values may be the same memory (kernel arguments launched with one buffer
  twice, views of one arena), so a load moves only when no op in the loop
  writes memory except `loop.store`s to buffers proven apart from it. Proven
  apart are: views of one byte buffer at disjoint byte ranges (through
  `loop.reshape`s) and different `loop.global`s. A load from a
  `loop.get_global` always moves: constants are read-only.

Nothing else moves: stores, ops of unknown effects, ops with regions (nested
loops stay where they are).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import MemoryEffectKind, get_effects
from xlir.analysis.loop_utils import (
    LoopOp,
    is_pure,
    is_pure_speculatable,
    loops_innermost_first,
    runs_at_least_once,
)
from xlir.dialects.loop.globals import GetGlobalOp
from xlir.dialects.loop.loops import YieldOp
from xlir.dialects.loop.memory import LoadOp, ReshapeOp, StoreOp, ViewOp

from xlir.element_types import byte_width
from xlir.walk import walk


def _root(buffer: SSAValue) -> SSAValue:
    """The buffer a chain of `loop.reshape`s views."""
    while isinstance(buffer.owner, ReshapeOp):
        buffer = buffer.owner.source
    return buffer


def _byte_range(view: ViewOp) -> tuple[int, int]:
    result = view.result.type
    assert isinstance(result, MemRefType)
    size = byte_width(result.element_type) or 0
    return view.byte_offset, view.byte_offset + size * result.element_count()


def may_alias(a: SSAValue, b: SSAValue) -> bool:
    """Whether two buffers may share an element (see the module's rule)."""
    a, b = _root(a), _root(b)
    if a is b:
        return True
    if isinstance(a.owner, GetGlobalOp) and isinstance(b.owner, GetGlobalOp):
        return a.owner.global_name == b.owner.global_name
    if (
        isinstance(a.owner, ViewOp)
        and isinstance(b.owner, ViewOp)
        and a.owner.source is b.owner.source
    ):
        (a_start, a_end), (b_start, b_end) = (
            _byte_range(a.owner),
            _byte_range(b.owner),
        )
        return a_start < b_end and b_start < a_end
    return True


def _writes_apart_from(loop: LoopOp, buffer: SSAValue) -> bool:
    """Whether every write in the loop provably misses `buffer`."""
    for op in walk(loop):
        if isinstance(op, StoreOp):
            if may_alias(op.buffer, buffer):
                return False
        elif isinstance(op, LoopOp | YieldOp) or is_pure(op):
            continue
        else:
            effects = get_effects(op)
            if effects is None or any(e.kind != MemoryEffectKind.READ for e in effects):
                return False
    return True


def _defined_inside(value: SSAValue, loop: LoopOp) -> bool:
    owner = value.owner
    node = owner if isinstance(owner, Operation) else owner.parent_op()
    return node is not None and loop.is_ancestor(node)


def _can_hoist(op: Operation, loop: LoopOp) -> bool:
    if isinstance(op, YieldOp) or any(_defined_inside(v, loop) for v in op.operands):
        return False
    if is_pure_speculatable(op):
        return True
    if not runs_at_least_once(loop):
        return False
    if isinstance(op, LoadOp):
        return isinstance(_root(op.buffer).owner, GetGlobalOp) or _writes_apart_from(
            loop, op.buffer
        )
    return is_pure(op) and not op.regions


def hoist_out_of(loop: LoopOp) -> int:
    """Move the loop's invariant ops before it; returns how many moved."""
    body: Block = loop.body.block
    moved = 0
    for op in list(body.ops):
        if _can_hoist(op, loop):
            op.detach()
            loop.parent_block().insert_op_before(op, loop)  # type: ignore[union-attr]
            moved += 1
    return moved


@dataclass(frozen=True)
class HoistPass(ModulePass):
    """Loop-invariant code motion (module docstring)."""

    name = "hoist"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in loops_innermost_first([op]):
            hoist_out_of(loop)
