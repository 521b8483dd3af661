"""Constants as the simplifier and the constant folder see them: numpy arrays
read from `stablehlo.constant` (through the interpreter's reader, so both
agree on every element type), and dense literals built back from arrays.

A literal is built from the array's bytes, as xDSL stores it, so every value
round-trips through the printer and parser bit for bit: NaN, ±inf, -0.0,
bf16 (held in float32 on the host) and unsigned integers included.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from xdsl.dialects.builtin import (
    AnyDenseElement,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    RankedStructure,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xlir.dialects.stablehlo.data_movement import BroadcastInDimOp, ConstantOp
from xlir.evaluator.hlo.types import (
    Unsupported,
    dense_to_numpy,
    dtype_of,
    is_quantized,
    rounding,
    storage_dtype,
)

MAX_SPLAT_ELEMENTS = 16
"""A splat result up to this many elements is a constant; a larger one is a
scalar constant broadcast (fusion absorbs the broadcast, and a literal of a
million equal values helps nobody reading or compiling the IR)."""


def constant_array(value: SSAValue) -> np.ndarray | None:
    """The value's elements, when a `stablehlo.constant` defines it."""
    owner = value.owner
    if not isinstance(owner, ConstantOp):
        return None
    try:
        return dense_to_numpy(owner.value, owner.output.type)
    except Unsupported:
        return None


def splat_scalar(value: SSAValue) -> np.ndarray | None:
    """The one element of a constant whose elements are all the same bits, as
    a rank-0 array (so -0.0 and +0.0, and NaN payloads, stay apart). A
    broadcast of such a constant is one too: big splats stay broadcasts."""
    owner = value.owner
    if isinstance(owner, BroadcastInDimOp):
        value = owner.operand
    array = constant_array(value)
    if array is None or array.size == 0:
        return None
    flat = np.ascontiguousarray(array.reshape(-1))
    element_bytes = flat.view(np.uint8).reshape(flat.size, -1)
    if not (element_bytes == element_bytes[0]).all():
        return None
    return flat[:1].reshape(())


def dense_from_numpy(array: np.ndarray, type_: Attribute) -> DenseIntOrFPElementsAttr:
    """A dense literal of the tensor type `type_` holding `array` (already of
    the host dtype of `type_`, or castable to it), rounded to the type's
    values first (bf16, float8, 2- and 4-bit integers)."""
    assert isinstance(type_, TensorType)
    element = type_.get_element_type()
    if is_quantized(element):
        raise Unsupported("quantized values have no dense literal")
    values = np.asarray(array).astype(dtype_of(element))
    round_to_type = rounding(element)
    if round_to_type is not None:
        values = round_to_type(values)
    raw = values.astype(storage_dtype(element))
    if raw.dtype.kind == "b":
        raw = raw.astype(np.uint8)
    elif raw.dtype.kind in "iufc":
        raw = raw.astype(raw.dtype.newbyteorder("<"))
    return DenseIntOrFPElementsAttr(
        cast(RankedStructure[AnyDenseElement], type_),
        BytesAttr(np.ascontiguousarray(raw).tobytes()),
    )


def splat_ops(
    type_: Attribute, scalar: np.ndarray, limit: int = MAX_SPLAT_ELEMENTS
) -> list[Operation]:
    """Ops computing a tensor of `type_` filled with `scalar`: one constant when
    it has at most `limit` elements, else a scalar constant and a broadcast."""
    assert isinstance(type_, TensorType)
    shape = tuple(type_.get_shape())
    if int(np.prod(shape, dtype=np.int64)) <= limit:
        return [ConstantOp(dense_from_numpy(np.full(shape, scalar), type_))]
    scalar_type = TensorType(type_.get_element_type(), [])
    constant = ConstantOp(dense_from_numpy(np.asarray(scalar), scalar_type))
    return [constant, BroadcastInDimOp(constant.output, [], type_)]
