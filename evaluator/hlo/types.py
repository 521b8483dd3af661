"""Element types on the host: numpy dtypes, narrow types, dense constants.

Types numpy lacks are held in a wider host dtype and rounded to their own
values after every operation (the op's result *fix*): bf16 and the float8,
float6 and float4 types as float32 (rounded by `ml_dtypes`), the 2- and 4-bit
integers as 8-bit ones (wrapped around). Complex types are numpy's complex.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute
from xlir.dialects.quant import UniformQuantizedType

from xlir.element_dtypes import NARROW_FLOATS, element_dtype
from xlir.element_types import bit_width as element_bit_width


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


def _element(type_: Attribute) -> Attribute:
    """A tensor's element type; a vector's too (the loop evaluator runs the
    integer ops of register tiles on their lanes with these helpers)."""
    if isinstance(type_, TensorType | VectorType):
        return type_.get_element_type()
    return type_


def dtype_of(type_: Attribute) -> np.dtype:
    """The host dtype of a tensor type (or of an element type); quantized
    values are held as their storage integers."""
    element = _element(type_)
    if isinstance(element, UniformQuantizedType):
        return dtype_of(element.storage_type)
    if type(element) in NARROW_FLOATS:
        return np.dtype(np.float32)
    if isinstance(element, IntegerType) and element.width.data in (2, 4):
        unsigned = element.signedness.data == Signedness.UNSIGNED
        return np.dtype(np.uint8 if unsigned else np.int8)
    if isinstance(element, ComplexType):
        part = element.element_type
        if isinstance(part, Float32Type):
            return np.dtype(np.complex64)
        if isinstance(part, Float64Type):
            return np.dtype(np.complex128)
    dtype = element_dtype(element)
    if dtype is None:
        raise Unsupported(f"element type {element} is not supported")
    return dtype


def storage_dtype(type_: Attribute) -> np.dtype:
    """The dtype that holds the type's exact bits: `ml_dtypes`' for narrow
    floats, 8-bit integers for 2- and 4-bit ones, else the host dtype."""
    element = _element(type_)
    narrow = NARROW_FLOATS.get(type(element))
    if narrow is not None:
        return narrow
    if isinstance(element, BFloat16Type):
        return np.dtype(ml_dtypes.bfloat16)
    return dtype_of(element)


def rounding(type_: Attribute) -> Callable[[np.ndarray], np.ndarray] | None:
    """What brings a host value to the nearest value of the type (None where
    the host dtype is the type itself)."""
    element = _element(type_)
    if isinstance(element, UniformQuantizedType):
        return rounding(element.storage_type)
    if isinstance(element, BFloat16Type):
        return round_bf16
    narrow = NARROW_FLOATS.get(type(element))
    if narrow is not None:

        def round_narrow(x: np.ndarray) -> np.ndarray:
            return np.asarray(x, np.float32).astype(narrow).astype(np.float32)

        return round_narrow
    if isinstance(element, IntegerType) and element.width.data in (2, 4):
        return integer_wrap(element.width.data, is_unsigned(element))
    return None


def rounding_by_name(spelling: str) -> Callable[[np.ndarray], np.ndarray] | None:
    """`rounding` of an element type given by its MLIR spelling (`bf16`,
    `f8E4M3FN`, `i4`, ...), as device buffers record it."""
    return _roundings_by_name().get(spelling)


def as_held(array: np.ndarray, spelling: str) -> np.ndarray:
    """A host array of element type `spelling` as the evaluator holds it:
    a narrow type as the wider one that computes it, rounded to the type
    (bf16 as float32, int4 as int8)."""
    round_to_type = rounding_by_name(spelling)
    return array if round_to_type is None else round_to_type(array)


@cache
def _roundings_by_name() -> dict[str, Callable[[np.ndarray], np.ndarray]]:
    elements: list[Attribute] = [BFloat16Type(), *(cls() for cls in NARROW_FLOATS)]
    elements += [IntegerType(w, s) for w in (2, 4) for s in Signedness]
    return {
        str(element): fix
        for element in elements
        if (fix := rounding(element)) is not None
    }


def integer_wrap(width: int, unsigned: bool) -> Callable[[np.ndarray], np.ndarray]:
    """Wrap integers around to `width` bits, held in 8-bit integers."""
    mask = (1 << width) - 1
    half = 1 << (width - 1)
    if unsigned:
        return lambda x: (np.asarray(x).astype(np.int64) & mask).astype(np.uint8)
    return lambda x: (((np.asarray(x).astype(np.int64) + half) & mask) - half).astype(
        np.int8
    )


def to_bits(x: np.ndarray, type_: Attribute) -> np.ndarray:
    """The bit patterns of values of a real type, as unsigned integers of its
    storage's width (the low bits only for types narrower than a byte)."""
    storage = storage_dtype(type_)
    raw = np.asarray(np.asarray(x).astype(storage), order="C")
    bits = raw.view(f"u{storage.itemsize}")
    width = bit_width(type_)
    return bits & ((1 << width) - 1) if width < 8 else bits


def from_bits(bits: np.ndarray, type_: Attribute) -> np.ndarray:
    """Values of the type (in its host dtype) from bit patterns as `to_bits`
    makes them."""
    storage = storage_dtype(type_)
    values = np.asarray(bits, order="C").view(storage)
    fix = rounding(type_)
    host = values.astype(dtype_of(type_))
    return fix(host) if fix is not None and storage.itemsize == 1 else host


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
    """Bits of an element of the type (of a tensor type's elements)."""
    element = _element(type_)
    width = element_bit_width(element)
    if width is None:
        raise Unsupported(f"element type {element} is not supported")
    return width


def is_quantized(type_: Attribute) -> bool:
    return isinstance(_element(type_), UniformQuantizedType)


def _scale_and_zero_point(
    quantized: UniformQuantizedType, rank: int, dtype: np.dtype
) -> tuple[np.ndarray, np.ndarray]:
    """Scales and zero points shaped to broadcast against a tensor of `rank`
    (along the quantized axis, if there is one)."""
    scales = np.asarray(quantized.scale_values, dtype)
    zero_points = np.asarray(quantized.zero_point_values, dtype)
    if quantized.axis.data >= 0:
        view = [1] * rank
        view[quantized.axis.data] = -1
        return scales.reshape(view), zero_points.reshape(view)
    return scales.reshape(()), zero_points.reshape(())


def dequantize(q: np.ndarray, type_: Attribute) -> np.ndarray:
    """The expressed values of quantized ones: (q - zero_point) * scale."""
    quantized = _element(type_)
    assert isinstance(quantized, UniformQuantizedType)
    dtype = dtype_of(quantized.expressed_type)
    q = np.asarray(q)
    scale, zero_point = _scale_and_zero_point(quantized, q.ndim, dtype)
    return ((q.astype(dtype) - zero_point) * scale).astype(dtype)


def quantize(x: np.ndarray, type_: Attribute) -> np.ndarray:
    """round_nearest_even(x / scale + zero_point), clamped to the storage
    range, in the storage dtype."""
    quantized = _element(type_)
    assert isinstance(quantized, UniformQuantizedType)
    dtype = dtype_of(quantized.expressed_type)
    x = np.asarray(x, dtype)
    scale, zero_point = _scale_and_zero_point(quantized, x.ndim, dtype)
    q = np.rint(x / scale + zero_point)
    q = np.clip(q, quantized.storage_min.data, quantized.storage_max.data)
    return q.astype(dtype_of(quantized.storage_type))


def round_bf16(x: np.ndarray) -> np.ndarray:
    """Round float32 values to the nearest bf16 (ties to even), kept in float32.

    A NaN keeps its sign and payload bits: one that is a bf16 already (the
    result of a reshape, a select, a negate) comes out bit for bit, others
    are made quiet and cut to bf16's payload."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32)
    rounded = bits + (np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1)))
    rounded &= np.uint32(0xFFFF0000)
    nan = np.isnan(x)
    if nan.any():
        low = bits & np.uint32(0xFFFF)
        quieted = np.where(low == 0, bits, bits | np.uint32(0x00400000))
        rounded = np.where(nan, quieted & np.uint32(0xFFFF0000), rounded)
    return rounded.view(np.float32)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """The uint16 bit patterns of bf16 values held in float32."""
    return (round_bf16(x).view(np.uint32) >> np.uint32(16)).astype(np.uint16)


def bf16_from_bits(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def store_held(output: np.ndarray, value: np.ndarray) -> None:
    """Write a value as the evaluator holds it (`as_held`) into a host array
    of its element type: bf16 through its bits, since `ml_dtypes`' float32 to
    bfloat16 cast makes every NaN the one canonical NaN."""
    if output.dtype == np.dtype(ml_dtypes.bfloat16):
        output.view(np.uint16)[...] = bf16_bits(np.asarray(value, np.float32))
    else:
        output[...] = value


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
    elif type(element) in NARROW_FLOATS:
        flat = np.frombuffer(raw, dtype=storage_dtype(element)).astype(np.float32)
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
