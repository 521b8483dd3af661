"""Slices, pads and concatenates: whole-operand slices, zero pads and
one-operand concatenates removed; a slice of a slice made one slice; a slice
of a concatenate made a slice of the operand it reads, or of a smaller
concatenate of the operands it reads."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.data_movement import ConcatenateOp, PadOp, SliceOp
from xlir.dialects.stablehlo.types import shape


def _last_read(start: int, stride: int, count: int) -> int:
    """The index one past the last element a slice dimension reads."""
    return start + (count - 1) * stride + 1 if count else start


class RemoveNoOpSlicing(RewritePattern):
    """slice to the operand's own type (it must read everything) → x; pad by
    zero everywhere → x (negative padding can keep the shape yet shift, so the
    amounts are checked, not the shapes); concatenate of one operand → x."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: SliceOp | PadOp | ConcatenateOp, rewriter: PatternRewriter
    ) -> None:
        if isinstance(op, SliceOp):
            same = op.operand.type == op.result.type
        elif isinstance(op, PadOp):
            same = not any(op.low + op.high + op.interior)
        else:
            same = len(op.inputs) == 1
        if same:
            rewriter.replace(op, (), (op.operands[0],))


class SliceOfSlice(RewritePattern):
    """x[a:_:s][b:_:t] → x[a + b*s : _ : s*t], the limit being one past the
    last element read."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SliceOp, rewriter: PatternRewriter) -> None:
        inner = op.operand.owner
        if not isinstance(inner, SliceOp):
            return
        start, limit, stride = [], [], []
        counts = shape(op.result.type)
        for s1, t1, s2, t2, n in zip(
            inner.start, inner.step, op.start, op.step, counts, strict=True
        ):
            begin, step = s1 + s2 * t1, t1 * t2
            if n == 0:  # reads nothing: its start may lie past the operand's end
                begin, step = 0, 1
            start.append(begin)
            stride.append(step)
            limit.append(_last_read(begin, step, n))
        rewriter.replace(op, SliceOp(inner.operand, start, limit, stride))


class SliceOfConcatenate(RewritePattern):
    """A slice that reads one operand of a concatenate slices that operand; one
    that reads several (with stride 1 along the concatenated dim) slices a
    concatenate of just those."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SliceOp, rewriter: PatternRewriter) -> None:
        concat = op.operand.owner
        if not isinstance(concat, ConcatenateOp):
            return
        dim = concat.dimension.value.data
        start, stride = op.start[dim], op.step[dim]
        end = _last_read(start, stride, shape(op.result.type)[dim])
        pieces: list[tuple[SSAValue, int]] = []
        offset = 0
        for operand in concat.inputs:
            size = shape(operand.type)[dim]
            if offset < end and start < offset + size:
                pieces.append((operand, offset))
            offset += size
        if not pieces or len(pieces) == len(concat.inputs):
            return
        if len(pieces) == 1:
            operand, offset = pieces[0]
            rewriter.replace(
                op, _slice_along(op, operand, dim, start - offset, end - offset)
            )
            return
        if stride != 1:
            return
        new_ops: list[Operation] = []
        values = []
        for operand, offset in pieces:
            size = shape(operand.type)[dim]
            lo, hi = max(start, offset) - offset, min(end, offset + size) - offset
            if lo == 0 and hi == size:
                values.append(operand)
                continue
            new_ops.append(_whole_except(operand, dim, lo, hi))
            values.append(new_ops[-1].results[0])
        smaller = ConcatenateOp(values, dim)
        new_ops.append(smaller)
        new_ops.append(_slice_along(op, smaller.result, dim, 0, end - start))
        rewriter.replace(op, new_ops)


def _slice_along(
    op: SliceOp, operand: SSAValue, dim: int, start: int, limit: int
) -> SliceOp:
    """`op`'s slice, moved onto `operand` with new bounds along `dim`."""
    starts, limits = list(op.start), list(op.limit)
    starts[dim], limits[dim] = start, limit
    return SliceOp(operand, starts, limits, op.step)


def _whole_except(operand: SSAValue, dim: int, start: int, limit: int) -> SliceOp:
    """All of `operand` but [start, limit) along `dim`."""
    sizes = shape(operand.type)
    starts = [0] * len(sizes)
    limits = list(sizes)
    starts[dim], limits[dim] = start, limit
    return SliceOp(operand, starts, limits)


def slice_patterns() -> list[RewritePattern]:
    return [RemoveNoOpSlicing(), SliceOfSlice(), SliceOfConcatenate()]
