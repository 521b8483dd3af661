"""Values and buffers on the host.

A *register* value (an SSA value of a scalar type) is a numpy scalar or an
array over the lanes of a vectorized loop, in the host dtype of its type
(`xlir/element_dtypes.py`'s `element_dtype`: bf16 held as float32, rounded after
every operation; i1 as bool; index as int64). A value of a `vector<N>` type
has one more axis, of N, in front of the loop's (`vector.py`).

A *buffer* (a memref) is a numpy array in *device* layout: bf16 elements are
their uint16 bits, so a buffer occupies exactly its bytes and views of a byte
arena alias as they do on a device.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, MemRefType, TensorType, VectorType
from xdsl.ir import Attribute
from xlir.evaluator.hlo.types import (
    Unsupported,
    bf16_bits,
    bf16_from_bits,
    round_bf16,
)

from xlir.element_dtypes import element_dtype

Convert = Callable[[Any], Any]


def register_dtype(type_: Attribute) -> np.dtype:
    """The host dtype of a scalar type (or of a shaped type's elements)."""
    element = (
        type_.get_element_type()
        if isinstance(type_, MemRefType | TensorType | VectorType)
        else type_
    )
    dtype = element_dtype(element)
    if dtype is None:
        raise Unsupported(f"element type {element} is not supported")
    return dtype


def is_bf16(type_: Attribute) -> bool:
    element = (
        type_.get_element_type()
        if isinstance(type_, MemRefType | TensorType | VectorType)
        else type_
    )
    return isinstance(element, BFloat16Type)


def storage_dtype(type_: Attribute) -> np.dtype:
    """The dtype of a buffer's elements in device memory."""
    return np.dtype(np.uint16) if is_bf16(type_) else register_dtype(type_)


def memref_type(type_: Attribute) -> MemRefType:
    if not isinstance(type_, MemRefType) or not type_.has_static_shape():
        raise Unsupported(
            f"buffers of type {type_} are not supported (static memrefs only)"
        )
    return type_


def new_buffer(type_: Attribute) -> np.ndarray:
    """A zeroed buffer of a static memref type."""
    memref = memref_type(type_)
    return np.zeros(tuple(memref.get_shape()), storage_dtype(memref))


def loader(type_: Attribute) -> Convert | None:
    """Device element -> register value (None: they are the same)."""
    return bf16_from_bits if is_bf16(type_) else None


def storer(type_: Attribute) -> Convert:
    """Register value -> device element."""
    if is_bf16(type_):
        return bf16_bits
    dtype = storage_dtype(type_)
    return lambda x: (
        x.astype(dtype, copy=False) if hasattr(x, "astype") else dtype.type(x)
    )


def rounding(type_: Attribute) -> Convert | None:
    """What makes a computed value a value of the type: bf16 rounding, or
    None where numpy's result is already exact."""
    return round_bf16 if is_bf16(type_) else None


def to_buffer(array: np.ndarray, type_: Attribute) -> np.ndarray:
    """A host array (a tensor's value) as a fresh buffer of a memref type,
    row-major so that views and reshapes of it share its memory."""
    memref = memref_type(type_)
    array = np.array(array, copy=True, order="C")
    if is_bf16(memref):  # numpy makes a 0-d array's bits a scalar: asarray
        bits = np.asarray(bf16_bits(array.astype(np.float32)))
        return bits.reshape(memref.get_shape())
    return array.astype(storage_dtype(memref), copy=False).reshape(memref.get_shape())


def from_buffer(buffer: np.ndarray, type_: Attribute) -> np.ndarray:
    """A buffer's contents as a fresh host array."""
    if is_bf16(type_):
        return bf16_from_bits(buffer).copy()
    return np.array(buffer, copy=True)
