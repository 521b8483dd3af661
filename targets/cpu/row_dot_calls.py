"""`row-dot-calls{mr lanes threads min-work vector-bits vector-registers}`:
f32 row dots call the prebuilt row-dot entry (row_dot_routine.py) instead
of being vectorized inline.

A row dot inlined costs each compile `vectorize`'s row lanes (4-5 ms of
Python) and LLVM's 15-18 ms on its transposes; the entry is compiled once
per host with the dot routine and linked (`gemm_runtime`). This pass, run
with `gemm-calls`, turns a nest

    loop.parallel (%i) = (0) to (R) {
      %s = loop.for %k = 0 to K iter_args(%acc = 0.0) {
        %p = arith.mulf X[i, k], Y[i, k]   (either operand first)
        loop.yield %acc + %p               (either order)
      }
      loop.store %s, %C[%i]
    }

(X and Y 2-D f32 buffers, C a 1-D one) into a loop over groups of
`GROUP_ROWS` rows, each a `loop.call` of the entry, marked for threads
(`parallelize`'s `{threads}`) where the inline kernel's work reaches
`min-work` (about one vector op per term: a step's `ROW_LANES` squared
terms take as many loads, products, shuffles and adds). The entry adds each row's terms in the inline kernel's order,
so the results are bit for bit the same. Left inline: fewer rows or terms
than the entry's `ROW_LANES` (the inline kernel does not jam them either),
sums longer than `gemm_routine.MAX_K`, a kernel that reads C or writes X or
Y, and any other nest.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, MemRefType
from xdsl.ir import SSAValue
from xdsl.rewriter import Rewriter
from xlir.analysis.loop_utils import index_constant
from xlir.dialects.loop.calls import CallOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.targets.cpu.gemm_routine import MAX_K
from xlir.targets.cpu.routine_calls import (
    RoutineCallsPass,
    Site,
    calls_loop,
    product_sum,
    static_sizes,
)
from xlir.targets.cpu.row_dot_routine import ROW_LANES, row_dot_routine_name

from xlir.walk import walk

GROUP_ROWS = 64
"""Rows per call: calls enough to share among threads, each long enough
that its call costs nothing."""


@dataclass(frozen=True)
class RowDot:
    """A row dot the entry computes: its buffers and sizes."""

    nest: ParallelOp
    x: SSAValue
    y: SSAValue
    c: SSAValue
    rows: int
    k: int


def _matrix(load: LoadOp, row: SSAValue, k: SSAValue) -> bool:
    """Whether `load` reads a 2-D f32 buffer at `[row, k]`."""
    type_ = load.buffer.type
    return (
        isinstance(type_, MemRefType)
        and isinstance(type_.element_type, Float32Type)
        and len(type_.get_shape()) == 2
        and list(load.indices) == [row, k]
    )


def row_dot_of(nest: ParallelOp) -> RowDot | None:
    """The row dot a nest computes (module docstring), else None."""
    sizes = static_sizes(nest)
    ops = [op for op in nest.body.block.ops if not isinstance(op, YieldOp)]
    if sizes is None or len(sizes) != 1 or len(ops) != 2:
        return None
    loop, store = ops
    (row,) = nest.induction_vars
    if not isinstance(loop, ForOp) or not isinstance(store, StoreOp):
        return None
    c_type = store.buffer.type
    if not (
        isinstance(c_type, MemRefType)
        and isinstance(c_type.element_type, Float32Type)
        and len(c_type.get_shape()) == 1
        and list(store.indices) == [row]
        and store.value is loop.results[0]
    ):
        return None
    summed = product_sum(loop)
    if summed is None:
        return None
    k, (first, _), (second, _) = summed
    iv = loop.induction_var
    if not (_matrix(first, row, iv) and _matrix(second, row, iv)):
        return None
    return RowDot(nest, first.buffer, second.buffer, store.buffer, sizes[0], k)


def _covered(dot: RowDot, kernel: KernelOp) -> bool:
    """Whether the entry gives the inline kernel's results at its speed
    (module docstring)."""
    if dot.rows < ROW_LANES or not ROW_LANES <= dot.k <= MAX_K:
        return False
    for op in walk(kernel):
        if isinstance(op, LoadOp) and op.buffer is dot.c:
            return False
        if isinstance(op, StoreOp) and op.buffer in (dot.x, dot.y):
            return False
    return True


def _row_stride(buffer: SSAValue) -> int:
    type_ = buffer.type
    assert isinstance(type_, MemRefType)
    return type_.get_shape()[1]


@dataclass(frozen=True)
class RowDotCallsPass(RoutineCallsPass):
    """f32 row dots call the prebuilt row-dot entry (module docstring)."""

    name = "row-dot-calls"

    def call(self, nest: ParallelOp, site: Site) -> None:
        dot = row_dot_of(nest)
        if dot is None or not _covered(dot, site.kernel):
            return
        terms = dot.rows * dot.k  # about the inline kernel's vector ops
        threads = None if self.threads == 1 or terms < self.min_work else self.threads
        groups = -(-dot.rows // GROUP_ROWS)
        outer = ParallelOp([0], [dot.rows], [GROUP_ROWS])
        b = calls_loop(nest, outer, threads, groups)
        (first,) = outer.induction_vars
        left = b.insert(arith.SubiOp(index_constant(b, dot.rows), first)).result
        count = b.insert(arith.MinUIOp(left, index_constant(b, GROUP_ROWS))).result
        sizes = (dot.k, _row_stride(dot.x), _row_stride(dot.y))
        constants = [index_constant(b, size) for size in sizes]
        arguments = [dot.x, dot.y, dot.c, first, count, *constants]
        b.insert(CallOp(row_dot_routine_name(site.mr, site.lanes), arguments))
        Rewriter.erase_op(nest)
