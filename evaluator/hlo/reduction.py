"""map, reduce, reduce_window, select_and_scatter and sort.

Compact bodies (one add/multiply/maximum/minimum/and/or/xor) run as numpy
`ufunc.reduce`; other elementwise bodies (e.g. the variadic argmax) run on
whole arrays in a pairwise tree over the reduced axis; anything else runs
element by element.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.ir import Operation
from xlir.dialects.stablehlo.elementwise import CompareOp
from xlir.dialects.stablehlo.reduction import (
    MapOp,
    ReduceOp,
    ReduceWindowOp,
    SelectAndScatterOp,
    SortOp,
)
from xlir.evaluator.hlo.data_movement import (
    int_attr,
    int_list,
    ints_of,
    pad_array,
)
from xlir.evaluator.hlo.elementwise import (
    attribute,
    float_maximum,
    float_minimum,
    total_order_key,
)
from xlir.evaluator.hlo.engine import ModuleInterpreter, Program, impl
from xlir.evaluator.hlo.regions import (
    apply_region,
    compact_ufunc,
    is_vectorizable,
)
from xlir.evaluator.hlo.types import Unsupported

Array = Any


def _body(op: Operation, interp: ModuleInterpreter, index: int = 0) -> Program:
    if len(op.regions) <= index:
        raise Unsupported("missing its region")
    return interp.compile_region(op.regions[index])


def reduce_last_axis(
    body: Program,
    vectorizable: bool,
    inputs: list[Array],
    inits: list[Array],
) -> list[Array]:
    """Reduce the last axis of every input with a general body, then fold in
    the init values."""
    n = len(inputs)
    kept = inputs[0].shape[:-1]
    size = inputs[0].shape[-1]
    if size == 0:
        return [np.broadcast_to(i, kept).copy() for i in inits]
    if not vectorizable:
        values = [np.broadcast_to(i, kept).copy() for i in inits]
        for index in np.ndindex(kept):
            acc = [np.asarray(v[index]) for v in values]
            for k in range(size):
                acc = body.run(acc + [np.asarray(x[(*index, k)]) for x in inputs])
            for v, a in zip(values, acc, strict=True):
                v[index] = a
        return values
    current = list(inputs)
    while size > 1:
        half = size // 2
        left = [c[..., 0 : 2 * half : 2] for c in current]
        right = [c[..., 1 : 2 * half : 2] for c in current]
        combined = body.run(left + right)
        shape = left[0].shape
        combined = [np.broadcast_to(c, shape) for c in combined]
        if size % 2:
            combined = [
                np.concatenate([c, x[..., 2 * half :]], axis=-1)
                for c, x in zip(combined, current, strict=True)
            ]
        current = combined
        size = current[0].shape[-1]
    reduced = [c[..., 0] for c in current]
    result = body.run([np.broadcast_to(i, kept) for i in inits] + reduced)
    return [np.broadcast_to(r, kept) for r in result[:n]]


def _pairwise_sum(x: Array, axes: tuple[int, ...]) -> Array:
    """Float sums over `axes`, with numpy's pairwise summation: numpy sums
    pairwise only along one contiguous run of elements, and in order (one
    rounding per term) along any other axis, so the reduced axes are moved
    last into one contiguous axis first (a copy unless they already are)."""
    kept_axes = [a for a in range(x.ndim) if a not in axes]
    kept = [x.shape[a] for a in kept_axes]
    count = math.prod(x.shape[a] for a in axes)  # not -1: size 0 is allowed
    moved = np.transpose(x, kept_axes + sorted(axes)).reshape(*kept, count)
    return np.add.reduce(np.ascontiguousarray(moved), axis=-1)


def _signed_zero_extreme(ufunc: Any, x: Array, axes: tuple[int, ...]) -> Array:
    """numpy's maximum (minimum) over `axes`, where a zero result is IEEE's:
    +0.0 (-0.0) if any term is, as `float_maximum` says of two (numpy keeps
    whichever zero it met first)."""
    result = ufunc.reduce(x, axis=axes)
    zero = result == 0
    if not np.any(zero):
        return result
    wanted = ufunc is np.minimum  # the sign bit a minimum's zero takes if any has it
    found = np.any((x == 0) & (np.signbit(x) == wanted), axis=axes)
    signed = np.where(found == wanted, -np.abs(result), np.abs(result))
    return np.where(zero, signed, result).astype(result.dtype)


def reduce_arrays(
    body: Program,
    compact: Any,
    vectorizable: bool,
    inputs: list[Array],
    inits: list[Array],
    axes: Sequence[int],
) -> list[Array]:
    axes = tuple(axes)
    if compact is not None and len(inputs) == 1:
        ufunc, combine = compact
        x = inputs[0]
        if not axes:
            return [combine(inits[0], x)]
        if any(x.shape[a] == 0 for a in axes):
            kept = tuple(s for i, s in enumerate(x.shape) if i not in axes)
            return [np.broadcast_to(inits[0], kept).copy()]
        if ufunc is np.add and x.dtype.kind == "f":
            return [combine(inits[0], _pairwise_sum(x, axes))]
        if combine is float_maximum or combine is float_minimum:
            return [combine(inits[0], _signed_zero_extreme(ufunc, x, axes))]
        return [combine(inits[0], ufunc.reduce(x, axis=axes))]
    rank = inputs[0].ndim
    kept_axes = [a for a in range(rank) if a not in axes]
    kept = [inputs[0].shape[a] for a in kept_axes]
    size = int(np.prod([inputs[0].shape[a] for a in axes], dtype=np.int64))
    moved = [
        np.transpose(x, kept_axes + list(axes)).reshape(*kept, size) for x in inputs
    ]
    return reduce_last_axis(body, vectorizable, moved, list(inits))


@impl(ReduceOp)
def _reduce(op: Operation, interp: ModuleInterpreter):
    axes = int_list(op, "dimensions")
    body = _body(op, interp)
    compact = compact_ufunc(body)
    vectorizable = is_vectorizable(body)
    n = len(op.operands) // 2

    def reduce(*operands: Array) -> Array:
        results = reduce_arrays(
            body, compact, vectorizable, list(operands[:n]), list(operands[n:]), axes
        )
        return results[0] if n == 1 else results

    return reduce


def _padding_pairs(op: Operation, rank: int) -> list[tuple[int, int]]:
    value = attribute(op, "padding")
    if value is None:
        return [(0, 0)] * rank
    flat = ints_of(value)
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(rank)]


def window_view(
    x: Array,
    window: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
) -> Array:
    """[*out, *window] view of x's windows (x already padded)."""
    rank = x.ndim
    extent = [(w - 1) * d + 1 for w, d in zip(window, dilations, strict=True)]
    out = [
        (s - e) // st + 1 if s >= e else 0
        for s, e, st in zip(x.shape, extent, strides, strict=True)
    ]
    if any(o == 0 for o in out) or any(e == 0 for e in extent):
        return np.zeros((*out, *window), dtype=x.dtype)
    view = sliding_window_view(x, extent)
    index = tuple(
        slice(0, (o - 1) * st + 1, st) for o, st in zip(out, strides, strict=True)
    ) + tuple(slice(None, None, d) for d in dilations)
    del rank
    return view[index]


@impl(ReduceWindowOp)
def _reduce_window(op: Operation, interp: ModuleInterpreter):
    window = int_list(op, "window_dimensions")
    rank = len(window)
    strides = int_list(op, "window_strides", [1] * rank)
    base = int_list(op, "base_dilations", [1] * rank)
    dilations = int_list(op, "window_dilations", [1] * rank)
    padding = _padding_pairs(op, rank)
    body = _body(op, interp)
    compact = compact_ufunc(body)
    vectorizable = is_vectorizable(body)
    n = len(op.operands) // 2

    def reduce_window(*operands: Array) -> Array:
        inputs, inits = operands[:n], operands[n:]
        views = [
            window_view(
                pad_array(
                    x,
                    init,
                    [p[0] for p in padding],
                    [p[1] for p in padding],
                    [b - 1 for b in base],
                ),
                window,
                strides,
                dilations,
            )
            for x, init in zip(inputs, inits, strict=True)
        ]
        axes = list(range(rank, 2 * rank))
        results = reduce_arrays(body, compact, vectorizable, views, list(inits), axes)
        return results[0] if n == 1 else results

    return reduce_window


def flat_view(array: np.ndarray) -> np.ndarray:
    """`array` as one dimension, sharing its memory, so writes through it
    land in `array` (a reshape of a transposed or sorted array is a copy)."""
    assert array.flags.c_contiguous, "writes through a reshaped copy would be lost"
    return array.reshape(-1)


def combine_at(
    target: np.ndarray,
    indices: np.ndarray,
    updates: np.ndarray,
    body: Program,
    compact: Any,
    vectorizable: bool,
) -> None:
    """target.flat[indices[i]] = body(target.flat[indices[i]], updates[i]) for
    every i in order (indices may repeat); `target` is C-contiguous."""
    flat = flat_view(target)
    if indices.size == 0:
        return
    if compact is not None:
        ufunc, _ = compact
        if ufunc in (np.maximum, np.minimum) and flat.dtype.kind == "f":
            pass
        else:
            ufunc.at(flat, indices, updates)
            return
    order = np.argsort(indices, kind="stable")
    sorted_idx = indices[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_idx)) + 1]
    group_start = np.repeat(starts, np.diff(np.r_[starts, sorted_idx.size]))
    rank = np.empty(indices.size, dtype=np.int64)
    rank[order] = np.arange(indices.size) - group_start
    for r in range(int(rank.max()) + 1):
        pick = rank == r
        where = indices[pick]
        if vectorizable:
            result = body.run([flat[where], updates[pick]])[0]
        else:
            result = apply_region(body, [flat[where], updates[pick]], 1)[0]
        flat[where] = np.broadcast_to(result, where.shape)


@impl(SelectAndScatterOp)
def _select_and_scatter(op: Operation, interp: ModuleInterpreter):
    window = int_list(op, "window_dimensions")
    rank = len(window)
    strides = int_list(op, "window_strides", [1] * rank)
    padding = _padding_pairs(op, rank)
    select = _body(op, interp, 0)
    scatter = _body(op, interp, 1)
    select_vectorizable = is_vectorizable(select)
    compact = compact_ufunc(scatter)
    scatter_vectorizable = is_vectorizable(scatter)
    low = [p[0] for p in padding]
    high = [p[1] for p in padding]

    def select_and_scatter(operand: Array, source: Array, init: Array) -> Array:
        operand = np.asarray(operand)
        zero = np.zeros((), operand.dtype)
        padded = pad_array(operand, zero, low, high, [0] * rank)
        valid = pad_array(
            np.ones(operand.shape, bool), np.zeros((), bool), low, high, [0] * rank
        )
        positions = np.arange(padded.size).reshape(padded.shape)
        ones = [1] * rank
        values = window_view(padded, window, strides, ones)
        out_shape = values.shape[:rank]
        w = int(np.prod(window, dtype=np.int64))
        values = values.reshape(*out_shape, w)
        valids = window_view(valid, window, strides, ones).reshape(*out_shape, w)
        where = window_view(positions, window, strides, ones).reshape(*out_shape, w)
        best, best_pos, best_valid = values[..., 0], where[..., 0], valids[..., 0]
        for k in range(1, w):
            cand, cand_pos, cand_valid = values[..., k], where[..., k], valids[..., k]
            if select_vectorizable:
                keep = np.broadcast_to(select.run([best, cand])[0], best.shape)
            else:
                keep = apply_region(select, [best, cand], 1)[0]
            take = ~best_valid | (cand_valid & ~keep)
            best = np.where(take, cand, best)
            best_pos = np.where(take, cand_pos, best_pos)
            best_valid = best_valid | cand_valid
        result = np.full(padded.shape, init, dtype=operand.dtype)
        chosen = best_valid.reshape(-1)
        combine_at(
            result,
            best_pos.reshape(-1)[chosen],
            np.asarray(source).reshape(-1)[chosen],
            scatter,
            compact,
            scatter_vectorizable,
        )
        crop = tuple(
            slice(lo, lo + s) for lo, s in zip(low, operand.shape, strict=True)
        )
        return result[crop]

    return select_and_scatter


def _simple_comparator(body: Program, n: int) -> tuple[int, bool, str | None] | None:
    """(input index, descending, compare_type) if the comparator is one
    LT/GT compare of an input's lhs and rhs."""
    if len(body.steps) != 1 or len(body.returns) != 1:
        return None
    _, ins, outs, _, op, _ = body.steps[0]
    if not isinstance(op, CompareOp) or body.returns[0] is not outs[0]:
        return None
    args = body.args
    try:
        a, b = args.index(ins[0]), args.index(ins[1])
    except ValueError:
        return None
    if a // 2 != b // 2 or a == b:
        return None
    direction = attribute(op, "comparison_direction")
    direction = str(getattr(getattr(direction, "data", direction), "value", direction))
    compare_type = attribute(op, "compare_type")
    if compare_type is not None:
        compare_type = str(
            getattr(getattr(compare_type, "data", compare_type), "value", compare_type)
        )
    if direction not in ("LT", "GT"):
        return None
    descending = (direction == "GT") == (a % 2 == 0)
    return a // 2, descending, compare_type


def _sort_key(x: np.ndarray, descending: bool, compare_type: str | None) -> np.ndarray:
    if x.dtype.kind == "c":  # numpy orders complex numbers lexicographically
        return -x if descending else x
    if x.dtype.kind == "f":
        if compare_type == "TOTALORDER":
            key = total_order_key(x)
            return ~key if descending else key
        return -x if descending else x
    if x.dtype.kind == "b":
        x = x.astype(np.int8)
    return ~x if descending else x


def _comparator_ranks(body: Program, rows: list[np.ndarray]) -> np.ndarray:
    """Sort positions along the last axis by evaluating the comparator on
    all pairs at once (O(K^2) memory, chunked over the leading rows)."""
    k = rows[0].shape[-1]
    lead = rows[0].shape[:-1]
    flat = [r.reshape(-1, k) for r in rows]
    count = flat[0].shape[0]
    chunk = max(1, (1 << 22) // max(1, k * k))
    order = np.empty((count, k), dtype=np.int64)
    lower = np.tril(np.ones((k, k), dtype=bool), -1)  # j < i
    for start in range(0, count, chunk):
        part = [f[start : start + chunk] for f in flat]
        args: list[Array] = []
        for p in part:
            args += [p[:, :, None], p[:, None, :]]  # lhs = i, rhs = j
        less = np.broadcast_to(body.run(args)[0], (part[0].shape[0], k, k))
        less_t = np.swapaxes(less, 1, 2)  # less_t[i, j] = less(j, i)
        ties = ~less & ~less_t & lower[None]
        rank = less_t.sum(axis=2) + ties.sum(axis=2)
        order[start : start + chunk] = np.argsort(rank, axis=1, kind="stable")
    return order.reshape(*lead, k)


@impl(SortOp)
def _sort(op: Operation, interp: ModuleInterpreter):
    dimension = int_attr(op, "dimension", -1)
    body = _body(op, interp)
    n = len(op.operands)
    simple = _simple_comparator(body, n)
    vectorizable = is_vectorizable(body)

    def sort(*inputs: Array) -> Array:
        inputs_ = [np.asarray(x) for x in inputs]
        axis = dimension % inputs_[0].ndim if inputs_[0].ndim else 0
        if inputs_[0].ndim == 0 or inputs_[0].size == 0:  # nothing to order
            return inputs_[0] if n == 1 else inputs_
        moved = [np.moveaxis(x, axis, -1) for x in inputs_]
        k = moved[0].shape[-1]
        if simple is not None and not (
            simple[2] == "TOTALORDER" and moved[simple[0]].dtype.kind == "c"
        ):
            index, descending, compare_type = simple
            order = np.argsort(
                _sort_key(moved[index], descending, compare_type),
                axis=-1,
                kind="stable",
            )
        elif vectorizable and k <= 2048:
            order = _comparator_ranks(body, moved)
        else:
            order = _python_sort(body, moved)
        results = [
            np.moveaxis(np.take_along_axis(x, order, axis=-1), -1, axis) for x in moved
        ]
        return results[0] if n == 1 else results

    return sort


def _python_sort(body: Program, moved: list[np.ndarray]) -> np.ndarray:
    k = moved[0].shape[-1]
    lead = moved[0].shape[:-1]
    order = np.empty((*lead, k), dtype=np.int64)
    for index in np.ndindex(lead):
        row = [x[index] for x in moved]

        def compare(i: int, j: int, row: list[np.ndarray] = row) -> int:
            args: list[Array] = []
            for r in row:
                args += [np.asarray(r[i]), np.asarray(r[j])]
            if bool(body.run(args)[0]):
                return -1
            args = []
            for r in row:
                args += [np.asarray(r[j]), np.asarray(r[i])]
            return 1 if bool(body.run(args)[0]) else 0

        order[index] = sorted(range(k), key=functools.cmp_to_key(compare))
    return order


@impl(MapOp)
def _map(op: Operation, interp: ModuleInterpreter):
    body = _body(op, interp)
    return lambda *inputs: apply_region(body, list(inputs), 1)[0]
