"""Element types on the host: numpy dtypes, bf16 emulation, dense constants."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute
from xlir.targets.base import element_dtype


class Unsupported(Exception):
    """An op (or a use of it) the interpreter cannot run; the message says why."""


def tensor_element(type_: Attribute) -> Attribute:
    if not isinstance(type_, TensorType):
        raise Unsupported(f"values of type {type_} are not supported")
    return type_.get_element_type()


def tensor_shape(type_: Attribute) -> tuple[int, ...]:
    if not isinstance(type_, TensorType):
        raise Unsupported(f"values of type {type_} are not supported")
    return tuple(type_.get_shape())


def dtype_of(type_: Attribute) -> np.dtype:
    """The host dtype of a tensor type (or of an element type)."""
    element = type_.get_element_type() if isinstance(type_, TensorType) else type_
    dtype = element_dtype(element)
    if dtype is None:
        raise Unsupported(f"element type {element} is not supported")
    return dtype


def is_bf16(type_: Attribute) -> bool:
    element = type_.get_element_type() if isinstance(type_, TensorType) else type_
    return isinstance(element, BFloat16Type)


def is_unsigned(type_: Attribute) -> bool:
    element = type_.get_element_type() if isinstance(type_, TensorType) else type_
    return (
        isinstance(element, IntegerType)
        and element.width.data > 1
        and element.signedness.data == Signedness.UNSIGNED
    )


def bit_width(type_: Attribute) -> int:
    element = type_.get_element_type() if isinstance(type_, TensorType) else type_
    if isinstance(element, IntegerType):
        return element.width.data
    if isinstance(element, BFloat16Type):
        return 16
    return dtype_of(element).itemsize * 8


def round_bf16(x: np.ndarray) -> np.ndarray:
    """Round float32 values to the nearest bf16 (ties to even), kept in float32."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32)
    rounded = bits + (np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1)))
    rounded &= np.uint32(0xFFFF0000)
    nan = np.isnan(x)
    if nan.any():
        rounded = np.where(
            nan, (bits | np.uint32(0x00400000)) & np.uint32(0xFFFF0000), rounded
        )
    return rounded.view(np.float32)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """The uint16 bit patterns of bf16 values held in float32."""
    return (round_bf16(x).view(np.uint32) >> np.uint32(16)).astype(np.uint16)


def bf16_from_bits(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def dense_to_numpy(attr: Attribute, type_: Attribute | None = None) -> np.ndarray:
    """A dense elements attribute as a numpy array of the host dtype."""
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        raise Unsupported(f"constant {attr} is not a dense int or float attribute")
    element = attr.get_element_type()
    shape = tuple(attr.get_shape())
    if type_ is not None and isinstance(type_, TensorType):
        shape = tuple(type_.get_shape())
    raw = attr.data.data
    if isinstance(element, BFloat16Type):
        flat = bf16_from_bits(np.frombuffer(raw, dtype="<u2"))
    elif isinstance(element, IntegerType) and element.width.data == 1:
        flat = np.frombuffer(raw, dtype=np.uint8) != 0
    else:
        dtype = dtype_of(element)
        flat = np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    if flat.size == count:
        return flat.reshape(shape).copy()
    if flat.size == 1:
        return np.full(shape, flat[0], dtype=flat.dtype)
    raise Unsupported(
        f"constant holds {flat.size} values but its type {type_ or attr.type} "
        f"needs {count}"
    )
