"""`interleave{min-depth=10 count=4 width=0}`: mark latency-bound loops for
LLVM to interleave.

An elementwise loop whose body is a long chain of dependent operations (a
fused `tanh`, `sqrt` and `exp`: each expansion is a polynomial evaluated by
Horner's rule, a division, a range reduction) runs at the speed of that
chain's latency, not of its operations' throughput: out-of-order execution
overlaps the next iteration only as far as the scheduler's window reaches,
and a window of about a hundred waiting ops holds one or two iterations of
a hundred-op body. Running several vector iterations side by side in one
trip gives the core independent chains to interleave. LLVM's loop
vectorizer does that when a loop asks for it (`llvm.loop.interleave.count`
metadata); its own cost model does not, for bodies this large, and
interleaving every loop (the cpu target turns LLVM's interleaving off,
`llvmlite_module.LOOP_INTERLEAVING`) costs compile time on the many loops that are
memory-bound.

This pass sets `{interleave = c : i64}` (`INTERLEAVE`) on each innermost
`loop.parallel` (no loop nested in it) whose body's longest dependency
chain has at least `min-depth` operations; `loop-to-llvm` puts the hint on
the loop's back edge, and the translation to LLVM IR turns it into the
metadata. A chain counts each op that computes a value from the loop's
data: loads, stores, constants and `index` arithmetic count nothing (they
are addresses, not the chain). Reductions (`loop.for` carrying values)
are left alone: an in-order sum is one chain that interleaving cannot
split. A loop already marked keeps its mark.

c grows with the chain and shrinks with the chains a body already runs side
by side (its ops over its depth: two independent halves are two chains):
c times those chains is about one per `min-depth`/2 ops of depth, c at most
`count` (a power of two). Each copy is one more vector body for LLVM to
compile, and a chain of `min-depth` gains less than a long one. LLVM runs the
iterations that do not fill a whole trip as scalar code (the cpu target
has no vectorized epilogue), so c also shrinks until a trip of c vectors
fits the innermost dimension's static trip count and leaves no more
iterations over than one vector does (an epilogue nest of 32 columns
interleaved by 4 ran all scalar, 2x slower). A vector holds `width`
elements; 0 takes the option `vector-bits` (the target's register width,
`passes/loop/vector_sizes.py`) over the widest element the body loads or stores. Loops of dynamic trip count stay
unmarked.

Measured on this machine (2 cores, AVX-512; run time and cold compile,
same process, alternating; docs/cpu.md has the table): chain10_1m (a chain
of 49, c = 4) ran 0.71-0.73x the time for 1.16-1.23x the compile, gelu_1m
(24, 4) 0.86-0.90x for 1.10x. int_ops_512's loops (10, four chains) stay
unmarked: interleaved by 2 they ran 0.95x for 1.08x the compile.

There is no cap on c by the size of the body: a large body is the long
chain this pass is for. A softmax's expanded `exp` (causal_attention_f32's
`fusion_2`, a chain of 30 in 44 ops) interleaved by 2 or 1 instead of 4
made its kernel's LLVM time a tenth to a third smaller, but the program
ran 1.05x to 1.10x the time (one and two threads).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, i64
from xdsl.ir import Block, SSAValue
from xdsl.passes import ModulePass
from xlir.analysis.loop_utils import bounds_of, contains_loop, static_trip_count
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import INTERLEAVE, ParallelOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.passes.loop.vector_sizes import DEFAULT_VECTOR_BITS, check_vector_bits, lanes

from xlir.diagnostics import XlirError
from xlir.element_types import byte_width
from xlir.walk import walk

DEFAULT_MIN_DEPTH = 10
"""The shortest chain that gets interleaved (module docstring)."""
DEFAULT_COUNT = 4
"""The most vector iterations per trip of a marked loop."""


def chain_shape(block: Block) -> tuple[int, int]:
    """The most ops on one dependency path through `block` that compute the
    loop's values, and how many such ops it holds (module docstring)."""
    depths: dict[SSAValue, int] = {}
    deepest = counted = 0
    for op in block.ops:
        before = max((depths.get(value, 0) for value in op.operands), default=0)
        free = (
            not op.results
            or isinstance(op, LoadOp | arith.ConstantOp)
            or any(isinstance(result.type, IndexType) for result in op.results)
        )
        depth = before if free else before + 1
        counted += not free
        for result in op.results:
            depths[result] = depth
        deepest = max(deepest, depth)
    return deepest, counted


def fitting_count(trip: int, width: int, count: int) -> int:
    """The largest power of two c up to `count` whose trip of c vectors of
    `width` fits `trip` iterations and leaves no more over than one vector
    does (module docstring)."""
    while count > 1 and (
        trip < count * width or trip % (count * width) != trip % width
    ):
        count //= 2
    return count


def _widest_element_bits(block: Block) -> int:
    widths = [
        8 * (byte_width(op.buffer.type.element_type) or 4)
        for op in block.ops
        if isinstance(op, LoadOp | StoreOp) and isinstance(op.buffer.type, MemRefType)
    ]
    return max(widths, default=32)


@dataclass(frozen=True)
class InterleavePass(ModulePass):
    """Mark innermost `loop.parallel`s with long dependency chains for LLVM to
    interleave (module docstring)."""

    name = "interleave"

    min_depth: int = DEFAULT_MIN_DEPTH
    """Chains shorter than this are left alone."""
    count: int = DEFAULT_COUNT
    """The most vector iterations per trip: a power of two from 1 to 16."""
    width: int = 0
    """Elements per vector; 0: from `vector_bits`."""
    vector_bits: int = DEFAULT_VECTOR_BITS
    """Bits per vector register (the target's)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.count not in (1, 2, 4, 8, 16):
            raise XlirError(
                "error: interleave: count must be a power of two from 1 to 16, "
                f"got {self.count}"
            )
        if self.min_depth < 2 or self.width < 0:
            raise XlirError(
                "error: interleave: min-depth must be at least 2 and width "
                f"non-negative (0: from vector-bits), got min-depth={self.min_depth} "
                f"width={self.width}"
            )
        check_vector_bits(self.name, self.vector_bits)
        for kernel in op.body.block.ops:
            if not isinstance(kernel, KernelOp):
                continue
            for loop in walk(kernel):
                if (
                    type(loop) is ParallelOp
                    and loop.block.args
                    and INTERLEAVE not in loop.attributes
                    and not contains_loop(loop)
                ):
                    self._mark(loop)

    def _mark(self, loop: ParallelOp) -> None:
        depth, ops = chain_shape(loop.block)
        trip = static_trip_count(*bounds_of(loop)[-1])
        if depth < self.min_depth or trip is None:
            return
        chains = ops // depth
        count = self.count
        while count > 1 and count * chains * self.min_depth > 2 * depth:
            count //= 2
        width = self.width or lanes(self.vector_bits, _widest_element_bits(loop.block))
        count = fitting_count(trip, width, count)
        if count > 1:
            loop.attributes[INTERLEAVE] = IntegerAttr(count, i64)
