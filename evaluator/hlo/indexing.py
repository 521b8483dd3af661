"""gather and scatter with every dimension-number field (batching dims too),
as numpy fancy indexing over whole index arrays."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation
from xlir.dialects.stablehlo.dynamic import DynamicGatherOp
from xlir.dialects.stablehlo.indexing import GatherOp, ScatterOp
from xlir.evaluator.hlo.contraction import dims_field
from xlir.evaluator.hlo.data_movement import int_list
from xlir.evaluator.hlo.elementwise import attribute
from xlir.evaluator.hlo.engine import ModuleInterpreter, Program, impl
from xlir.evaluator.hlo.reduction import combine_at, flat_view
from xlir.evaluator.hlo.regions import (
    apply_region,
    compact_ufunc,
    is_vectorizable,
)
from xlir.evaluator.hlo.types import Unsupported

Array = Any


def _index_field(numbers: Any, name: str) -> int:
    values = dims_field(numbers, name)
    if not values:
        raise Unsupported(f"dimension numbers without '{name}'")
    return values[0]


def _normalize_indices(indices: np.ndarray, index_vector_dim: int) -> np.ndarray:
    """Indices as [*batch, K] (the index vector last), as int64: a ui64 index
    past the largest int64 becomes that (past every bound, not negative)."""
    indices = np.asarray(indices)
    if indices.dtype == np.uint64:
        indices = np.minimum(indices, np.iinfo(np.int64).max)
    indices = indices.astype(np.int64)
    if index_vector_dim == indices.ndim:
        return indices[..., None]
    return np.moveaxis(indices, index_vector_dim, -1)


def _batch_axis(start_dim: int, index_vector_dim: int) -> int:
    return start_dim - (1 if start_dim > index_vector_dim else 0)


@impl(GatherOp)
def _gather(op: Operation, interp: ModuleInterpreter):
    slice_sizes = int_list(op, "slice_sizes")
    gather = make_gather(op)
    return lambda operand, start_indices: gather(operand, start_indices, slice_sizes)


@impl(DynamicGatherOp)
def _dynamic_gather(op: Operation, interp: ModuleInterpreter):
    gather = make_gather(op)
    return lambda operand, start_indices, sizes: gather(
        operand, start_indices, [int(v) for v in np.ravel(sizes)]
    )


def make_gather(op: Operation):
    """gather(operand, start_indices, slice_sizes) with the op's dimension
    numbers."""
    numbers = attribute(op, "dimension_numbers")
    offset_dims = dims_field(numbers, "offset_dims")
    collapsed = dims_field(numbers, "collapsed_slice_dims")
    operand_batching = dims_field(numbers, "operand_batching_dims")
    indices_batching = dims_field(numbers, "start_indices_batching_dims")
    start_index_map = dims_field(numbers, "start_index_map")
    index_vector_dim = _index_field(numbers, "index_vector_dim")

    def gather(operand: Array, start_indices: Array, slice_sizes: list[int]) -> Array:
        operand = np.asarray(operand)
        idx = _normalize_indices(start_indices, index_vector_dim)
        batch = idx.shape[:-1]
        nb = len(batch)
        window_dims = [
            d
            for d in range(operand.ndim)
            if d not in collapsed and d not in operand_batching
        ]
        no = len(window_dims)
        index: list[np.ndarray] = []
        for d in range(operand.ndim):
            if d in start_index_map:
                k = start_index_map.index(d)
                start = np.clip(idx[..., k], 0, operand.shape[d] - slice_sizes[d])
            elif d in operand_batching:
                t = operand_batching.index(d)
                axis = _batch_axis(indices_batching[t], index_vector_dim)
                shape = [1] * nb
                shape[axis] = batch[axis]
                start = np.arange(batch[axis]).reshape(shape)
            else:
                start = np.zeros((), np.int64)
            start = np.reshape(start, np.shape(start) + (1,) * no)
            if d in window_dims:
                j = window_dims.index(d)
                shape = [1] * (nb + no)
                shape[nb + j] = slice_sizes[d]
                start = start + np.arange(slice_sizes[d]).reshape(shape)
            index.append(start)
        gathered = operand[tuple(index)]
        gathered = np.broadcast_to(
            gathered, batch + tuple(slice_sizes[d] for d in window_dims)
        )
        rank = nb + no
        perm: list[int] = []
        next_batch = 0
        for r in range(rank):
            if r in offset_dims:
                perm.append(nb + offset_dims.index(r))
            else:
                perm.append(next_batch)
                next_batch += 1
        return np.transpose(gathered, perm)

    return gather


def _is_overwrite(body: Program) -> bool:
    """`return %update` bodies (scatter as set)."""
    n = len(body.args) // 2
    return not body.steps and body.returns == body.args[n:]


def _combine_rounds(
    targets: list[np.ndarray],
    indices: np.ndarray,
    updates: list[np.ndarray],
    body: Program,
) -> None:
    """Apply a variadic body in order at repeated indices, in rounds of
    distinct indices."""
    flats = [flat_view(t) for t in targets]
    if indices.size == 0:
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
        args = [f[where] for f in flats] + [u[pick] for u in updates]
        results = apply_region(body, args, len(flats))
        for f, res in zip(flats, results, strict=False):
            f[where] = np.broadcast_to(res, where.shape)


@impl(ScatterOp)
def _scatter(op: Operation, interp: ModuleInterpreter):
    numbers = attribute(op, "scatter_dimension_numbers")
    window_dims = dims_field(numbers, "update_window_dims")
    inserted = dims_field(numbers, "inserted_window_dims")
    input_batching = dims_field(numbers, "input_batching_dims")
    indices_batching = dims_field(numbers, "scatter_indices_batching_dims")
    to_operand = dims_field(numbers, "scatter_dims_to_operand_dims")
    index_vector_dim = _index_field(numbers, "index_vector_dim")
    if not op.regions:
        raise Unsupported("missing its update_computation region")
    body = interp.compile_region(op.regions[0])
    n = (len(op.operands) - 1) // 2
    compact = compact_ufunc(body) if n == 1 else None
    overwrite = _is_overwrite(body)
    vectorizable = is_vectorizable(body)

    def scatter(*operands: Array) -> Array:
        inputs = [np.asarray(x) for x in operands[:n]]
        indices = operands[n]
        updates = [np.asarray(u) for u in operands[n + 1 :]]
        operand_shape = inputs[0].shape
        upd_shape = updates[0].shape
        idx = _normalize_indices(indices, index_vector_dim)
        scatter_axes = [u for u in range(len(upd_shape)) if u not in window_dims]
        operand_window = [
            d
            for d in range(len(operand_shape))
            if d not in inserted and d not in input_batching
        ]
        batch = idx.shape[:-1]
        full: list[np.ndarray] = []
        valid = np.ones(batch, dtype=bool)
        for d in range(len(operand_shape)):
            size = 1
            if d in operand_window:
                size = upd_shape[window_dims[operand_window.index(d)]]
            if d in to_operand:
                start = idx[..., to_operand.index(d)]
            elif d in input_batching:
                t = input_batching.index(d)
                axis = _batch_axis(indices_batching[t], index_vector_dim)
                shape = [1] * len(batch)
                shape[axis] = batch[axis]
                start = np.broadcast_to(np.arange(batch[axis]).reshape(shape), batch)
            else:
                start = np.zeros(batch, np.int64)
            valid &= (start >= 0) & (start + size <= operand_shape[d])
            # place the scatter-batch axes at their positions in the updates
            shape = [1] * len(upd_shape)
            for axis, u in enumerate(scatter_axes):
                shape[u] = batch[axis]
            position = np.reshape(start, shape)
            if d in operand_window:
                u = window_dims[operand_window.index(d)]
                line = [1] * len(upd_shape)
                line[u] = upd_shape[u]
                position = position + np.arange(upd_shape[u]).reshape(line)
            full.append(np.broadcast_to(position, upd_shape))
        shape = [1] * len(upd_shape)
        for axis, u in enumerate(scatter_axes):
            shape[u] = batch[axis]
        keep = np.broadcast_to(np.reshape(valid, shape), upd_shape)
        coords = [f[keep] for f in full]
        flat_index = (
            np.ravel_multi_index(coords, operand_shape)
            if coords
            else np.zeros(int(keep.sum()), dtype=np.int64)
        )
        # Row-major copies: the flat views below must be views, not copies
        # (a copy of a broadcast keeps its strides' order, column-major for
        # a row vector broadcast down the rows).
        results = [np.array(x, copy=True, order="C") for x in inputs]
        chosen = [u[keep] for u in updates]
        if overwrite:
            for r, c in zip(results, chosen, strict=True):
                flat_view(r)[flat_index] = c
        elif compact is not None:
            combine_at(results[0], flat_index, chosen[0], body, compact, vectorizable)
        else:
            _combine_rounds(results, flat_index, chosen, body)
        return results[0] if n == 1 else results

    return scatter
