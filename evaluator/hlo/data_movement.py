"""Kernels that build and move data: constant, iota, broadcast_in_dim,
reshape, transpose, reverse, concatenate, slice, pad, dynamic_slice,
dynamic_update_slice, get_dimension_size, and the dynamic forms of iota,
broadcast_in_dim, reshape, pad and slice (sizes read from their operands)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.ir import Operation
from xlir.dialects.stablehlo.data_movement import (
    BroadcastInDimOp,
    ConcatenateOp,
    ConstantOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    GetDimensionSizeOp,
    IotaOp,
    PadOp,
    ReshapeOp,
    ReverseOp,
    SliceOp,
    TransposeOp,
)
from xlir.dialects.stablehlo.dynamic import (
    DynamicBroadcastInDimOp,
    DynamicIotaOp,
    DynamicPadOp,
    DynamicReshapeOp,
    RealDynamicSliceOp,
)
from xlir.evaluator.hlo.elementwise import attribute
from xlir.evaluator.hlo.engine import ModuleInterpreter, impl
from xlir.evaluator.hlo.types import (
    Unsupported,
    dense_to_numpy,
    dtype_of,
    tensor_shape,
)

Array = Any


def int_list(
    op: Operation, name: str, default: Sequence[int] | None = None
) -> list[int]:
    """An integer-array property (dense array, dense elements or array attr)."""
    value = attribute(op, name)
    if value is None:
        if default is not None:
            return list(default)
        raise Unsupported(f"missing the attribute '{name}'")
    return ints_of(value)


def ints_of(value: Any) -> list[int]:
    if hasattr(value, "get_values"):
        return [int(v) for v in value.get_values()]
    if hasattr(value, "data") and isinstance(value.data, tuple | list):
        return [
            int(getattr(v, "data", getattr(getattr(v, "value", None), "data", v)))
            for v in value.data
        ]
    if hasattr(value, "value") and hasattr(value.value, "data"):
        return [int(value.value.data)]
    raise Unsupported(f"cannot read integers from {value}")


def int_attr(op: Operation, name: str, default: int | None = None) -> int:
    value = attribute(op, name)
    if value is None:
        if default is not None:
            return default
        raise Unsupported(f"missing the attribute '{name}'")
    if hasattr(value, "value") and hasattr(value.value, "data"):
        return int(value.value.data)
    if hasattr(value, "data") and isinstance(value.data, int):
        return int(value.data)
    return ints_of(value)[0]


def result_shape(op: Operation, index: int = 0) -> tuple[int, ...]:
    return tensor_shape(op.results[index].type)


@impl(ConstantOp)
def _constant(op: Operation, interp: ModuleInterpreter):
    value = dense_to_numpy(attribute(op, "value"), op.results[0].type)
    value.setflags(write=False)
    return lambda: value


def iota_array(shape: Sequence[int], dimension: int, dtype: np.dtype) -> Array:
    view = [1] * len(shape)
    view[dimension] = shape[dimension]
    line = np.arange(shape[dimension]).astype(dtype).reshape(view)
    value = np.ascontiguousarray(np.broadcast_to(line, shape))
    value.setflags(write=False)
    return value


@impl(IotaOp)
def _iota(op: Operation, interp: ModuleInterpreter):
    value = iota_array(
        result_shape(op), int_attr(op, "iota_dimension"), dtype_of(op.results[0].type)
    )
    return lambda: value


@impl(DynamicIotaOp)
def _dynamic_iota(op: Operation, interp: ModuleInterpreter):
    dimension = int_attr(op, "iota_dimension")
    dtype = dtype_of(op.results[0].type)
    return lambda shape: iota_array(_sizes(shape), dimension, dtype)


def _sizes(values: Array) -> list[int]:
    """A shape held by a 1-D tensor operand."""
    sizes = [int(v) for v in np.asarray(values).reshape(-1)]
    if any(v < 0 for v in sizes):
        raise ValueError(f"negative dimension size in shape {sizes}")
    return sizes


def broadcast_in_dim(x: Array, shape: Sequence[int], dims: Sequence[int]) -> Array:
    x = np.asarray(x)
    view = [1] * len(shape)
    for source, target in enumerate(dims):
        view[target] = x.shape[source]
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    if order != list(range(len(dims))):
        x = np.transpose(x, order)
    return np.broadcast_to(np.reshape(x, view), tuple(shape))


@impl(BroadcastInDimOp)
def _broadcast_in_dim(op: Operation, interp: ModuleInterpreter):
    shape = result_shape(op)
    dims = int_list(op, "broadcast_dimensions")
    return lambda x: broadcast_in_dim(x, shape, dims)


@impl(DynamicBroadcastInDimOp)
def _dynamic_broadcast_in_dim(op: Operation, interp: ModuleInterpreter):
    dims = int_list(op, "broadcast_dimensions")
    return lambda x, shape: broadcast_in_dim(x, _sizes(shape), dims)


@impl(ReshapeOp)
def _reshape(op: Operation, interp: ModuleInterpreter):
    shape = result_shape(op)
    return lambda x: np.reshape(x, shape)


@impl(DynamicReshapeOp)
def _dynamic_reshape(op: Operation, interp: ModuleInterpreter):
    return lambda x, shape: np.reshape(x, _sizes(shape))


@impl(TransposeOp)
def _transpose(op: Operation, interp: ModuleInterpreter):
    permutation = int_list(op, "permutation")
    return lambda x: np.transpose(x, permutation)


@impl(ReverseOp)
def _reverse(op: Operation, interp: ModuleInterpreter):
    dims = tuple(int_list(op, "dimensions"))
    return lambda x: np.flip(x, dims) if dims else x


@impl(ConcatenateOp)
def _concatenate(op: Operation, interp: ModuleInterpreter):
    dimension = int_attr(op, "dimension")
    return lambda *xs: np.concatenate(xs, axis=dimension)


@impl(SliceOp)
def _slice(op: Operation, interp: ModuleInterpreter):
    starts = int_list(op, "start_indices")
    limits = int_list(op, "limit_indices")
    strides = int_list(op, "strides", [1] * len(starts))
    index = tuple(
        slice(s, e, t) for s, e, t in zip(starts, limits, strides, strict=True)
    )
    return lambda x: x[index]


def pad_array(
    x: Array,
    value: Array,
    low: Sequence[int],
    high: Sequence[int],
    interior: Sequence[int],
) -> Array:
    """StableHLO pad: interior padding, then edge padding (negative edges
    remove elements)."""
    x = np.asarray(x)
    shape: list[int] = []
    place: list[slice] = []
    crop: list[slice] = []
    for size, lo, hi, inner in zip(x.shape, low, high, interior, strict=True):
        dilated = (size - 1) * (inner + 1) + 1 if size > 0 else 0
        lo_pos, hi_pos = max(lo, 0), max(hi, 0)
        full = lo_pos + dilated + hi_pos
        shape.append(full)
        place.append(slice(lo_pos, lo_pos + dilated, inner + 1))
        crop.append(slice(lo_pos - lo, full - (hi_pos - hi)))
    out = np.full(shape, value, dtype=x.dtype)
    out[tuple(place)] = x
    return out[tuple(crop)]


@impl(PadOp)
def _pad(op: Operation, interp: ModuleInterpreter):
    low = int_list(op, "edge_padding_low")
    high = int_list(op, "edge_padding_high")
    interior = int_list(op, "interior_padding", [0] * len(low))
    return lambda x, value: pad_array(x, value, low, high, interior)


@impl(DynamicPadOp)
def _dynamic_pad(op: Operation, interp: ModuleInterpreter):
    def pad(x: Array, value: Array, low: Array, high: Array, interior: Array) -> Array:
        amounts = [[int(v) for v in np.ravel(a)] for a in (low, high, interior)]
        if any(v < 0 for v in amounts[2]):
            raise ValueError(f"negative interior padding {amounts[2]}")
        return pad_array(x, value, *amounts)

    return pad


@impl(RealDynamicSliceOp)
def _real_dynamic_slice(op: Operation, interp: ModuleInterpreter):
    def real_dynamic_slice(x: Array, start: Array, limit: Array, strides: Array):
        bounds = [[int(v) for v in np.ravel(a)] for a in (start, limit, strides)]
        for dim, (s, e, t) in enumerate(zip(*bounds, strict=True)):
            if not (0 <= s <= e <= x.shape[dim] and t > 0):
                raise ValueError(
                    f"slice [{s}:{e}:{t}] of dimension {dim} (size {x.shape[dim]}) "
                    "is out of bounds"
                )
        return x[tuple(slice(*triple) for triple in zip(*bounds, strict=True))]

    return real_dynamic_slice


def clamped_starts(
    starts: Sequence[Array], shape: Sequence[int], sizes: Sequence[int]
) -> list[int]:
    return [
        int(min(max(int(s), 0), dim - size))
        for s, dim, size in zip(starts, shape, sizes, strict=True)
    ]


@impl(DynamicSliceOp)
def _dynamic_slice(op: Operation, interp: ModuleInterpreter):
    sizes = int_list(op, "slice_sizes")

    def dynamic_slice(x: Array, *starts: Array) -> Array:
        begin = clamped_starts(starts, x.shape, sizes)
        return x[tuple(slice(b, b + s) for b, s in zip(begin, sizes, strict=True))]

    return dynamic_slice


@impl(DynamicUpdateSliceOp)
def _dynamic_update_slice(op: Operation, interp: ModuleInterpreter):
    def dynamic_update_slice(x: Array, update: Array, *starts: Array) -> Array:
        begin = clamped_starts(starts, x.shape, update.shape)
        out = np.array(x, copy=True)
        out[
            tuple(slice(b, b + s) for b, s in zip(begin, update.shape, strict=True))
        ] = update
        return out

    return dynamic_update_slice


@impl(GetDimensionSizeOp)
def _get_dimension_size(op: Operation, interp: ModuleInterpreter):
    dimension = int_attr(op, "dimension")
    return lambda x: np.asarray(x.shape[dimension], dtype=np.int32)
