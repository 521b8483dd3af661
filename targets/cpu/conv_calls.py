"""`conv-calls{mr lanes threads min-work vector-bits vector-registers}`:
f32 convolution nests call the prebuilt GEMM routine's convolution entries
(conv_routine.py) instead of being register-tiled and packed inline.

A convolution kernel inlined costs each compile `register-tile`,
`pack-panels` and `block-sums` in Python and then LLVM on hundreds of lines
of IR; the entries, the sizes and strides their arguments, are compiled
once per host with the dot routine. This pass, run before `register-tile` (beside
`gemm-calls`), turns a nest

    loop.parallel (%b, %y, %x, %o) = (0, 0, 0, 0) to (B, H, W, O) {
      %s = loop.for %c = 0 to C iter_args(%acc = 0.0) {
        loop.for %kh = 0 to KH iter_args(...) {       (up to three loops)
          loop.for %kw = 0 to KW iter_args(...) {
            %p = arith.mulf In[b, y*sy + kh*dy, x*sx + kw*dx, c],
                            W[kh, kw, c, o]             (either first)
            loop.yield %acc' + %p                       (either order)
      } } }
      loop.store %s, %Out[%b, %y, %x, %o]
    }

(`hlo-to-loop`'s convolution) into a call of the pack entry, which writes
the taps and the weights' panels to a scratch argument once, and a loop
over groups of C's rows calling the entry per group (it runs over the
panels of `nr` output channels). The match is on indices, not on the
layout: C's last index (a nest dimension, unit stride) is the GEMM's
column, its others, in order, the rows (up to three); every index of A
and B must be a linear sum of the nest's and the sum loops' induction
variables (`index_ranges.linear_form`, after the clamps the bounds decide
are folded), A's free of the column, B's free of the rows. A padded
convolution's input (left unpadded by `unpad-convs`) is read as
`hlo-to-loop` reads it, `select(in, In[clamp(e0), ...], +0.0)` with `in`
the tests of the clamped indices (`pad_calls.zero_outside`): each `e` a
linear sum less its padding before, A's strides are then those of the
padded array and the entry pads the rows each group reads into a window
of the scratch (`_window`: the most any group reads). The groups
(`GROUP_ROWS`) are marked for threads (`parallelize`'s `{threads}`) where
the inline kernel's work (about `4 M N K / nr` vector ops) reaches
`min-work`.

The entry sums each element's terms in the nest's order with one FMA each,
split as `block-sums` splits the inline tile's loops (chunks of whole
iterations of the outermost sum loop), so results are bit for bit the
inline kernel's. Left inline: a sum `block-sums` would split otherwise
(an outer iteration of more than 128 terms in a sum of more than 256, or
more than 256 chunks), an index that is no such linear sum (lhs
dilation; a padding with a negative side before), a
depthwise convolution (its input read at the output channel), a nest with
an epilogue or other ops, more than three rows or sum loops, the shapes
`gemm-calls` leaves (M or N below 2, a last panel mostly past N), a kernel
that reads C or writes A or B, an empty sum, and other element types.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    Float32Type,
    IndexType,
    IntegerType,
    MemRefType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.analysis.index_ranges import linear_form
from xlir.analysis.loop_utils import index_constant
from xlir.dialects.loop.calls import CallOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.passes.loop.fold_index import fold_decided
from xlir.targets.cpu.conv_routine import (
    PADDING,
    conv_routine_name,
    pack_routine_name,
    scratch_floats,
)
from xlir.targets.cpu.gemm_routine import BLOCK
from xlir.targets.cpu.pad_calls import entry_sizes, zero_outside
from xlir.targets.cpu.routine_calls import (
    RoutineCallsPass,
    Site,
    calls_loop,
    covered,
    f32_shape,
    is_positive_zero,
    static_sizes,
)

LEVELS = 3
"""Row dimensions, and sum loops, the entry splits an index over."""

GROUP_ROWS = 256
"""Rows of C per call (whole lines of its innermost row dimension, at
least this many): the threaded loop's iterations, each of which divides
to find its lines' first pixels."""


@dataclass(frozen=True)
class Conv:
    """A convolution nest the entry computes: its buffers, sizes and
    element strides (conv_routine.py's arguments), each level list outer
    first and `LEVELS` long (size 1, stride 0 where the nest has fewer)."""

    nest: ParallelOp
    a: SSAValue
    b: SSAValue
    c: SSAValue
    rows: tuple[int, ...]
    a_rows: tuple[int, ...]
    n: int
    terms: tuple[int, ...]
    a_terms: tuple[int, ...]
    b_terms: tuple[int, ...]
    b_col: int
    padding: tuple[int, ...] | None
    """The pad entry's sizes of A read padded (`pad_calls.entry_sizes`:
    its strides above are those of the padded array), None: A as it is."""

    @property
    def m(self) -> int:
        return prod(self.rows)

    @property
    def k(self) -> int:
        return prod(self.terms)


def _element_offset(
    load: LoadOp, variables: Sequence[SSAValue], ranges: Sequence[int]
) -> tuple[list[int], tuple[int, ...] | None] | None:
    """The coefficient of each of `variables` (their trip counts `ranges`)
    in the element offset `load` reads, where that offset is a linear sum
    of them alone, and the pad entry's sizes where it reads the buffer
    padded with zeros (`pad_calls.zero_outside`, through the select of its
    only use): the offset is then one into the padded array."""
    shape = f32_shape(load.buffer)
    if shape is None:
        return None
    users = list(load.results[0].uses)
    read = (zero_outside(load, users[0].operation) if len(users) == 1 else None) or [
        (index, False) for index in load.indices
    ]
    padded, low = [], []
    forms = [linear_form(index) for index, _ in read]
    for (terms, constant), (_, clamped), size in zip(forms, read, shape, strict=True):
        if (constant > 0 or (not clamped and constant != 0)) or any(
            term not in variables or coefficient < 0
            for term, coefficient in terms.items()
        ):
            return None
        top = sum(c * (ranges[variables.index(t)] - 1) for t, c in terms.items())
        low.append(-constant)
        padded.append(max(size - constant, top + 1))
    strides = [prod(padded[d + 1 :]) for d in range(len(padded))]
    coefficients = [0] * len(variables)
    for (terms, _), stride in zip(forms, strides, strict=True):
        for term, coefficient in terms.items():
            coefficients[variables.index(term)] += coefficient * stride
    if not any(clamped for _, clamped in read):
        return coefficients, None
    sizes = entry_sizes(tuple(padded), shape, tuple(low))
    return None if sizes is None else (coefficients, sizes)


def _is_index_op(op: Operation) -> bool:
    """An op that only computes indices (a clamp the bounds decided, an
    output position times the stride) or tests them (the padding's)."""
    return (
        op.name.startswith("arith.")
        and not op.regions
        and all(isinstance(r.type, IndexType | IntegerType) for r in op.results)
    )


def _sum_loops(nest: ParallelOp) -> tuple[list[ForOp], StoreOp] | None:
    """The nest's sum loops, outermost first, and its store: loops each
    of which only continues the one before's sum, from +0.0."""
    body = [op for op in nest.body.block.ops if not isinstance(op, YieldOp)]
    store = body[-1] if body else None
    if not isinstance(store, StoreOp):
        return None
    ops = body[:-1]
    loops = [op for op in ops if isinstance(op, ForOp)]
    if len(loops) != 1 or not all(_is_index_op(op) for op in ops if op not in loops):
        return None
    (loop,) = loops
    if len(loop.iter_args) != 1 or store.value is not loop.results[0]:
        return None
    if not is_positive_zero(loop.iter_args[0]):
        return None
    found = [loop]
    while True:
        body = [op for op in loop.body.block.ops if not _is_index_op(op)]
        inner = [op for op in body if isinstance(op, ForOp)]
        if not inner:
            return found, store
        nested, yielded = body[0], body[-1]
        if (
            len(body) != 2
            or not isinstance(nested, ForOp)
            or list(nested.iter_args) != list(loop.carried)
            or not isinstance(yielded, YieldOp)
            or list(yielded.operands) != list(nested.results)
        ):
            return None
        loop = nested
        found.append(loop)


def _padded(values: Sequence[int], fill: int) -> tuple[int, ...]:
    return (fill,) * (LEVELS - len(values)) + tuple(values)


def conv_of(nest: ParallelOp) -> Conv | None:
    """The convolution a nest computes, where the entry covers it (module
    docstring), else None."""
    sizes = static_sizes(nest)
    found = _sum_loops(nest) if sizes is not None else None
    if sizes is None or found is None:
        return None
    loops, store = found
    term_sizes = []
    for loop in loops:
        counted = static_sizes(loop)
        if counted is None:
            return None
        term_sizes += counted
    ivs = list(nest.induction_vars)
    indices = list(store.indices)
    if (
        not indices
        or len(set(indices)) != len(ivs)
        or set(indices) != set(ivs)
        or tuple(sizes[ivs.index(v)] for v in indices) != f32_shape(store.buffer)
        or len(ivs) - 1 > LEVELS
        or len(loops) > LEVELS
    ):
        return None
    innermost = loops[-1]
    ops = [op for op in innermost.body.block.ops if not _is_index_op(op)]
    loads = [op for op in ops if isinstance(op, LoadOp)]
    selects = [op for op in ops if isinstance(op, arith.SelectOp)]
    if len(loads) != 2 or len(selects) > 1 or len(ops) != 5 + len(selects):
        return None
    multiply, add, yielded = ops[-3:]
    if not isinstance(yielded, YieldOp):
        return None
    if not isinstance(multiply, arith.MulfOp) or not isinstance(add, arith.AddfOp):
        return None
    read = {s.result for s in selects} | {load.results[0] for load in loads}
    if {multiply.lhs, multiply.rhs} | {s.lhs for s in selects} != read:
        return None
    if len(innermost.carried) != 1:
        return None
    (acc,) = innermost.carried
    if {add.lhs, add.rhs} != {acc, multiply.result} or add.lhs is add.rhs:
        return None
    if list(yielded.operands) != [add.result]:
        return None
    row_ivs, column = list(store.indices[:-1]), store.indices[-1]
    k_ivs = [loop.induction_var for loop in loops]
    variables = [*row_ivs, column, *k_ivs]
    ranges = [*(sizes[ivs.index(v)] for v in (*row_ivs, column)), *term_sizes]
    rows = len(row_ivs)
    for a_load, b_load in (loads, loads[::-1]):
        a_read = _element_offset(a_load, variables, ranges)
        b_read = _element_offset(b_load, variables, ranges)
        if a_read is None or b_read is None or b_read[1] is not None:
            continue
        (a, padding), (b, _) = a_read, b_read
        if bool(selects) != (padding is not None):
            continue  # a select that is not A's padding
        if a[rows] != 0 or any(b[:rows]) or b[rows] < 1:
            continue
        return Conv(
            nest, a_load.buffer, b_load.buffer, store.buffer,
            _padded([sizes[ivs.index(v)] for v in row_ivs], 1), _padded(a[:rows], 0),
            sizes[ivs.index(column)],
            _padded(term_sizes, 1), _padded(a[rows + 1 :], 0), _padded(b[rows + 1 :], 0),
            b[rows], padding,
        )  # fmt: skip
    return None


def chunk_terms(terms: Sequence[int]) -> int | None:
    """The terms per chunk `block-sums` splits a sum over nested loops of
    these sizes into (0: none), None where it splits it otherwise than
    into chunks of whole outer iterations and the terms left."""
    outermost = next((i for i, size in enumerate(terms) if size != 1), 0)
    terms = terms[outermost:]  # a loop of one iteration adds no split
    total, inner = prod(terms), prod(terms[1:])
    if total <= BLOCK:
        return 0
    per_chunk = BLOCK // inner
    if per_chunk < 2 or terms[0] // per_chunk > BLOCK:
        return None
    return per_chunk * inner


def _covered(conv: Conv, kernel: KernelOp, nr: int) -> bool:
    """Whether the entry gives the inline kernel's bits at its speed: as
    `gemm-calls` asks of a dot, and a sum `block-sums` splits in chunks."""
    if conv.k < 1 or chunk_terms(conv.terms) is None:
        return False
    return covered(kernel, conv.a, conv.b, conv.c, conv.m, conv.n, nr)


def _window(conv: Conv, group: int) -> int:
    """The floats of the largest window of A's padded rows a group of
    `group` rows reads (conv_routine.py: the entry's own sums), 0 for A
    read in place."""
    if conv.padding is None:
        return 0
    row = conv.padding[2]
    _, middle, inner = conv.rows
    a_m2, a_m1, a_m0 = conv.a_rows
    last_tap = sum((t - 1) * a for t, a in zip(conv.terms, conv.a_terms, strict=True))

    def offset(at: int) -> int:
        line = at // inner
        return line // middle * a_m2 + line % middle * a_m1

    rows = 0
    for first in range(0, conv.m, group):
        last = first + min(group, conv.m - first) - inner
        end = offset(last) + (inner - 1) * a_m0 + last_tap
        rows = max(rows, end // row + 1 - offset(first) // row)
    return rows * row


def _call(conv: Conv, site: Site, threads: int | None) -> None:
    """Replace the nest by the pack call and a loop over groups of
    `GROUP_ROWS` rows, each calling the entry (module docstring);
    `threads`: the mark of that loop, None for none."""
    mr, lanes = site.mr, site.lanes
    _, middle, inner = conv.rows
    group = -(-GROUP_ROWS // inner) * inner
    groups = -(-conv.m // group)
    chunk = chunk_terms(conv.terms)
    assert chunk is not None
    window = _window(conv, group)
    floats = scratch_floats(conv.n, conv.k, lanes) + groups * window
    scratch = site.scratch(MemRefType(Float32Type(), [floats]))
    b = Builder(InsertPoint.before(conv.nest))
    _, k_middle, k_inner = conv.terms
    sizes = (
        conv.n, conv.k, k_middle, k_inner, *conv.a_terms, *conv.b_terms, conv.b_col,
    )  # fmt: skip
    constants = [index_constant(b, size) for size in sizes]
    b.insert(CallOp(pack_routine_name(mr, lanes), [conv.b, scratch, *constants]))
    loop = ParallelOp([0], [groups], [1])
    b = calls_loop(conv.nest, loop, threads, groups)
    (index,) = loop.induction_vars
    first = b.insert(arith.MuliOp(index, index_constant(b, group))).result
    left = b.insert(arith.SubiOp(index_constant(b, conv.m), first)).result
    count = b.insert(arith.MinUIOp(left, index_constant(b, group))).result
    padding = conv.padding or (0,) * PADDING
    sizes = (middle, inner, *conv.a_rows, conv.n, conv.n, conv.k, chunk, window)
    constants = [index_constant(b, size) for size in (*sizes, *padding)]
    arguments = [conv.a, conv.c, scratch, first, count, index, *constants]
    b.insert(CallOp(conv_routine_name(mr, lanes), arguments))
    Rewriter.erase_op(conv.nest)


@dataclass(frozen=True)
class ConvCallsPass(RoutineCallsPass):
    """f32 convolution nests call the GEMM routine's convolution entry
    (module docstring)."""

    name = "conv-calls"

    def call(self, nest: ParallelOp, site: Site) -> None:
        fold_decided(nest)
        conv = conv_of(nest)
        if conv is None or not _covered(conv, site.kernel, site.nr):
            return
        _call(conv, site, self.threads_for(conv.m * conv.n * conv.k, site.nr))
