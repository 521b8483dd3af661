"""dot_general, dot and convolution, vectorized with numpy (BLAS where the
element type allows). f16 and bf16 are computed in float32 and rounded."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.ir import Operation
from xlir.dialects.stablehlo.contraction import ConvolutionOp, DotGeneralOp, DotOp
from xlir.dialects.stablehlo.dynamic import DynamicConvOp
from xlir.evaluator.hlo.data_movement import (
    int_attr,
    int_list,
    ints_of,
    pad_array,
    result_shape,
)
from xlir.evaluator.hlo.elementwise import attribute, convert_array
from xlir.evaluator.hlo.engine import ModuleInterpreter, impl
from xlir.evaluator.hlo.types import Unsupported, dtype_of

Array = Any


def compute_dtype(op: Operation) -> np.dtype:
    """The dtype products are summed in: the result's, except f16 (f32) and
    float operands with an integer result, which sum in their own type (at
    least f32) before the sum is converted, as XLA does."""
    dtype = dtype_of(op.results[0].type)
    operand = dtype_of(op.operands[0].type)
    if dtype.kind in "iu" and operand.kind == "f":
        return np.promote_types(operand, np.float32)
    if dtype == np.float16:
        return np.dtype(np.float32)
    return dtype


def to_result(op: Operation, sums: Array, dtype: np.dtype) -> Array:
    """Sums of `compute_dtype` as the result's elements: float sums of an
    integer result converted as `stablehlo.convert` does (saturating)."""
    result = dtype_of(op.results[0].type)
    if result.kind in "iu" and dtype.kind == "f":
        return convert_array(sums, dtype, result, False)
    return sums


def dims_field(attr: Any, name: str) -> list[int]:
    if attr is None:
        raise Unsupported("missing the dimension numbers")
    if hasattr(attr, "field"):
        try:
            return list(attr.field(name))
        except (ValueError, KeyError):
            pass
    value = getattr(attr, name, None)
    if value is None:
        raise Unsupported(f"dimension numbers without '{name}'")
    if hasattr(value, "data") and isinstance(value.data, tuple):
        return [int(v) for v in value.data]
    return ints_of(value)


def dot_general(
    lhs: Array,
    rhs: Array,
    lb: list[int],
    rb: list[int],
    lc: list[int],
    rc: list[int],
    dtype: np.dtype,
) -> Array:
    lhs = np.asarray(lhs).astype(dtype, copy=False)
    rhs = np.asarray(rhs).astype(dtype, copy=False)
    lf = [d for d in range(lhs.ndim) if d not in lb and d not in lc]
    rf = [d for d in range(rhs.ndim) if d not in rb and d not in rc]
    batch = [lhs.shape[d] for d in lb]
    m_shape = [lhs.shape[d] for d in lf]
    n_shape = [rhs.shape[d] for d in rf]
    b = int(np.prod(batch, dtype=np.int64))
    m = int(np.prod(m_shape, dtype=np.int64))
    n = int(np.prod(n_shape, dtype=np.int64))
    k = int(np.prod([lhs.shape[d] for d in lc], dtype=np.int64))
    left = np.transpose(lhs, lb + lf + lc).reshape(b, m, k)
    right = np.transpose(rhs, rb + rc + rf).reshape(b, k, n)
    if dtype.kind == "b":
        product = np.matmul(left.astype(np.int64), right.astype(np.int64)) != 0
    elif dtype.kind == "f" and dtype.itemsize < 8:
        # Summed in f64 and rounded once: BLAS's f32 kernels sum long
        # contractions in f32 partial sums, and the oracle should be at
        # least as accurate as the targets it checks.
        wide = np.matmul(left.astype(np.float64), right.astype(np.float64))
        product = wide.astype(dtype)
    elif b == 1:
        product = np.matmul(left[0], right[0])
    else:
        product = np.matmul(left, right)
    return product.reshape(batch + m_shape + n_shape)


@impl(DotGeneralOp)
def _dot_general(op: Operation, interp: ModuleInterpreter):
    numbers = attribute(op, "dot_dimension_numbers")
    lb = dims_field(numbers, "lhs_batching_dimensions")
    rb = dims_field(numbers, "rhs_batching_dimensions")
    lc = dims_field(numbers, "lhs_contracting_dimensions")
    rc = dims_field(numbers, "rhs_contracting_dimensions")
    dtype = compute_dtype(op)
    return lambda lhs, rhs: to_result(
        op, dot_general(lhs, rhs, lb, rb, lc, rc, dtype), dtype
    )


@impl(DotOp)
def _dot(op: Operation, interp: ModuleInterpreter):
    dtype = compute_dtype(op)

    def dot(lhs: Array, rhs: Array) -> Array:
        lc = [lhs.ndim - 1]
        return to_result(op, dot_general(lhs, rhs, [], [], lc, [0], dtype), dtype)

    return dot


def _conv_layout(numbers: Any, name: str) -> list[int]:
    value = getattr(numbers, name, None)
    if value is None:
        raise Unsupported(f"convolution dimension numbers without '{name}'")
    if hasattr(value, "data") and isinstance(value.data, tuple):
        return [int(v) for v in value.data]
    if isinstance(value, int):
        return [value]
    return ints_of(value)


def _padding(op: Operation, spatial: int) -> list[tuple[int, int]]:
    value = attribute(op, "padding")
    if value is None:
        return [(0, 0)] * spatial
    flat = ints_of(value)
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(spatial)]


def _bools(op: Operation, name: str, count: int) -> list[bool]:
    value = attribute(op, name)
    if value is None:
        return [False] * count
    return [bool(v) for v in ints_of(value)]


def convolution(
    lhs: Array,
    rhs: Array,
    *,
    spatial: int,
    strides: list[int],
    padding: list[tuple[int, int]],
    lhs_dilation: list[int],
    rhs_dilation: list[int],
    reversal: list[bool],
    feature_groups: int,
    out_spatial: list[int],
) -> Array:
    """lhs is [N, C, S...], rhs is [O, I, S...]; the result is [N, O, S...].
    The taps are contracted by `dot_general` (matmul): np.tensordot goes
    through np.dot, whose BLAS scaling of a one-element operand skips the
    products of a zero, so inf * 0 would not make NaN."""
    dtype = lhs.dtype
    axes = list(range(2, 2 + spatial))
    flips = tuple(2 + i for i, r in enumerate(reversal) if r)
    if flips:
        rhs = np.flip(rhs, flips)
    x = pad_array(
        lhs,
        np.zeros((), lhs.dtype),
        [0, 0, *(p[0] for p in padding)],
        [0, 0, *(p[1] for p in padding)],
        [0, 0, *(d - 1 for d in lhs_dilation)],
    )
    n, c = x.shape[:2]
    o = rhs.shape[0]
    kernel_shape = rhs.shape[2:]
    if any(s <= 0 for s in out_spatial) or n == 0 or o == 0:
        return np.zeros((n, o, *(max(s, 0) for s in out_spatial)), dtype=lhs.dtype)
    extent = [(k - 1) * d + 1 for k, d in zip(kernel_shape, rhs_dilation, strict=True)]
    windows = sliding_window_view(x, tuple(extent), axis=tuple(axes))
    # windows: [N, C, P..., E...]; pick strided outputs and dilated taps
    index = (
        slice(None),
        slice(None),
        *(
            slice(0, (s - 1) * st + 1, st)
            for s, st in zip(out_spatial, strides, strict=True)
        ),
        *(slice(None, None, d) for d in rhs_dilation),
    )
    windows = windows[index]
    window_axes = list(range(2 + spatial, 2 + 2 * spatial))
    if feature_groups == 1:
        # contract C and the taps: -> [N, P..., O]
        out = dot_general(windows, rhs, [], [], [1, *window_axes], [1, *axes], dtype)
        return np.moveaxis(out, -1, 1)
    cg = c // feature_groups
    og = o // feature_groups
    parts = []
    for g in range(feature_groups):
        part = dot_general(
            windows[:, g * cg : (g + 1) * cg],
            rhs[g * og : (g + 1) * og],
            [],
            [],
            [1, *window_axes],
            [1, *axes],
            dtype,
        )
        parts.append(np.moveaxis(part, -1, 1))
    return np.concatenate(parts, axis=1)


@impl(ConvolutionOp)
def _convolution(op: Operation, interp: ModuleInterpreter):
    run = make_convolution(op)
    spatial = len(op.operands[0].type.get_shape()) - 2  # type: ignore[attr-defined]
    padding = _padding(op, spatial)
    return lambda lhs, rhs: run(lhs, rhs, padding)


@impl(DynamicConvOp)
def _dynamic_conv(op: Operation, interp: ModuleInterpreter):
    run = make_convolution(op)

    def dynamic_conv(lhs: Array, rhs: Array, padding: Array) -> Array:
        pairs = [(int(lo), int(hi)) for lo, hi in np.asarray(padding).reshape(-1, 2)]
        return run(lhs, rhs, pairs)

    return dynamic_conv


def make_convolution(op: Operation):
    """run(lhs, rhs, padding) with the op's other attributes."""
    numbers = attribute(op, "dimension_numbers")
    if numbers is None:
        raise Unsupported("missing the attribute 'dimension_numbers'")
    ib = _conv_layout(numbers, "input_batch_dimension")[0]
    if_ = _conv_layout(numbers, "input_feature_dimension")[0]
    isp = _conv_layout(numbers, "input_spatial_dimensions")
    ki = _conv_layout(numbers, "kernel_input_feature_dimension")[0]
    ko = _conv_layout(numbers, "kernel_output_feature_dimension")[0]
    ksp = _conv_layout(numbers, "kernel_spatial_dimensions")
    ob = _conv_layout(numbers, "output_batch_dimension")[0]
    of = _conv_layout(numbers, "output_feature_dimension")[0]
    osp = _conv_layout(numbers, "output_spatial_dimensions")
    spatial = len(isp)
    strides = int_list(op, "window_strides", [1] * spatial)
    lhs_dilation = int_list(op, "lhs_dilation", [1] * spatial)
    rhs_dilation = int_list(op, "rhs_dilation", [1] * spatial)
    reversal = _bools(op, "window_reversal", spatial)
    feature_groups = int_attr(op, "feature_group_count", 1)
    batch_groups = int_attr(op, "batch_group_count", 1)
    out_shape = result_shape(op)
    out_spatial = [out_shape[d] for d in osp]
    to_layout = list(np.argsort([ob, of, *osp]))
    dtype = compute_dtype(op)

    def run(lhs: Array, rhs: Array, padding: list[tuple[int, int]]) -> Array:
        x = np.transpose(np.asarray(lhs).astype(dtype, copy=False), [ib, if_, *isp])
        w = np.transpose(np.asarray(rhs).astype(dtype, copy=False), [ko, ki, *ksp])
        options = {
            "spatial": spatial,
            "strides": strides,
            "padding": padding,
            "lhs_dilation": lhs_dilation,
            "rhs_dilation": rhs_dilation,
            "reversal": reversal,
            "feature_groups": feature_groups,
            "out_spatial": out_spatial,
        }
        if batch_groups == 1:
            out = convolution(x, w, **options)
        else:
            nb = x.shape[0] // batch_groups
            ob_ = w.shape[0] // batch_groups
            out = np.concatenate(
                [
                    convolution(
                        x[g * nb : (g + 1) * nb], w[g * ob_ : (g + 1) * ob_], **options
                    )
                    for g in range(batch_groups)
                ],
                axis=1,
            )
        return to_result(op, np.transpose(out, to_layout), dtype)

    return run
