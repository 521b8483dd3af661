"""`stablehlo.select_and_scatter` (max pooling's gradient) as one kernel: the
result is filled with the init value, then each source element walks its
window with the select region and scatters itself onto the element chosen.

The walk is a `loop.for` nest over the window's taps carrying the best value,
its position and whether it is an operand element yet, exactly as the
reference interpreter keeps them: a tap replaces the best when no operand
element has been seen, or when it is one and `select(best, tap)` is false,
so on ties the first tap wins; padding taps are never selected, and a window
made only of padding scatters nothing (an empty operand's windows are all
such: its kernel only fills the empty result).

Windows may overlap, so several source elements can land on one result
element, which must see their scatters in the source's row-major order. A
source dimension runs in parallel only when its windows cannot overlap
(stride at least the window) and each of them holds an operand element:
source elements that differ there never reach the same result element. The
other dimensions run in order in a `loop.for` nest inside.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import i1
from xdsl.ir import SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.reduction import SelectAndScatterOp
from xlir.lowering.index_maps import Indices, int_list, padding_pairs, shape, window_tap
from xlir.lowering.kernels.common import KernelBuilder


def every_window_reaches_operand(
    size: int, windows: int, window: int, stride: int, low: int
) -> bool:
    """Whether each window along one dimension holds an operand element,
    not only padding."""
    return all(
        o * stride - low + window - 1 >= 0 and o * stride - low < size
        for o in range(windows)
    )


def lower_select_and_scatter(op: SelectAndScatterOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    operand, source, init_buffer = kb.inputs
    (out,) = kb.outputs
    in_shape, src_shape = shape(op.operand), shape(op.source)
    rank = len(in_shape)
    window = int_list(op.window_dimensions, [])
    strides = int_list(op.window_strides, [1] * rank)
    padding = padding_pairs(op.padding, rank)
    select, scatter = op.select.block, op.scatter.block
    assert select is not None and scatter is not None
    reaches = [
        every_window_reaches_operand(
            in_shape[d], src_shape[d], window[d], strides[d], padding[d][0]
        )
        for d in range(rank)
    ]
    parallel_dims = [d for d in range(rank) if reaches[d] and strides[d] >= window[d]]
    ordered_dims = [d for d in range(rank) if d not in parallel_dims]

    init = kb.load(init_buffer, [])
    true = kb.const(1, i1)
    false = kb.const(0, i1)
    kb.parallel(in_shape, lambda idx: kb.store(init, out, idx))
    if 0 in in_shape:  # windows of padding only: there is nothing to select
        return kb.finish()

    moving = [d for d in range(rank) if window[d] > 1]
    zero = kb.ix.const(0)

    def position(
        src: Indices, d: int, tap: SSAValue, inside: SSAValue | None
    ) -> tuple[SSAValue, SSAValue | None]:
        frame = (window[d], strides[d], 1, padding[d][0])
        return window_tap(
            kb.ix, src[d], tap, frame, (in_shape[d], 1), src_shape[d], inside
        )

    def walk(src: Indices) -> tuple[Indices, SSAValue]:
        """The position of the element the window selects, and whether it
        is an operand element. Dimensions of one tap are not walked."""
        fixed: dict[int, SSAValue] = {}
        fixed_inside: SSAValue | None = None
        for d in range(rank):
            if d not in moving:
                fixed[d], fixed_inside = position(src, d, zero, fixed_inside)

        def tap(taps: Indices, carried: list[SSAValue]) -> list[SSAValue]:
            best, best_at, seen = carried[0], carried[1:-1], carried[-1]
            inside = fixed_inside
            at = dict(fixed)
            for d, t in zip(moving, taps, strict=True):
                at[d], inside = position(src, d, t, inside)
            value = kb.load(operand, [at[d] for d in range(rank)])
            (keep,) = kb.inline(select, [best, value])
            replace = kb.place(arith.XOrIOp(keep, true))
            if inside is not None:
                replace = kb.place(arith.AndIOp(inside, replace))
            take = kb.place(arith.OrIOp(kb.place(arith.XOrIOp(seen, true)), replace))
            candidates = [value, *[at[d] for d in moving]]
            chosen = [
                kb.place(arith.SelectOp(take, new, old))
                for new, old in zip(candidates, [best, *best_at], strict=True)
            ]
            now_seen = true if inside is None else kb.place(arith.OrIOp(seen, inside))
            return [*chosen, now_seen]

        # nothing seen yet: the first tap replaces the stand-in best value
        starts = [init, *[zero] * len(moving), false]
        final = kb.nest.for_nest([window[d] for d in moving], starts, tap)
        fixed.update(zip(moving, final[1:-1], strict=True))
        return [fixed[d] for d in range(rank)], final[-1]

    def scatter_one(src: Indices) -> None:
        at, seen = walk(src)
        current = kb.load(out, at)
        (combined,) = kb.inline(scatter, [current, kb.load(source, src)])
        if not all(reaches):
            combined = kb.place(arith.SelectOp(seen, combined, current))
        kb.store(combined, out, at)

    def ordered(parallel_idx: Indices) -> None:
        def body(ordered_idx: Indices, _: list[SSAValue]) -> list[SSAValue]:
            at = dict(zip(parallel_dims, parallel_idx, strict=True))
            at.update(zip(ordered_dims, ordered_idx, strict=True))
            scatter_one([at[d] for d in range(rank)])
            return []

        kb.nest.for_nest([src_shape[d] for d in ordered_dims], [], body)

    if parallel_dims:
        kb.parallel([src_shape[d] for d in parallel_dims], ordered)
    else:
        ordered([])
    return kb.finish()


KERNELS = {"stablehlo.select_and_scatter": lower_select_and_scatter}
