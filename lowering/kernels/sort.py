"""`stablehlo.sort` as a bottom-up merge sort along the sort dimension.

A first pass sorts blocks of 2 or 4 elements with an odd-even transposition
network: straight-line compare-exchanges of neighbours, each swapping only
when the comparator says the right element goes strictly first (so equal
elements keep their order), in one `loop.parallel` over every position of
the other dimensions and every block (a shorter last block gets a network
of its size). The block size is chosen so that an even number of merge
passes is left.

Merge pass p merges neighbouring sorted runs of width 2^(p-1) into runs
twice as long, so ceil(log2(n)) passes in all sort n elements. Each pass is
one `loop.parallel` over every position of the other dimensions and every
pair of runs, around a `loop.for` over the merged run that carries the two
read positions (along the dimension, each clamped to its run's last
element); the comparator is inlined on the candidates of all inputs
at once (keys and values move together). The right run's element is taken
only when the comparator says it goes strictly first, so the sort is stable
whatever `is_stable` says, and for a comparator that is a strict weak order
it agrees with the reference interpreter's stable sort (`simplify` has
made JAX's float comparator a few float compares by then:
`passes/hlo/simplify_patterns/total_order.py`). Clamped reads mean a
finished run is read (and ignored) rather than branched around.

A pass cannot merge in place, so the kernel takes one scratch buffer per
result after its results (the host schedule allocates them around the
launch). The first pass reads the operands, which the buffer plan never puts
in a result's memory (passes/hlo/buffers/sharing.py), and writes the
results; the merge passes run in pairs, results to scratch and back, in a
`loop.for` over the pairs of passes whose run width is `1 << exponent` at
run time: every sort has two merge nests, not one per pass that the later
passes jam and compile each. Such a pass merges the whole pairs in one nest
and the last, clipped pair (short, or a lone run merged with an empty one:
copied) in another. Up to four elements need no merge pass and no scratch,
and one element is a copy.

A sort that `sort-routines` marked (one operand's elements in a plain
order) calls the target's sort routine instead: sort_routine.py.
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
from xlir.lowering.kernels.sort_routine import lower_sort_routine
from xlir.passes.hlo.sort_routines import sort_key

Buffers = tuple[Sequence[SSAValue], Sequence[SSAValue]]
"""What a pass reads, and what it writes."""

PairAt = Callable[[SSAValue], tuple[SSAValue, Bound, Bound]]
"""A pair's index to where the pair starts and its left and right run lengths."""


def lower_sort(op: SortOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    sizes = shape(op.inputs[0])
    axis = op.sort_dimension
    passes = pass_count(sizes[axis])
    if not passes:
        for operand, result in zip(kb.inputs, kb.outputs, strict=True):
            kb.copy(operand, result, sizes)
        return kb.finish()
    key = sort_key(op)
    if key is not None:
        return lower_sort_routine(op, name, key)
    comparator = op.comparator.block
    assert comparator is not None
    merge = _Merge(kb, comparator, sizes, axis)
    sorted_by_blocks = 2 - passes % 2
    merge.sort_blocks((kb.inputs, kb.outputs), 1 << sorted_by_blocks)
    if passes > sorted_by_blocks:
        scratch = kb.scratch([o.type for o in kb.outputs])

        def two_passes(twice: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            exponent = kb.ix.add(kb.ix.mul(twice, 2), sorted_by_blocks)
            merge.runtime_width((kb.outputs, scratch), exponent)
            merge.runtime_width((scratch, kb.outputs), kb.ix.add(exponent, 1))
            return []

        kb.for_loop(0, (passes - sorted_by_blocks) // 2, [], two_passes)
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

    def sort_blocks(self, buffers: Buffers, size: int) -> None:
        """Sort every block of `size` elements, then the shorter last one
        (a lone element is copied)."""
        axis = self.axis
        blocks, rest = divmod(self.sizes[axis], size)
        if blocks:
            self._sort_block_nest(buffers, blocks, size)
        if rest > 1:
            self._sort_block_nest(buffers, 1, rest, blocks * size)
        elif rest:
            self._copy_tail(buffers, blocks * size)

    def _sort_block_nest(
        self, buffers: Buffers, blocks: int, size: int, first: int = 0
    ) -> None:
        """Sort `blocks` blocks of `size` elements from position `first` on
        by an odd-even transposition network: `size` rounds of
        compare-exchanges of neighbours, alternately from the first and the
        second element."""
        kb, ix, axis = self.kb, self.ix, self.axis
        source, target = buffers
        grid: list[Bound] = list(self.sizes)
        grid[axis] = blocks

        def block(idx: Indices) -> None:
            start = ix.mul(idx[axis], size) if blocks > 1 else ix.const(0)
            if first:
                start = ix.add(start, first)

            def at(position: int) -> Indices:
                moved = list(idx)
                moved[axis] = ix.add(start, position) if position else start
                return moved

            values = [[kb.load(b, at(p)) for b in source] for p in range(size)]
            for round_ in range(size):
                for left in range(round_ % 2, size - 1, 2):
                    values[left], values[left + 1] = self._exchange(
                        values[left], values[left + 1]
                    )
            for position, elements in enumerate(values):
                for value, buffer in zip(elements, target, strict=True):
                    kb.store(value, buffer, at(position))

        kb.parallel(grid, block)

    def _exchange(
        self, left: list[SSAValue], right: list[SSAValue]
    ) -> tuple[list[SSAValue], list[SSAValue]]:
        """Neighbouring elements (every input's value at each), swapped if
        the right one goes strictly first."""
        kb = self.kb
        candidates = zip(right, left, strict=True)
        (right_first,) = kb.inline(self.comparator, [v for p in candidates for v in p])
        pairs = list(zip(left, right, strict=True))
        return (
            [kb.place(arith.SelectOp(right_first, r, lft)) for lft, r in pairs],
            [kb.place(arith.SelectOp(right_first, lft, r)) for lft, r in pairs],
        )

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
        """Merge each pair of runs: a `loop.for` over the merged run that
        carries the two read positions along the dimension (not within
        their runs, so that a step adds no run start to them)."""
        kb, ix, axis = self.kb, self.ix, self.axis
        source, target = buffers
        grid: list[Bound] = list(self.sizes)
        grid[axis] = pairs

        def pair(idx: Indices) -> None:
            start, left, right = pair_at(idx[axis])
            middle = ix.add(start, left)
            end = ix.add(middle, right)
            # A position read is clamped to its run's last element; a right
            # run of length 0 (the missing partner of a lone left run) reads
            # the left run's last, which is never taken.
            last_left, last_right = ix.sub(middle, 1), ix.sub(end, 1)

            def at(position: SSAValue) -> Indices:
                moved = list(idx)
                moved[axis] = position
                return moved

            def step(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                i, j = carried
                left_at = at(kb.place(arith.MinSIOp(i, last_left)))
                right_at = at(kb.place(arith.MinSIOp(j, last_right)))
                left_values = [kb.load(buffer, left_at) for buffer in source]
                right_values = [kb.load(buffer, right_at) for buffer in source]
                candidates = zip(right_values, left_values, strict=True)
                arguments = [v for both in candidates for v in both]
                (right_first,) = kb.inline(self.comparator, arguments)
                left_done = ix.cmp("sge", i, middle)
                either = kb.place(arith.OrIOp(left_done, right_first))
                take_right = ix.and_(ix.cmp("slt", j, end), either)
                assert take_right is not None
                written = at(ix.add(start, k))
                for lhs, rhs, buffer in zip(
                    left_values, right_values, target, strict=True
                ):
                    chosen = kb.place(arith.SelectOp(take_right, rhs, lhs))
                    kb.store(chosen, buffer, written)
                next_i = kb.place(arith.SelectOp(take_right, i, ix.add(i, 1)))
                next_j = kb.place(arith.SelectOp(take_right, ix.add(j, 1), j))
                return [next_i, next_j]

            kb.for_loop(0, _sum(kb, left, right), [start, middle], step)

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


def _sum(kb: KernelBuilder, a: Bound, b: Bound) -> Bound:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    return kb.ix.add(_index(kb, a), b)


def _index(kb: KernelBuilder, value: Bound) -> SSAValue:
    return kb.ix.const(value) if isinstance(value, int) else value


KERNELS = {"stablehlo.sort": lower_sort}
