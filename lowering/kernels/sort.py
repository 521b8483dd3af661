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

The first `STATIC_PASSES` passes (one fewer when that leaves an odd number)
have their run width in the code (whole pairs of constant length, then the
shorter last pair or a lone run). The rest run in pairs, results to scratch
and back, in a `loop.for` over the pairs of passes whose run width is
`1 << exponent` at run time: a long sort has a few merge nests, not one or
two per pass that the later passes jam and compile each.
Such a pass merges the whole pairs in one nest and the last, clipped pair
(short, or a lone run merged with an empty one: copied) in another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.ir import Block, SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import Bound
from xlir.dialects.stablehlo.reduction import SortOp
from xlir.lowering.index_maps import Indices, shape
from xlir.lowering.kernels.common import KernelBuilder

Buffers = tuple[Sequence[SSAValue], Sequence[SSAValue]]
"""What a pass reads, and what it writes."""

PairAt = Callable[[SSAValue], tuple[SSAValue, Bound, Bound]]
"""A pair's index to where the pair starts and its left and right run lengths."""


STATIC_PASSES = 4
"""Passes whose run width is in the code: a sort of up to 16 elements has
no loop over passes."""


def lower_sort(op: SortOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    sizes = shape(op.inputs[0])
    axis = op.sort_dimension
    passes = pass_count(sizes[axis])
    if not passes:
        for operand, result in zip(kb.inputs, kb.outputs, strict=True):
            kb.copy(operand, result, sizes)
        return kb.finish()
    scratch = kb.scratch([o.type for o in kb.outputs]) if passes > 1 else []
    comparator = op.comparator.block
    assert comparator is not None
    merge = _Merge(kb, comparator, sizes, axis)
    unrolled = min(passes, STATIC_PASSES)
    unrolled -= (passes - unrolled) % 2
    source: Sequence[SSAValue] = kb.inputs
    for done in range(unrolled):
        target = kb.outputs if (passes - done - 1) % 2 == 0 else scratch
        merge.constant_width((source, target), 1 << done)
        source = target
    if passes > unrolled:

        def two_passes(twice: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            exponent = kb.ix.add(kb.ix.mul(twice, 2), unrolled)
            merge.runtime_width((kb.outputs, scratch), exponent)
            merge.runtime_width((scratch, kb.outputs), kb.ix.add(exponent, 1))
            return []

        kb.for_loop(0, (passes - unrolled) // 2, [], two_passes)
    return kb.finish()


def pass_count(length: int) -> int:
    """ceil(log2(length)): the merge passes that sort `length` elements."""
    return max(length - 1, 0).bit_length()


class _Merge:
    """Merge passes of one sort kernel along `axis` of arrays of `sizes`."""

    def __init__(
        self, kb: KernelBuilder, comparator: Block, sizes: Sequence[int], axis: int
    ):
        self.kb = kb
        self.comparator = comparator
        self.sizes = sizes
        self.axis = axis

    def constant_width(self, buffers: Buffers, width: int) -> None:
        """Merge runs of `width` into runs twice that: every whole pair,
        then the last, shorter one (a lone left run is copied)."""
        ix = self.ix
        pairs, rest = divmod(self.sizes[self.axis], 2 * width)
        if pairs:

            def whole(p: SSAValue) -> tuple[SSAValue, Bound, Bound]:
                start = ix.mul(p, 2 * width) if pairs > 1 else ix.const(0)
                return start, width, width

            self._merge_runs(buffers, pairs, whole)
        first = pairs * 2 * width
        if rest > width:
            tail = (ix.const(first), width, rest - width)
            self._merge_runs(buffers, 1, lambda _: tail)
        elif rest:
            self._copy_tail(buffers, first)

    def runtime_width(self, buffers: Buffers, exponent: SSAValue) -> None:
        """Merge runs of `1 << exponent` into runs twice that: every whole
        pair (each the same length, so the nest can be jammed), then the
        last pair clipped at the end of the dimension, if any (a lone or
        short left run is merged with what is left of the right one; a
        length that is a power of two has none in any pass)."""
        kb, ix = self.kb, self.ix
        length = self.sizes[self.axis]
        width = kb.place(arith.ShLIOp(ix.const(1), exponent))
        double = ix.add(exponent, 1)
        whole = kb.place(arith.ShRUIOp(ix.const(length), double))

        def whole_pair(p: SSAValue) -> tuple[SSAValue, Bound, Bound]:
            return kb.place(arith.ShLIOp(p, double)), width, width

        self._merge_runs(buffers, whole, whole_pair)
        if length & (length - 1) == 0:
            return  # a power of two: every pass's pairs are whole
        first = kb.place(arith.ShLIOp(whole, double))
        rest = ix.sub(ix.const(length), first)
        clipped = kb.place(arith.MinSIOp(rest, ix.const(1)))
        left = kb.place(arith.MinSIOp(width, rest))
        right = ix.sub(rest, left)
        self._merge_runs(buffers, clipped, lambda _: (first, left, right))

    @property
    def ix(self):
        return self.kb.ix

    def _merge_runs(self, buffers: Buffers, pairs: Bound, pair_at: PairAt) -> None:
        kb, ix, axis = self.kb, self.ix, self.axis
        source, target = buffers
        grid: list[Bound] = list(self.sizes)
        grid[axis] = pairs

        def pair(idx: Indices) -> None:
            start, left, right = pair_at(idx[axis])

            def at(offset: SSAValue) -> Indices:
                moved = list(idx)
                moved[axis] = ix.add(start, offset)
                return moved

            def step(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                i, j = carried
                left_at = at(_at_most(kb, i, left))
                right_at = at(ix.add(_at_most(kb, j, right), left))
                left_values = [kb.load(buffer, left_at) for buffer in source]
                right_values = [kb.load(buffer, right_at) for buffer in source]
                candidates = zip(right_values, left_values, strict=True)
                arguments = [v for both in candidates for v in both]
                (right_first,) = kb.inline(self.comparator, arguments)
                left_done = ix.cmp("sge", i, left)
                either = kb.place(arith.OrIOp(left_done, right_first))
                take_right = ix.and_(ix.cmp("slt", j, right), either)
                assert take_right is not None
                for lhs, rhs, buffer in zip(
                    left_values, right_values, target, strict=True
                ):
                    chosen = kb.place(arith.SelectOp(take_right, rhs, lhs))
                    kb.store(chosen, buffer, at(k))
                next_i = kb.place(arith.SelectOp(take_right, i, ix.add(i, 1)))
                next_j = kb.place(arith.SelectOp(take_right, ix.add(j, 1), j))
                return [next_i, next_j]

            zero = ix.const(0)
            kb.for_loop(0, _sum(kb, left, right), [zero, zero], step)

        kb.parallel(grid, pair)

    def _copy_tail(self, buffers: Buffers, first: int) -> None:
        """Copy positions `first`... of the sort dimension (a run with no
        partner in this pass)."""
        kb, axis = self.kb, self.axis
        source, target = buffers
        grid = list(self.sizes)
        grid[axis] -= first

        def element(idx: Indices) -> None:
            at = list(idx)
            at[axis] = kb.ix.add(idx[axis], first)
            for from_, to in zip(source, target, strict=True):
                kb.store(kb.load(from_, at), to, at)

        kb.parallel(grid, element)


def _at_most(kb: KernelBuilder, position: SSAValue, length: Bound) -> SSAValue:
    """A run position (never below 0) clamped to the run's last element; a
    run of runtime length 0 (the missing right run of a lone left one) reads
    the element before it, which is ignored."""
    if length == 1:
        return kb.ix.const(0)
    last = kb.ix.sub(length, 1) if isinstance(length, SSAValue) else length - 1
    return kb.place(arith.MinSIOp(position, _index(kb, last)))


def _sum(kb: KernelBuilder, a: Bound, b: Bound) -> Bound:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    return kb.ix.add(_index(kb, a), b)


def _index(kb: KernelBuilder, value: Bound) -> SSAValue:
    return kb.ix.const(value) if isinstance(value, int) else value


KERNELS = {"stablehlo.sort": lower_sort}
