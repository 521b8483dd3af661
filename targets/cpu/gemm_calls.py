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
      %r = epilogue(%s)                    (arith, math, loads; optional)
      loop.store %r, %C[%i, %j]
    }

into a loop over panels of `nr` columns, each a `loop.call` of the
routine, with a scratch argument for the packed panels (as `pack-panels`
adds one): A and B are any 2-D f32 buffers read at those indices in either
order (a transposed operand is a stride), C's columns the second index.
Rows may be several dimensions (an activation `[b, s, d]` times a weight:
C's indices before the column, A's before or after k), one row index of
their product where A and C hold them together and each after the first
is as long in the buffer as in the nest.
A batched dot (batch dimensions C's, A's and B's leading indices, in the
same order) calls it per matrix and panel: its matrices are the threaded
loop, each with one scratch slice its panels take in turn. One of short
sums over large matrices calls the batched entry (batched_routine.py)
instead, per group of whole matrices (`_call_batched`).
An epilogue (a bias, an activation) runs after each call, in a nest over
the panel that loads the sums back from C and stores its results there,
as `register-tile` runs a costly epilogue once per tile: the same ops on
the same values (dense_gelu, mlp_fwd: same bits, same run time); so do
ops before the sum that it does not use (a residual the sum is added to).
Dots of bf16 A and B (`widen-floats` loads them and widens each to f32 in
the sum: exact) call the routine's bf16 entries, which widen each element
as they read it, exactly as the sum does, and a C of another type than f32
(a bf16 result: the epilogue rounds the sum) gets the sums in an f32
buffer of its shape that the epilogue reads (`_with_sums`): the routine
then runs the FMAs of the same f32 values in the inline kernel's order, so
the bits are its. Where that buffer would be large (`_sums_pay`) the dot
stays inline. A bf16 dot whose epilogue only rounds the sum to a bf16 C
(`widen-floats`' integer code of an `arith.truncf`: `_rounded_by_routine`)
calls the entries that store C rounded, as that code rounds it: no sums
buffer and no epilogue nest.
The loop over panels is marked for threads (`parallelize`'s `{threads}`)
where the inline kernel's work (about `4 M N K / nr` vector ops) reaches
`min-work`, as `parallelize` would have marked the inline kernel; a call
counts as one op to it.

The routine runs the same FMAs in the same order as the inline kernel
(`register-tile{contract=true}` then `block-sums`), so results are bit
for bit the same. Left inline: what `register-tile` would not tile the
same way (M or N below 2, a dimension of dynamic size), sums longer than
`gemm_routine.MAX_K`, a batched dot's sums shorter than `BLOCK` but for
the batched entry's, and a last panel mostly past N (all slower through
the routine), a nest with
any other op (a producer fused into the sum, a second output, several
contracting dimensions: `dot-layout` merges those that lie together), a
kernel that reads C or writes A or B, and other element types (an f32
operand times a bf16 one among them).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from math import prod

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    VectorType,
)
from xdsl.ir import Block, IRNode, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.analysis.loop_utils import index_constant
from xlir.dialects.loop.calls import CallOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.passes.loop.float_formats import encode, format_of, from_storage
from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder
from xlir.targets.cpu.batched_routine import batched_routine_name
from xlir.targets.cpu.gemm_routine import BLOCK, MAX_K, OPERANDS, routine_name
from xlir.targets.cpu.routine_calls import (
    RoutineCallsPass,
    Site,
    Term,
    calls_loop,
    covered,
    product_sum,
    static_sizes,
    terminator,
)

WHOLE_MATRIX = 512
"""The least rows and columns of the matrices the batched entry takes
(`_whole_matrices`)."""

SHORT_SUM = 64
"""The longest sums of the batched entry's matrices of
`SHORT_SUM_MATRIX` rows and columns or more (`_whole_matrices`)."""

SHORT_SUM_MATRIX = 256
"""The least rows and columns of the batched entry's matrices whose sums
have at most `SHORT_SUM` terms."""

GROUPS = 16
"""The groups of matrices a threaded batched dot of short sums is cut into
(`_call_batched`): calls that may run at once, each with a scratch slice
of its own (one per matrix was as large as all of B)."""


SUMS_BYTES = 8 << 20
"""The most bytes of f32 sums a dot whose C is not f32 may add to its
launch's scratch for the routine to be called (`_sums_pay`)."""


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
    rows: tuple[SSAValue, ...]
    """The nest's row dimensions, C's indices between the batch indices and
    the column (A's too): one row index of M = their product."""
    row_sizes: tuple[int, ...]
    batch: tuple[SSAValue, ...]
    """The nest's batch dimensions, C's leading indices (A's and B's too)."""
    batch_sizes: tuple[int, ...]
    a_batch: int
    """Elements from one matrix of A to the next (B's, C's likewise)."""
    b_batch: int
    c_batch: int
    operands: str
    """A's and B's element type (`gemm_routine.OPERANDS`)."""
    result: str
    """The element type the routine stores (`gemm_routine.RESULTS`): f32
    sums, or C's bf16 where it rounds them (`_rounded_by_routine`)."""
    sums: SSAValue
    """The buffer the routine stores the sums to: C, or an f32 one of its
    shape the epilogue reads where C is not f32."""
    epilogue: tuple[Operation, ...]
    """The nest's other ops, in order: those before the sum (a residual
    added to it) and those between it and its store (none: the sum is
    stored)."""
    store: StoreOp


def _strides(
    access: LoadOp | StoreOp,
    batch: Sequence[SSAValue],
    outer: Sequence[SSAValue],
    inner: SSAValue,
    sizes: dict[SSAValue, int],
) -> tuple[int, int, int] | None:
    """(stride along the last of `outer`, stride along `inner`, elements
    per matrix) of an access at the `batch` indices and then `outer`
    and `inner`, `inner` last or first. Several `outer` dimensions are one
    (their row-major position) where each after the first is as long in
    the buffer as in the nest (`sizes`)."""
    type_ = access.buffer.type
    indices = list(access.indices)
    if not (isinstance(type_, MemRefType) and indices[: len(batch)] == list(batch)):
        return None
    shape = type_.get_shape()
    matrix = indices[len(batch) :]
    if matrix == [*outer, inner]:
        first = len(batch)
    elif matrix == [inner, *outer]:
        first = len(batch) + 1
    else:
        return None
    last = first + len(outer) - 1
    if list(shape[first + 1 : last + 1]) != [sizes[v] for v in outer[1:]]:
        return None
    inner_at = indices.index(inner)
    return (
        prod(shape[last + 1 :]),
        prod(shape[inner_at + 1 :]),
        prod(shape[len(batch) :]),
    )


def _element(buffer: SSAValue) -> object:
    type_ = buffer.type
    assert isinstance(type_, MemRefType)
    return type_.element_type


def _shape(buffer: SSAValue) -> list[int]:
    type_ = buffer.type
    assert isinstance(type_, MemRefType)
    return list(type_.get_shape())


def _widened_load(value: SSAValue) -> Term | None:
    """The load an f32 term of the sum reads, and the ops in `loop` that
    widen it: an f32 load (none), or a bf16 one as `widen-floats` widens
    it, exactly (`float_formats.decode`: its bits as an i16, zero-extended,
    shifted to the top half of an f32)."""
    load = value.owner
    if isinstance(load, LoadOp):
        if isinstance(_element(load.buffer), Float32Type):
            return load, ()
        return None
    to_float = load
    if not isinstance(to_float, arith.BitcastOp):
        return None
    shift = to_float.input.owner
    if not isinstance(shift, arith.ShLIOp):
        return None
    amount, extend = shift.rhs.owner, shift.lhs.owner
    if not (
        isinstance(amount, arith.ConstantOp)
        and amount.value == IntegerAttr(16, IntegerType(32))
        and isinstance(extend, Operation)
        and extend.name == "arith.extui"  # xDSL's class or xlir.dialects.arith's
    ):
        return None
    to_bits = extend.operands[0].owner
    if not isinstance(to_bits, arith.BitcastOp):
        return None
    load = to_bits.input.owner
    if not (
        isinstance(load, LoadOp)
        and isinstance(_element(load.buffer), BFloat16Type)
        and extend.operands[0].type == IntegerType(16)
    ):
        return None
    return load, (to_bits, extend, amount, shift, to_float)


def _body(block_ops: list[Operation]) -> list[Operation]:
    return [op for op in block_ops if not isinstance(op, YieldOp)]


def _elementwise(
    loop: ForOp, before: list[Operation], after: list[Operation], store: StoreOp
) -> bool:
    """Whether the ops before and after the sum are an epilogue the
    routine's caller can run on the sums it stored: scalar `arith` and
    `math` ops and loads, the last value after the sum the one stored.
    (The sum's own ops, two loads at the nest's indices, a multiply and an
    add, `gemm_of` checks: nothing before it feeds its terms.)"""
    for op in before + after:
        if op.regions or not (
            isinstance(op, LoadOp) or op.name.startswith(("arith.", "math."))
        ):
            return False
        if not op.results or isinstance(op.results[0].type, VectorType):
            return False
    return store.value is (after[-1].results[0] if after else loop.results[0])


def _f32_sum(loop: ForOp) -> tuple[int, Term, Term] | None:
    """A sum of f32 products, bf16 operands widened (`_widened_load`)."""
    return product_sum(loop, _widened_load)


def gemm_of(
    nest: ParallelOp,
    sum_of: Callable[[ForOp], tuple[int, Term, Term] | None] = _f32_sum,
    operand_types: Collection[str] = tuple(OPERANDS),
) -> Gemm | None:
    """The dot a nest computes, where the routine covers it (module
    docstring), else None; `sum_of` matches its sum's loop (its trips and
    terms): f32 products, or `int8-calls`' byte quads (int8_calls.py), whose
    loads read one of `operand_types`."""
    sizes = static_sizes(nest)
    ops = _body(list(nest.body.block.ops))
    if sizes is None or len(sizes) < 2 or len(ops) < 2:
        return None
    loops = [i for i, op in enumerate(ops) if isinstance(op, ForOp)]
    if len(loops) != 1 or loops[0] == len(ops) - 1:
        return None
    before, (loop, *after, store) = ops[: loops[0]], ops[loops[0] :]
    if not isinstance(loop, ForOp) or not isinstance(store, StoreOp):
        return None
    ivs = list(nest.induction_vars)
    if len(store.indices) != len(ivs) or set(store.indices) != set(ivs):
        return None
    if not _elementwise(loop, before, after, store):
        return None
    summed = sum_of(loop)
    if summed is None:
        return None
    k_size, first, second = summed
    operands = _operands(first, second, operand_types)
    if operands is None:
        return None
    k = loop.induction_var
    extent = dict(zip(ivs, sizes, strict=True))
    col = store.indices[-1]
    for (a_load, _), (b_load, _) in ((first, second), (second, first)):
        batch = list(store.indices[: len(b_load.indices) - 2])
        rows = list(store.indices[len(batch) : -1])
        if not rows:
            continue
        a = _strides(a_load, batch, rows, k, extent)
        b = _strides(b_load, batch, [col], k, extent)
        c = _strides(store, batch, rows, col, extent)
        if a is None or b is None or c is None:
            continue
        row_sizes = tuple(extent[v] for v in rows)
        return Gemm(
            nest, a_load.buffer, b_load.buffer, store.buffer,
            prod(row_sizes), extent[col], k_size, a[0], a[1], b[1], b[0], c[0],
            tuple(rows), row_sizes,
            tuple(batch), tuple(extent[v] for v in batch), a[2], b[2], c[2],
            operands, "f32", store.buffer, (*before, *after), store,
        )  # fmt: skip
    return None


def _operands(first: Term, second: Term, allowed: Collection[str]) -> str | None:
    """The element type of `allowed` both terms' loads read, None where they
    differ (the routine reads A and B of one type)."""
    types = {str(_element(load.buffer)) for load, _ in (first, second)}
    if len(types) != 1:
        return None
    (type_,) = types
    return type_ if type_ in allowed else None


def _covered(gemm: Gemm, kernel: KernelOp, nr: int) -> bool:
    """Whether the routine gives the inline kernel's results at its speed:
    as `routine_calls.covered` asks, sums of at most `MAX_K` terms, and a
    batched dot's at least `BLOCK` long unless the batched entry takes it
    (`_whole_matrices`; the other short ones ran slower than inline
    through either entry)."""
    if not 1 <= gemm.k <= MAX_K:
        return False
    if gemm.batch and gemm.k < BLOCK and not _whole_matrices(gemm):
        return False
    if not _sums_pay(gemm):
        return False
    return covered(kernel, gemm.a, gemm.b, gemm.c, gemm.m, gemm.n, nr)


def _sums_pay(gemm: Gemm) -> bool:
    """Whether the f32 sums `_with_sums` adds for a C not f32 take at most
    `SUMS_BYTES`. They live in the temp arena (`scratch-in-arena`), so they
    cost no allocation, but each call writes them and the epilogue reads
    them back: where they are large, that memory traffic costs more than
    the routine saves over the inline kernel, which rounds in registers."""
    if gemm.result == "bf16" or isinstance(_element(gemm.c), Float32Type):
        return True
    return 4 * prod(gemm.batch_sizes) * gemm.m * gemm.n <= SUMS_BYTES


def _rounded_by_routine(gemm: Gemm) -> Gemm:
    """The dot with the routine storing C rounded to bf16 where A, B and C
    are bf16 and the epilogue only rounds the sum to C (`_rounds_to_bf16`;
    the routine rounds as it does: `gemm_routine.rounded`), else as it
    is."""
    if gemm.operands != "bf16" or not isinstance(_element(gemm.c), BFloat16Type):
        return gemm
    loop = next(op for op in gemm.nest.body.block.ops if isinstance(op, ForOp))
    if not _rounds_to_bf16(gemm.epilogue, loop.results[0]):
        return gemm
    return replace(gemm, result="bf16", epilogue=())


def _rounds_to_bf16(ops: Sequence[Operation], total: SSAValue) -> bool:
    """Whether `ops` are, op for op, what `widen-floats` makes of an
    `arith.truncf` of `total` to bf16 (`float_formats.encode`'s integer
    code, then the bits as a bf16)."""
    parent = ops[0].parent_block() if ops else None
    if parent is None:
        return False
    block = Block(arg_types=[Float32Type()])
    code = ScalarBuilder(Builder(InsertPoint.at_end(block)))
    bf16 = BFloat16Type()
    fmt = format_of(bf16)
    assert fmt is not None
    from_storage(encode(code, code.wrap(block.args[0]), fmt), fmt, bf16)
    made = list(block.ops)
    context: dict[IRNode | SSAValue, IRNode | SSAValue] = {
        block.args[0]: total,
        block: parent,
    }
    return len(made) == len(ops) and all(
        reference.is_structurally_equivalent(op, context)
        for reference, op in zip(made, ops, strict=True)
    )


def _whole_matrices(gemm: Gemm) -> bool:
    """Whether the batched entry (batched_routine.py) computes the dot: a
    batched one of sums shorter than `BLOCK`, stored as they are, of
    matrices at least `WHOLE_MATRIX` square, or `SHORT_SUM_MATRIX` square
    for sums of at most `SHORT_SUM` terms. Smaller ones ran slower through
    it than inline (128 x 64 x 128 matrices 1.02-1.03x, 64 square 1.1x:
    its calls and packing not paid back by so few rows and columns); 256
    square ran 0.78-0.94x the time for sums of 16 to 64 terms, but
    0.94-1.06x for 96 and 128 (its row tiles read every panel of B from
    L2, the inline kernel's one panel from L1). An epilogue would run on
    whole matrices out of cache."""
    least = SHORT_SUM_MATRIX if gemm.k <= SHORT_SUM else WHOLE_MATRIX
    return (
        bool(gemm.batch)
        and gemm.k < BLOCK
        and not gemm.epilogue
        and min(gemm.m, gemm.n) >= least
    )


def _call_batched(gemm: Gemm, site: Site, threads: int | None) -> None:
    """Replace the nest by calls of the batched entry: a threaded loop over
    groups of matrices (`GROUPS`, one where the loop has no threads), each
    group a call with a scratch slice of its own for its matrices' panels
    in turn."""
    matrices = prod(gemm.batch_sizes)
    per = matrices if threads is None else -(-matrices // GROUPS)
    groups = -(-matrices // per)
    panels = -(-gemm.n // site.nr)
    scratch = site.scratch(MemRefType(Float32Type(), [groups, panels, gemm.k, site.nr]))
    outer = ParallelOp([0], [groups], [1])
    b = calls_loop(gemm.nest, outer, threads, groups)
    (group,) = outer.induction_vars
    first = b.insert(arith.MuliOp(group, index_constant(b, per))).result
    left = b.insert(arith.SubiOp(index_constant(b, matrices), first)).result
    count = b.insert(arith.MinUIOp(left, index_constant(b, per))).result
    constants = [index_constant(b, size) for size in _sizes(gemm)]
    arguments = [gemm.a, gemm.b, gemm.sums, scratch, *constants, first, count, group]
    entry = batched_routine_name(site.mr, site.lanes, gemm.operands, gemm.result)
    b.insert(CallOp(entry, arguments))
    Rewriter.erase_op(gemm.nest)


def _sizes(gemm: Gemm) -> tuple[int, ...]:
    """The routine's size and stride arguments, in its order."""
    return (
        gemm.m, gemm.n, gemm.k, gemm.a_row, gemm.a_k, gemm.b_k, gemm.b_col,
        gemm.c_row, gemm.a_batch, gemm.b_batch, gemm.c_batch,
    )  # fmt: skip


def _call(gemm: Gemm, site: Site, threads: int | None) -> None:
    """Replace the nest by a loop of calls (module docstring): over the
    panels, each packed into a scratch slice of its own; for a batched dot,
    over the matrices, each with a scratch slice its panels take in turn
    (a slice per matrix and panel was as large as all of B, which cost a
    batched dot's launch its page faults); `threads`: the mark of that
    loop, None for none."""
    nr = site.nr
    matrices = prod(gemm.batch_sizes)
    panels = -(-gemm.n // nr)
    slots = matrices if gemm.batch else panels
    scratch = site.scratch(MemRefType(Float32Type(), [slots, gemm.k, nr]))
    if gemm.batch:
        outer = ParallelOp(
            [0] * len(gemm.batch), list(gemm.batch_sizes), [1] * len(gemm.batch)
        )
    else:
        outer = ParallelOp([0], [gemm.n], [nr])
    b = calls_loop(gemm.nest, outer, threads, slots)
    if gemm.batch:
        batch = list(outer.induction_vars)
        matrix = _linear(b, batch, gemm.batch_sizes)
        columns = b.insert(ForOp(0, gemm.n, nr))
        column = columns.induction_var
        b = Builder(InsertPoint.before(terminator(columns)))
        slot = matrix
    else:
        batch = []
        matrix = index_constant(b, 0)
        (column,) = outer.induction_vars
        slot = b.insert(arith.DivUIOp(column, index_constant(b, nr))).result
    constants = [index_constant(b, size) for size in _sizes(gemm)]
    arguments = [gemm.a, gemm.b, gemm.sums, scratch, *constants, matrix, slot, column]
    entry = routine_name(site.mr, site.lanes, gemm.operands, gemm.result)
    b.insert(CallOp(entry, arguments))
    if gemm.epilogue:
        _epilogue(b, gemm, nr, batch, column, constants[1])
    Rewriter.erase_op(gemm.nest)


def _linear(b: Builder, indices: Sequence[SSAValue], sizes: Sequence[int]) -> SSAValue:
    """The row-major position of `indices` in an array of `sizes` (0 for
    none)."""
    position = index_constant(b, 0)
    for index, size in zip(indices, sizes, strict=True):
        scaled = b.insert(arith.MuliOp(position, index_constant(b, size))).result
        position = b.insert(arith.AddiOp(scaled, index)).result
    return position


def _epilogue(
    b: Builder,
    gemm: Gemm,
    nr: int,
    batch: Sequence[SSAValue],
    column: SSAValue,
    columns: SSAValue,
) -> None:
    """The nest's epilogue on the panel's sums, which the routine stored to
    `gemm.sums`: a nest over the panel's elements that loads each sum back,
    runs the epilogue's ops on it and stores their value to C (as
    `register-tile` runs a costly epilogue once per tile: the same ops on
    the same values). Where N is a whole number of panels, the nest runs
    over the panel's `nr` columns from 0, offset inside: a column range
    `column` to `column + nr` (or clamped to N) is a trip count LLVM does
    not know (the sum may wrap), so it vectorizes such a nest with a scalar
    remainder loop, a second copy of the epilogue (a gelu's expanded
    `tanh`) that never runs."""
    rows = len(gemm.rows)
    whole = gemm.n % nr == 0
    if whole:
        first, end = 0, nr
    else:
        first = column
        end = b.insert(arith.AddiOp(column, index_constant(b, nr))).result
        end = b.insert(arith.MinUIOp(end, columns)).result
    nest = b.insert(
        ParallelOp([0] * rows + [first], [*gemm.row_sizes, end], [1] * (rows + 1))
    )
    inside = Builder(InsertPoint.before(terminator(nest)))
    *row_indices, last = nest.induction_vars
    if whole:
        last = inside.insert(arith.AddiOp(column, last)).result
    indices = [*batch, *row_indices, last]
    total = inside.insert(LoadOp(gemm.sums, indices)).result
    run_epilogue(inside, gemm, indices, total)


def run_epilogue(
    b: Builder, gemm: Gemm, indices: Sequence[SSAValue], total: SSAValue
) -> None:
    """The nest's epilogue on the sum `total` of C's element at `indices`:
    a copy of its ops, their value stored there (`_epilogue`, and the int8
    routine's caller: int8_calls.py)."""
    loop = next(op for op in gemm.nest.body.block.ops if isinstance(op, ForOp))
    values: dict[SSAValue, SSAValue] = dict(
        zip(gemm.store.indices, indices, strict=True)
    )
    values[loop.results[0]] = total
    for op in gemm.epilogue:
        copy = op.clone(value_mapper=values)
        b.insert(copy)
        values.update(zip(op.results, copy.results, strict=True))
    b.insert(StoreOp(values[gemm.store.value], gemm.c, indices))


def _with_sums(gemm: Gemm, site: Site) -> Gemm:
    """The dot with an f32 buffer of C's shape for the sums where C is not
    f32 (the epilogue rounds them into C)."""
    if gemm.result == "bf16" or isinstance(_element(gemm.c), Float32Type):
        return gemm
    return replace(gemm, sums=site.scratch(MemRefType(Float32Type(), _shape(gemm.c))))


@dataclass(frozen=True)
class GemmCallsPass(RoutineCallsPass):
    """f32 dot nests call the prebuilt GEMM routine (module docstring)."""

    name = "gemm-calls"

    def call(self, nest: ParallelOp, site: Site) -> None:
        gemm = gemm_of(nest)
        if gemm is None:
            return
        gemm = _rounded_by_routine(gemm)
        if not _covered(gemm, site.kernel, site.nr):
            return
        dots = prod(gemm.batch_sizes) * gemm.m * gemm.n * gemm.k
        threads = self.threads_for(dots, site.nr)
        gemm = _with_sums(gemm, site)
        if _whole_matrices(gemm):
            _call_batched(gemm, site, threads)
        else:
            _call(gemm, site, threads)
