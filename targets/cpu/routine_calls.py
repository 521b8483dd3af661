"""What the passes that call the prebuilt GEMM routine share (`gemm-calls`:
gemm_calls.py, `conv-calls`: conv_calls.py, `row-dot-calls`:
row_dot_calls.py, and the entries' `pad-calls` and `transpose-calls`): their
options and the walk over the kernels' nests, the coverage tests they ask
of a nest, the threaded loop of calls, the loop of calls per group of
rows, and small
matchers of the nests' loops (a dot's sum: `product_sum`)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    Float32Type,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.analysis.gemm_panels import panels_cover
from xlir.analysis.kernel_aliasing import launches_by_kernel
from xlir.analysis.loop_utils import bounds_of, index_constant, static_trip_count
from xlir.dialects.device import LaunchOp
from xlir.dialects.loop.calls import CallOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import THREADS, ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.passes.loop.pack_panels import add_scratch
from xlir.passes.loop.parallelize import DEFAULT_MIN_WORK
from xlir.passes.loop.register_tile import default_tile
from xlir.passes.loop.vector_sizes import (
    DEFAULT_VECTOR_BITS,
    DEFAULT_VECTOR_REGISTERS,
    check_vector_bits,
)

from xlir.diagnostics import XlirError
from xlir.walk import walk


@dataclass(frozen=True)
class Site:
    """Where a nest's calls go: its kernel (and that kernel's launches,
    which pass the scratch), and the routine's tile, `mr` x `2 * lanes`."""

    kernel: KernelOp
    launches: list[LaunchOp]
    mr: int
    lanes: int

    @property
    def nr(self) -> int:
        return 2 * self.lanes

    def scratch(self, type_: MemRefType) -> SSAValue:
        """A scratch buffer of `type_` for the calls (`pack-panels`')."""
        return add_scratch(self.kernel, type_, self.launches)


@dataclass(frozen=True)
class RoutineCallsPass(ModulePass):
    """Each nest of each kernel that `call` covers becomes calls of the
    routine of the tile the options give."""

    mr: int = 0
    """Rows of the routine's tile; 0: `register-tile`'s for the registers."""
    lanes: int = 0
    """f32 lanes of its vectors (its tile is two wide); 0: the vector width's."""
    threads: int = 0
    """The threads mark of the loop of calls (`parallelize`'s); 1: none."""
    min_work: int = DEFAULT_MIN_WORK
    """The inline kernel's estimated ops from which the calls get threads."""
    vector_bits: int = DEFAULT_VECTOR_BITS
    vector_registers: int = DEFAULT_VECTOR_REGISTERS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.mr < 0 or self.lanes < 0 or self.threads < 0 or self.min_work < 0:
            raise XlirError(
                f"error: {self.name}: mr, lanes, threads and min-work must be "
                f"non-negative, got mr={self.mr} lanes={self.lanes} "
                f"threads={self.threads} min-work={self.min_work}"
            )
        check_vector_bits(self.name, self.vector_bits)
        mr, lanes = self.tile()
        launches = launches_by_kernel(op)
        for kernel in [k for k in op.body.block.ops if isinstance(k, KernelOp)]:
            for nest in [n for n in kernel.body.block.ops if isinstance(n, ParallelOp)]:
                site = Site(kernel, launches.get(kernel.sym_name.data, []), mr, lanes)
                self.call(nest, site)

    def tile(self) -> tuple[int, int]:
        """(mr, lanes) of the routine called: the options', or where 0
        `register-tile`'s for the vector registers."""
        default_mr, default_nr = default_tile(self.vector_bits, self.vector_registers)
        return self.mr or default_mr, self.lanes or default_nr // 2

    @abstractmethod
    def call(self, nest: ParallelOp, site: Site) -> None:
        """Replace `nest` by calls of the routine where it covers it."""

    def threads_for(self, dots: int, nr: int) -> int | None:
        """The threads mark of the loop of calls for a nest of `dots`
        multiply-adds, None for none: where the inline kernel's work (about
        `4 dots / nr` vector ops) reaches `min-work`, as `parallelize`
        would have marked the inline kernel (a call counts as one op to
        it)."""
        if self.threads == 1 or 4 * dots // nr < self.min_work:
            return None
        return self.threads


def covered(
    kernel: KernelOp, a: SSAValue, b: SSAValue, c: SSAValue, m: int, n: int, nr: int
) -> bool:
    """Whether the routine gives the inline kernel's results at its speed,
    as far as both passes ask it: a shape its panels cover
    (`gemm_panels.panels_cover`), C read nowhere in the kernel, A and B
    written nowhere."""
    if not panels_cover(m, n, nr):
        return False
    for op in walk(kernel):
        if isinstance(op, LoadOp) and op.buffer is c:
            return False
        if isinstance(op, StoreOp) and op.buffer in (a, b):
            return False
    return True


def calls_loop(
    nest: ParallelOp, loop: ParallelOp, threads: int | None, iterations: int
) -> Builder:
    """`loop` inserted before `nest`, marked for `threads` (None: none)
    where it has two `iterations` or more; a builder at the end of its
    body."""
    if threads is not None and iterations >= 2:
        loop.attributes[THREADS] = IntegerAttr(threads, i64)
    Rewriter.insert_op(loop, InsertPoint.before(nest))
    return Builder(InsertPoint.before(terminator(loop)))


def row_group_calls(
    nest: ParallelOp,
    entry: str,
    buffers: tuple[SSAValue, SSAValue],
    rows: int,
    group: int,
    sizes: tuple[int, ...],
    work: int,
) -> None:
    """Replace `nest` by a loop over groups of `group` of its `rows` rows
    calling `entry(source, target, first, count, *sizes)` per group (the
    last cut to the rows left), each call marked with `work`: the entries
    that take whole rows (`pad-calls`, `transpose-calls`)."""
    groups = -(-rows // group)
    loop = ParallelOp([0], [groups], [1])
    Rewriter.insert_op(loop, InsertPoint.before(nest))
    b = Builder(InsertPoint.before(terminator(loop)))
    (index,) = loop.induction_vars
    first = b.insert(arith.MuliOp(index, index_constant(b, group))).result
    left = b.insert(arith.SubiOp(index_constant(b, rows), first)).result
    count = b.insert(arith.MinUIOp(left, index_constant(b, group))).result
    constants = [index_constant(b, size) for size in sizes]
    b.insert(CallOp(entry, [*buffers, first, count, *constants], work))
    Rewriter.erase_op(nest)


def terminator(loop: ParallelOp | ForOp) -> Operation:
    """The last op of a loop's body (its yield)."""
    last = loop.body.block.last_op
    assert last is not None
    return last


def is_positive_zero(value: SSAValue) -> bool:
    """Whether `value` is the f32 constant +0.0 (a sum's start)."""
    owner = value.owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, FloatAttr)
        and isinstance(owner.value.type, Float32Type)
        and str(owner.value.value.data) == "0.0"
    )


def f32_shape(value: SSAValue) -> tuple[int, ...] | None:
    """The shape of a static f32 buffer, else None."""
    type_ = value.type
    if not (
        isinstance(type_, MemRefType)
        and isinstance(type_.element_type, Float32Type)
        and all(size >= 0 for size in type_.get_shape())
    ):
        return None
    return tuple(type_.get_shape())


def static_sizes(loop: ParallelOp | ForOp) -> list[int] | None:
    """A loop's trip count per dimension where each runs from 0 by 1 to a
    constant, else None."""
    sizes = []
    for lower, upper, step in bounds_of(loop):
        if lower != 0 or step != 1:
            return None
        count = static_trip_count(lower, upper, step)
        if count is None:
            return None
        sizes.append(count)
    return sizes


Term = tuple[LoadOp, tuple[Operation, ...]]
"""A term of a dot's sum: the load it reads and the ops in the sum's loop
that make the product's operand of it (none: the load itself)."""


def loaded(value: SSAValue) -> Term | None:
    """`value`'s load where it is one (a term of an f32 sum)."""
    load = value.owner
    return (load, ()) if isinstance(load, LoadOp) else None


def product_sum(
    loop: ForOp, term: Callable[[SSAValue], Term | None] = loaded
) -> tuple[int, Term, Term] | None:
    """(its trips, its two terms) of a `loop.for` from 0 by 1 to a constant
    whose one carried value, from +0.0, adds the product of two terms each
    trip (`acc + a * b`, either operand first in the product and the sum),
    each a load as `term` matches it and nothing else in the loop, else
    None: a dot's sum (`gemm-calls`, `row-dot-calls`)."""
    sizes = static_sizes(loop)
    if sizes is None or len(loop.iter_args) != 1:
        return None
    if not is_positive_zero(loop.iter_args[0]):
        return None
    terms = [op for op in loop.body.block.ops if not isinstance(op, YieldOp)]
    yielded = loop.body.block.last_op
    if len(terms) < 4 or not isinstance(yielded, YieldOp):
        return None
    multiply, add = terms[-2], terms[-1]
    if not isinstance(multiply, arith.MulfOp) or not isinstance(add, arith.AddfOp):
        return None
    first, second = term(multiply.lhs), term(multiply.rhs)
    if first is None or second is None:
        return None
    if set(terms) != {multiply, add, first[0], *first[1], second[0], *second[1]}:
        return None
    (acc,) = loop.carried
    if {add.lhs, add.rhs} != {acc, multiply.result} or add.lhs is add.rhs:
        return None
    if list(yielded.operands) != [add.result]:
        return None
    (trips,) = sizes
    return trips, first, second
