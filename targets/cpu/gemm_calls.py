"""`gemm-calls{mr lanes threads min-work vector-bits vector-registers}`:
f32 dot nests call the prebuilt GEMM routine (gemm_routine.py) instead of
being register-tiled and packed inline.

A dot kernel inlined costs each compile `register-tile`, `pack-panels` and
`block-sums` in Python and then LLVM on 150-300 lines of IR; the routine,
sizes and strides its arguments, is compiled once per host and linked (the
JIT: thread_runtime.py) or defined where called (ahead of time). This pass,
run before `register-tile`, turns a nest

    loop.parallel (%i, %j) = (0, 0) to (M, N) {
      %s = loop.for %k = 0 to K iter_args(%acc = 0.0) {
        %p = arith.mulf A[i, k], B[k, j]   (either operand first)
        loop.yield %acc + %p               (either order)
      }
      loop.store %s, %C[%i, %j]
    }

into a loop over panels of `nr` columns, each a `loop.call` of the
routine, with a scratch argument for the packed panels (as `pack-panels`
adds one): A and B are any 2-D f32 buffers read at those indices in either
order (a transposed operand is a stride), C's columns the second index.
The loop over panels is marked for threads (`parallelize`'s `{threads}`)
where the inline kernel's work (about `4 M N K / nr` vector ops) reaches
`min-work`, as `parallelize` would have marked the inline kernel; a call
counts as one op to it.

The routine runs the same FMAs in the same order as the inline kernel
(`register-tile{contract=true}` then `block-sums`), so results are bit
for bit the same. Left inline: what `register-tile` would not tile the
same way (M or N below 2, a dimension of dynamic size), sums longer than
`gemm_routine.MAX_K`, a nest with any other op (an epilogue, a fused
producer, a batch dimension, several contracting dimensions), a kernel
that reads C or writes A or B, and other element types.
"""

from __future__ import annotations

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
from xlir.targets.cpu.gemm_routine import MAX_K, routine_name

from xlir.diagnostics import XlirError
from xlir.walk import walk


@dataclass(frozen=True)
class Gemm:
    """A dot nest the routine computes: its buffers, sizes and element
    strides (gemm_routine.py's arguments)."""

    nest: ParallelOp
    a: SSAValue
    b: SSAValue
    c: SSAValue
    m: int
    n: int
    k: int
    a_row: int
    a_k: int
    b_k: int
    b_col: int
    c_row: int


def _f32_matrix(value: SSAValue) -> MemRefType | None:
    type_ = value.type
    if (
        isinstance(type_, MemRefType)
        and isinstance(type_.element_type, Float32Type)
        and len(type_.get_shape()) == 2
    ):
        return type_
    return None


def _strides(load: LoadOp, outer: SSAValue, k: SSAValue) -> tuple[int, int] | None:
    """(stride along `outer`, stride along `k`) of a 2-D f32 load at
    exactly those two indices, in either order."""
    type_ = _f32_matrix(load.buffer)
    if type_ is None:
        return None
    columns = type_.get_shape()[1]
    indices = list(load.indices)
    if indices == [outer, k]:
        return columns, 1
    if indices == [k, outer]:
        return 1, columns
    return None


def _is_positive_zero(value: SSAValue) -> bool:
    owner = value.owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, FloatAttr)
        and isinstance(owner.value.type, Float32Type)
        and str(owner.value.value.data) == "0.0"
    )


def _static_sizes(loop: ParallelOp | ForOp) -> list[int] | None:
    sizes = []
    for lower, upper, step in bounds_of(loop):
        if lower != 0 or step != 1:
            return None
        count = static_trip_count(lower, upper, step)
        if count is None:
            return None
        sizes.append(count)
    return sizes


def _body(block_ops: list[Operation]) -> list[Operation]:
    return [op for op in block_ops if not isinstance(op, YieldOp)]


def gemm_of(nest: ParallelOp) -> Gemm | None:
    """The dot a nest computes, where the routine covers it (module
    docstring), else None."""
    sizes = _static_sizes(nest)
    ops = _body(list(nest.body.block.ops))
    if sizes is None or len(sizes) != 2 or len(ops) != 2:
        return None
    loop, store = ops
    if not isinstance(loop, ForOp) or not isinstance(store, StoreOp):
        return None
    c_type = _f32_matrix(store.buffer)
    if c_type is None or store.value is not loop.results[0] or len(store.indices) != 2:
        return None
    row, col = store.indices
    ivs = list(nest.induction_vars)
    if sorted(ivs.index(v) if v in ivs else -1 for v in (row, col)) != [0, 1]:
        return None
    k_sizes = _static_sizes(loop)
    if k_sizes is None or len(loop.iter_args) != 1:
        return None
    if not _is_positive_zero(loop.iter_args[0]):
        return None
    (k_size,) = k_sizes
    terms = _body(list(loop.body.block.ops))
    yielded = loop.body.block.last_op
    loads = [op for op in terms if isinstance(op, LoadOp)]
    if len(terms) != 4 or len(loads) != 2 or not isinstance(yielded, YieldOp):
        return None
    multiply, add = terms[2], terms[3]
    if not isinstance(multiply, arith.MulfOp) or not isinstance(add, arith.AddfOp):
        return None
    if {multiply.lhs, multiply.rhs} != {load.result for load in loads}:
        return None
    (acc,) = loop.carried
    if {add.lhs, add.rhs} != {acc, multiply.result} or add.lhs is add.rhs:
        return None
    if list(yielded.operands) != [add.result]:
        return None
    k = loop.induction_var
    first, second = loads
    for a_load, b_load in ((first, second), (second, first)):
        a = _strides(a_load, row, k)
        b = _strides(b_load, col, k)
        if a is not None and b is not None:
            m, n = sizes[ivs.index(row)], sizes[ivs.index(col)]
            (b_col, b_k) = b
            return Gemm(
                nest, a_load.buffer, b_load.buffer, store.buffer,
                m, n, k_size, a[0], a[1], b_k, b_col, c_type.get_shape()[1],
            )  # fmt: skip
    return None


def _covered(gemm: Gemm, kernel: KernelOp) -> bool:
    """Whether the routine gives the inline kernel's results: sizes it
    tiles the same way, C read nowhere in the kernel, A and B written
    nowhere."""
    if gemm.m < 2 or gemm.n < 2 or not 1 <= gemm.k <= MAX_K:
        return False
    for op in walk(kernel):
        if isinstance(op, LoadOp) and op.buffer is gemm.c:
            return False
        if isinstance(op, StoreOp) and op.buffer in (gemm.a, gemm.b):
            return False
    return True


def _call(
    gemm: Gemm,
    kernel: KernelOp,
    launches: list[LaunchOp],
    mr: int,
    lanes: int,
    threads: int | None,
) -> None:
    """Replace the nest by its panels' loop of calls (module docstring);
    `threads`: the mark of the panels' loop, None for none."""
    nr = 2 * lanes
    panels = -(-gemm.n // nr)
    scratch = add_scratch(
        kernel, MemRefType(Float32Type(), [panels, gemm.k, nr]), launches
    )
    outer = ParallelOp([0], [gemm.n], [nr])
    if threads is not None and panels >= 2:
        outer.attributes[THREADS] = IntegerAttr(threads, i64)
    Rewriter.insert_op(outer, InsertPoint.before(gemm.nest))
    terminator = outer.body.block.last_op
    assert terminator is not None
    b = Builder(InsertPoint.before(terminator))
    sizes = (
        gemm.m, gemm.n, gemm.k, gemm.a_row, gemm.a_k, gemm.b_k, gemm.b_col, gemm.c_row
    )  # fmt: skip
    constants = [index_constant(b, size) for size in sizes]
    arguments = [gemm.a, gemm.b, gemm.c, scratch, *constants, outer.induction_vars[0]]
    b.insert(CallOp(routine_name(mr, lanes), arguments))
    Rewriter.erase_op(gemm.nest)


@dataclass(frozen=True)
class GemmCallsPass(ModulePass):
    """f32 dot nests call the prebuilt GEMM routine (module docstring)."""

    name = "gemm-calls"

    mr: int = 0
    """Rows of the routine's tile; 0: `register-tile`'s for the registers."""
    lanes: int = 0
    """f32 lanes of its vectors (its tile is two wide); 0: the vector width's."""
    threads: int = 0
    """The threads mark of a panels' loop (`parallelize`'s); 1: none."""
    min_work: int = DEFAULT_MIN_WORK
    """The inline kernel's estimated ops from which the panels get threads."""
    vector_bits: int = DEFAULT_VECTOR_BITS
    vector_registers: int = DEFAULT_VECTOR_REGISTERS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.mr < 0 or self.lanes < 0 or self.threads < 0 or self.min_work < 0:
            raise XlirError(
                "error: gemm-calls: mr, lanes, threads and min-work must be "
                f"non-negative, got mr={self.mr} lanes={self.lanes} "
                f"threads={self.threads} min-work={self.min_work}"
            )
        check_vector_bits(self.name, self.vector_bits)
        default_mr, default_nr = default_tile(self.vector_bits, self.vector_registers)
        mr, lanes = self.mr or default_mr, self.lanes or default_nr // 2
        launches = launches_by_kernel(op)
        for kernel in [k for k in op.body.block.ops if isinstance(k, KernelOp)]:
            for nest in [n for n in kernel.body.block.ops if isinstance(n, ParallelOp)]:
                gemm = gemm_of(nest)
                if gemm is None or not _covered(gemm, kernel):
                    continue
                work = 4 * gemm.m * gemm.n * gemm.k // (2 * lanes)
                threaded = self.threads != 1 and work >= self.min_work
                _call(
                    gemm,
                    kernel,
                    launches.get(kernel.sym_name.data, []),
                    mr,
                    lanes,
                    self.threads if threaded else None,
                )
