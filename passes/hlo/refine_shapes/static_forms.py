"""The static op a dynamic op becomes once its shape operands are constants.

`dynamic_broadcast_in_dim`, `dynamic_reshape` and `dynamic_iota` take their
result shape from the operand; `dynamic_pad`, `real_dynamic_slice`,
`dynamic_gather` and `dynamic_conv` their amounts, from which the static
op's shape rule gives the result; so does JAX's `custom_call
@stablehlo.dynamic_reduce_window` (`cumsum` with a symbolic dimension),
which becomes a `reduce_window` whose body is its called function.
`get_dimension_size` of a static dimension is a constant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import SymbolRefAttr, TensorType, i64
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import SymbolTable
from xlir.dialects.stablehlo import shape_rules
from xlir.dialects.stablehlo.contraction import ConvolutionOp
from xlir.dialects.stablehlo.control_flow import CustomCallOp
from xlir.dialects.stablehlo.control_flow import ReturnOp as StablehloReturnOp
from xlir.dialects.stablehlo.data_movement import (
    BroadcastInDimOp,
    ConstantOp,
    GetDimensionSizeOp,
    IotaOp,
    PadOp,
    ReshapeOp,
    SliceOp,
)
from xlir.dialects.stablehlo.dynamic import (
    DynamicBroadcastInDimOp,
    DynamicConvOp,
    DynamicGatherOp,
    DynamicIotaOp,
    DynamicPadOp,
    DynamicReshapeOp,
    RealDynamicSliceOp,
)
from xlir.dialects.stablehlo.indexing import GatherOp
from xlir.dialects.stablehlo.reduction import ReduceWindowOp
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.dialects.syntax import array_values, i64_array
from xlir.passes.hlo.simplify_patterns.constants import constant_array, dense_from_numpy

SHAPE_OPERANDS: dict[str, tuple[str, ...]] = {
    "stablehlo.dynamic_broadcast_in_dim": ("output_dimensions",),
    "stablehlo.dynamic_reshape": ("output_shape",),
    "stablehlo.dynamic_iota": ("output_shape",),
    "stablehlo.dynamic_pad": (
        "edge_padding_low",
        "edge_padding_high",
        "interior_padding",
    ),
    "stablehlo.real_dynamic_slice": ("start_indices", "limit_indices", "strides"),
    "stablehlo.dynamic_gather": ("slice_sizes",),
    "stablehlo.dynamic_conv": ("padding",),
}
"""The operands of each dynamic op that must be known at compile time."""


def _values(value: SSAValue) -> list[int] | None:
    array = constant_array(value)
    return None if array is None else [int(v) for v in np.ravel(array)]


def _sizes(value: SSAValue, what: str) -> list[int] | None:
    sizes = _values(value)
    if sizes is not None and any(v < 0 for v in sizes):
        raise shape_rules.ShapeError(f"{what} holds a negative size: {sizes}")
    return sizes


def _typed(op: Operation, sizes: Sequence[int]) -> TensorType:
    return TensorType(element_type(op.results[0].type), sizes)


def _broadcast(op: DynamicBroadcastInDimOp) -> Operation | None:
    sizes = _sizes(op.output_dimensions, "output_dimensions")
    if sizes is None:
        return None
    dims = array_values(op.broadcast_dimensions)
    shape_rules.check_broadcast_in_dim(shape(op.operand.type), dims, tuple(sizes))
    return BroadcastInDimOp(op.operand, dims, _typed(op, sizes))


def _reshape(op: DynamicReshapeOp) -> Operation | None:
    sizes = _sizes(op.output_shape, "output_shape")
    if sizes is None:
        return None
    shape_rules.check_reshape(shape(op.operand.type), tuple(sizes))
    return ReshapeOp(op.operand, _typed(op, sizes))


def _iota(op: DynamicIotaOp) -> Operation | None:
    sizes = _sizes(op.output_shape, "output_shape")
    if sizes is None:
        return None
    return IotaOp(op.iota_dimension.value.data, _typed(op, sizes))


def _pad(op: DynamicPadOp) -> Operation | None:
    low, high = _values(op.edge_padding_low), _values(op.edge_padding_high)
    interior = _sizes(op.interior_padding, "interior_padding")
    if low is None or high is None or interior is None:
        return None
    return PadOp(op.operand, op.padding_value, low, high, interior)


def _slice(op: RealDynamicSliceOp) -> Operation | None:
    bounds = [_values(v) for v in (op.start_indices, op.limit_indices, op.strides)]
    start, limit, strides = bounds
    if start is None or limit is None or strides is None:
        return None
    return SliceOp(op.operand, start, limit, strides)


def _gather(op: DynamicGatherOp) -> Operation | None:
    sizes = _sizes(op.slice_sizes, "slice_sizes")
    if sizes is None:
        return None
    properties = dict(op.properties) | {"slice_sizes": i64_array(sizes)}
    return GatherOp.create(
        operands=[op.operand, op.start_indices],
        result_types=[op.result.type],
        properties=properties,
    )


def _convolution(op: DynamicConvOp) -> Operation | None:
    pads = _values(op.padding)
    if pads is None:
        return None
    pairs = np.asarray(pads, np.int64).reshape(-1, 2)
    padding = dense_from_numpy(pairs, TensorType(i64, pairs.shape))
    return ConvolutionOp.create(
        operands=[op.lhs, op.rhs],
        result_types=[op.result.type],
        properties=dict(op.properties) | {"padding": padding},
    )


def _reduce_window(op: CustomCallOp) -> Operation | None:
    """`custom_call @stablehlo.dynamic_reduce_window(inputs..., inits...,
    window_dimensions, window_strides, base_dilations, window_dilations,
    padding) {called_computations = [@body]}`."""
    if op.call_target_name.data != "stablehlo.dynamic_reduce_window":
        return None
    count = (len(op.operands) - 5) // 2
    attributes = [_values(v) for v in op.operands[2 * count :]]
    called = op.called_computations
    if count < 1 or called is None or len(called.data) != 1:
        raise shape_rules.ShapeError(
            "stablehlo.dynamic_reduce_window takes inputs, as many init values, "
            "five window operands and one called computation"
        )
    if any(a is None for a in attributes):
        return None
    dims, strides, base, window, pads = (cast(list[int], a) for a in attributes)
    body = SymbolTable.lookup_symbol(op, cast(SymbolRefAttr, called.data[0]))
    if not isinstance(body, FuncOp) or not body.body.blocks:
        raise shape_rules.ShapeError(
            f"its called computation {called.data[0]} is not a function"
        )
    region = body.body.clone()
    returned = region.block.last_op
    assert isinstance(returned, ReturnOp)
    Rewriter.replace_op(returned, StablehloReturnOp(list(returned.operands)))
    pairs = np.asarray(pads, np.int64).reshape(-1, 2)
    return ReduceWindowOp.create(
        operands=list(op.operands[: 2 * count]),
        result_types=[r.type for r in op.results],
        properties={
            "window_dimensions": i64_array(dims),
            "window_strides": i64_array(strides),
            "base_dilations": i64_array(base),
            "window_dilations": i64_array(window),
            "padding": dense_from_numpy(pairs, TensorType(i64, pairs.shape)),
        },
        regions=[region],
    )


def _dimension_size(op: GetDimensionSizeOp) -> Operation | None:
    size = shape(op.operand.type)[op.dimension.value.data]
    if size < 0:
        return None
    return ConstantOp(dense_from_numpy(np.asarray(size), op.results[0].type))


STATIC_FORMS: dict[str, Callable[[Operation], Operation | None]] = {
    "stablehlo.dynamic_broadcast_in_dim": _broadcast,  # pyright: ignore[reportAssignmentType]
    "stablehlo.dynamic_reshape": _reshape,  # pyright: ignore[reportAssignmentType]
    "stablehlo.dynamic_iota": _iota,  # pyright: ignore[reportAssignmentType]
    "stablehlo.dynamic_pad": _pad,  # pyright: ignore[reportAssignmentType]
    "stablehlo.real_dynamic_slice": _slice,  # pyright: ignore[reportAssignmentType]
    "stablehlo.dynamic_gather": _gather,  # pyright: ignore[reportAssignmentType]
    "stablehlo.dynamic_conv": _convolution,  # pyright: ignore[reportAssignmentType]
    "stablehlo.get_dimension_size": _dimension_size,  # pyright: ignore[reportAssignmentType]
    "stablehlo.custom_call": _reduce_window,  # pyright: ignore[reportAssignmentType]
}
"""By op name: the op's static replacement (its result type may still be
refined by `rules`), or None while a shape operand is not a constant. A
value that breaks the static op's rule raises `shape_rules.ShapeError`."""
