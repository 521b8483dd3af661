"""`stablehlo.sort` as a bottom-up merge sort along the sort dimension.

Pass p merges neighbouring sorted runs of width 2^(p-1) into runs twice as
long, so ceil(log2(n)) passes sort n elements. Each pass is one
`loop.parallel` over every position of the other dimensions and every pair
of runs, around a `loop.for` over the merged run that carries the two read
positions; the comparator is inlined on the candidates of all inputs at once
(keys and values move together). The right run's element is taken only when
the comparator says it goes strictly first, so the sort is stable whatever
`is_stable` says, and for a comparator that is a strict weak order it agrees
with the reference interpreter's stable sort. Reads are clamped inside their
run, so a finished run is read (and ignored) rather than branched around.

A pass cannot merge in place, so the kernel takes one scratch buffer per
result after its results (the host schedule allocates them around the
launch). The first pass reads the operands, which the buffer plan never puts
in a result's memory (passes/hlo/buffers/sharing.py), and the passes alternate
between results and scratch so that the last one writes the results; one
pass (two elements) needs no scratch, and one element is a copy.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.ir import Block, SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.reduction import SortOp
from xlir.lowering.index_maps import Indices, shape
from xlir.lowering.kernels.common import KernelBuilder


def lower_sort(op: SortOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    sizes = shape(op.inputs[0])
    axis = op.sort_dimension
    widths = _run_widths(sizes[axis])
    if not widths:
        for operand, result in zip(kb.inputs, kb.outputs, strict=True):
            kb.copy(operand, result, sizes)
        return kb.finish()
    scratch = kb.scratch([o.type for o in kb.outputs]) if len(widths) > 1 else []
    comparator = op.comparator.block
    assert comparator is not None
    source: Sequence[SSAValue] = kb.inputs
    for done, width in enumerate(widths):
        passes_after = len(widths) - done - 1
        target = kb.outputs if passes_after % 2 == 0 else scratch
        _merge_pass(kb, comparator, (source, target), sizes, axis, width)
        source = target
    return kb.finish()


def _run_widths(length: int) -> list[int]:
    """The run width each pass merges pairs of: 1, 2, 4, ... below `length`."""
    widths: list[int] = []
    while 1 << len(widths) < length:
        widths.append(1 << len(widths))
    return widths


def _merge_pass(
    kb: KernelBuilder,
    comparator: Block,
    buffers: tuple[Sequence[SSAValue], Sequence[SSAValue]],
    sizes: Sequence[int],
    axis: int,
    width: int,
) -> None:
    """Merge the runs of `width` in the source buffers into runs of twice
    that in the target buffers: every whole pair, then the last, shorter
    one (a lone left run is copied)."""
    pairs, rest = divmod(sizes[axis], 2 * width)
    if pairs:
        _merge_runs(kb, comparator, buffers, sizes, axis, (pairs, 0), (width, width))
    first = pairs * 2 * width
    if rest > width:
        _merge_runs(
            kb, comparator, buffers, sizes, axis, (1, first), (width, rest - width)
        )
    elif rest:
        _copy_tail(kb, buffers, sizes, axis, first)


def _merge_runs(
    kb: KernelBuilder,
    comparator: Block,
    buffers: tuple[Sequence[SSAValue], Sequence[SSAValue]],
    sizes: Sequence[int],
    axis: int,
    runs: tuple[int, int],
    lengths: tuple[int, int],
) -> None:
    """`runs` is (how many pairs, where the first starts), `lengths` the left
    and right run lengths of every pair."""
    ix = kb.ix
    source, target = buffers
    count, first = runs
    left, right = lengths
    grid = list(sizes)
    grid[axis] = count

    def pair(idx: Indices) -> None:
        start = (
            ix.add(ix.mul(idx[axis], left + right), first)
            if count > 1
            else ix.const(first)
        )

        def at(offset: SSAValue) -> Indices:
            moved = list(idx)
            moved[axis] = ix.add(start, offset)
            return moved

        def step(ivs: list[SSAValue], carried: list[SSAValue]) -> list[SSAValue]:
            (k,), (i, j) = ivs, carried
            left_at = at(_at_most(kb, i, left - 1))
            right_at = at(ix.add(_at_most(kb, j, right - 1), left))
            left_values = [kb.load(buffer, left_at) for buffer in source]
            right_values = [kb.load(buffer, right_at) for buffer in source]
            candidates = zip(right_values, left_values, strict=True)
            arguments = [v for both in candidates for v in both]
            (right_first,) = kb.inline(comparator, arguments)
            left_done = ix.cmp("sge", i, left)
            either = kb.place(arith.OrIOp(left_done, right_first))
            take_right = ix.and_(ix.cmp("slt", j, right), either)
            assert take_right is not None
            for lhs, rhs, buffer in zip(left_values, right_values, target, strict=True):
                kb.store(kb.place(arith.SelectOp(take_right, rhs, lhs)), buffer, at(k))
            next_i = kb.place(arith.SelectOp(take_right, i, ix.add(i, 1)))
            next_j = kb.place(arith.SelectOp(take_right, ix.add(j, 1), j))
            return [next_i, next_j]

        zero = ix.const(0)
        kb.nest.for_nest([left + right], [zero, zero], step)

    kb.parallel(grid, pair)


def _at_most(kb: KernelBuilder, position: SSAValue, last: int) -> SSAValue:
    """A run position (never below 0) clamped to the run's last element."""
    if last == 0:
        return kb.ix.const(0)
    return kb.place(arith.MinSIOp(position, kb.ix.const(last)))


def _copy_tail(
    kb: KernelBuilder,
    buffers: tuple[Sequence[SSAValue], Sequence[SSAValue]],
    sizes: Sequence[int],
    axis: int,
    first: int,
) -> None:
    """Copy positions `first`... of the sort dimension (a run with no partner
    in this pass)."""
    source, target = buffers
    grid = list(sizes)
    grid[axis] -= first

    def element(idx: Indices) -> None:
        at = list(idx)
        at[axis] = kb.ix.add(idx[axis], first)
        for from_, to in zip(source, target, strict=True):
            kb.store(kb.load(from_, at), to, at)

    kb.parallel(grid, element)


KERNELS = {"stablehlo.sort": lower_sort}
