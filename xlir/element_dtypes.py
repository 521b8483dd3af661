"""The numpy dtypes of element types, once for every layer: the dtype users'
arrays hold them in, and the one the evaluator computes them in (their
widths are `xlir/element_types.py`'s).

* `array_dtype`: the dtype of arrays in and out of the API. Types numpy lacks
  are `ml_dtypes`' (what JAX returns too): `bfloat16`, the float8, float6 and
  float4 families, and `int2`, `int4`, `uint2`, `uint4`.
* `element_dtype`: the dtype that computes a type on the host, wider where
  numpy has no type of its own (bf16 in float32).

`.npz` files store such arrays as raw bytes: numpy writes an `ml_dtypes`
array as a void array of its item size (`|V2` for bf16), and reads it back
so. `from_void` gives such an array its dtype back, from the signature;
`to_void` makes the raw form to save (numpy writes `float8_e5m2` as `<f1`,
which it cannot read back).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute

from xlir.element_types import INDEX_BITS, StoredType

NARROW_FLOATS: dict[type[Attribute], np.dtype] = {
    Float8E3M4Type: np.dtype(ml_dtypes.float8_e3m4),
    Float8E4M3Type: np.dtype(ml_dtypes.float8_e4m3),
    Float8E4M3FNType: np.dtype(ml_dtypes.float8_e4m3fn),
    Float8E4M3FNUZType: np.dtype(ml_dtypes.float8_e4m3fnuz),
    Float8E4M3B11FNUZType: np.dtype(ml_dtypes.float8_e4m3b11fnuz),
    Float8E5M2Type: np.dtype(ml_dtypes.float8_e5m2),
    Float8E5M2FNUZType: np.dtype(ml_dtypes.float8_e5m2fnuz),
    Float8E8M0FNUType: np.dtype(ml_dtypes.float8_e8m0fnu),
    Float6E2M3FNType: np.dtype(ml_dtypes.float6_e2m3fn),
    Float6E3M2FNType: np.dtype(ml_dtypes.float6_e3m2fn),
    Float4E2M1FNType: np.dtype(ml_dtypes.float4_e2m1fn),
}
"""The float types narrower than f16 (bf16 aside), by xDSL type class."""

NARROW_INTEGERS: dict[tuple[int, bool], np.dtype] = {
    (2, False): np.dtype(ml_dtypes.int2),
    (4, False): np.dtype(ml_dtypes.int4),
    (2, True): np.dtype(ml_dtypes.uint2),
    (4, True): np.dtype(ml_dtypes.uint4),
}
"""The 2- and 4-bit integer types, by (width, unsigned)."""

ML_FLOATS: frozenset[np.dtype] = frozenset(
    [np.dtype(ml_dtypes.bfloat16), *NARROW_FLOATS.values()]
)
ML_INTEGERS: frozenset[np.dtype] = frozenset(NARROW_INTEGERS.values())


def element_dtype(element: Attribute) -> np.dtype | None:
    """The numpy dtype that computes elements of an MLIR element type on the
    host, or None where there is none: `bf16` in float32 (rounded to bf16
    after every operation), `i1` as bool, signless `iN` as signed, `index` as
    int64, complex<f32> and complex<f64> as numpy's complex types."""
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return np.dtype(np.bool_)
        if width not in (8, 16, 32, 64):
            return None
        unsigned = element.signedness.data == Signedness.UNSIGNED
        return np.dtype(f"{'u' if unsigned else 'i'}{width // 8}")
    if isinstance(element, IndexType):
        return np.dtype(f"i{INDEX_BITS // 8}")
    if isinstance(element, BFloat16Type | Float32Type):
        return np.dtype(np.float32)
    if isinstance(element, Float16Type):
        return np.dtype(np.float16)
    if isinstance(element, Float64Type):
        return np.dtype(np.float64)
    if isinstance(element, ComplexType):
        part = element_dtype(element.element_type)
        if part in (np.float32, np.float64):
            return np.dtype(np.complex64 if part == np.float32 else np.complex128)
    return None


def array_dtype(element: Attribute) -> np.dtype | None:
    """The dtype of arrays of `element` in and out of the API (None where
    there is none): numpy's own, else `ml_dtypes`'; `i1` is bool, signless
    `iN` signed, quantized types their storage integers."""
    if isinstance(element, StoredType):
        return array_dtype(element.storage_type)
    if isinstance(element, IntegerType):
        width = element.width.data
        unsigned = element.signedness.data == Signedness.UNSIGNED
        if width == 1:
            return np.dtype(np.bool_)
        if (width, unsigned) in NARROW_INTEGERS:
            return NARROW_INTEGERS[(width, unsigned)]
        if width not in (8, 16, 32, 64):
            return None
        return np.dtype(f"{'u' if unsigned else 'i'}{width // 8}")
    if isinstance(element, IndexType):
        return np.dtype(f"i{INDEX_BITS // 8}")
    if isinstance(element, BFloat16Type):
        return np.dtype(ml_dtypes.bfloat16)
    narrow = NARROW_FLOATS.get(type(element))
    if narrow is not None:
        return narrow
    simple = {Float16Type: np.float16, Float32Type: np.float32, Float64Type: np.float64}
    if type(element) in simple:
        return np.dtype(simple[type(element)])
    if isinstance(element, ComplexType):
        part = array_dtype(element.element_type)
        if part in (np.float32, np.float64):
            return np.dtype(np.complex64 if part == np.float32 else np.complex128)
    return None


def ml_dtype_of(spelling: str) -> np.dtype | None:
    """The `ml_dtypes` dtype of an element type numpy lacks, by its MLIR
    spelling (`bf16`, `f8E4M3FN`, `ui4`, ...); None for any other."""
    return _ML_DTYPES_BY_SPELLING.get(spelling)


_ML_DTYPES_BY_SPELLING: dict[str, np.dtype] = {
    "bf16": np.dtype(ml_dtypes.bfloat16),
    **{str(cls()): dtype for cls, dtype in NARROW_FLOATS.items()},
    **{
        f"{'u' if unsigned else ''}i{width}": dtype
        for (width, unsigned), dtype in NARROW_INTEGERS.items()
    },
}


def is_ml_dtype(dtype: np.dtype) -> bool:
    """Whether `ml_dtypes` defines the dtype (numpy has no type of its own)."""
    return dtype in ML_FLOATS or dtype in ML_INTEGERS


def value_kind(dtype: np.dtype) -> str:
    """numpy's kind letter, with `ml_dtypes`' floats as floats ('f') and their
    integers as integers ('i', 'u'), where numpy says void ('V')."""
    if dtype in ML_FLOATS:
        return "f"
    if dtype in ML_INTEGERS:
        return "u" if dtype.name.startswith("u") else "i"
    return dtype.kind


def from_void(array: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`array` as `dtype` when it holds `dtype`'s raw bytes in a plain void
    dtype of the same item size (an `ml_dtypes` array read from an `.npz`);
    otherwise `array` itself."""
    if (
        array.dtype.kind == "V"
        and array.dtype.fields is None
        and is_ml_dtype(dtype)
        and array.dtype.itemsize == dtype.itemsize
        and array.dtype != dtype
    ):
        return array.view(dtype)
    return array


def to_void(array: np.ndarray) -> np.ndarray:
    """An `ml_dtypes` array as the void array of its raw bytes, to save in an
    `.npz` that numpy reads back; any other array itself."""
    if is_ml_dtype(array.dtype):
        return np.ascontiguousarray(array).view(f"V{array.dtype.itemsize}")
    return array
