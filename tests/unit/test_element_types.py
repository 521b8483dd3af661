"""The element types (xlir/element_types.py: sizes in bits and bytes, and
`index`'s width, which the CPU lowering and the evaluator must share) and
their host dtypes (xlir/element_dtypes.py: those that compute and that cross
the API)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ComplexType,
    Float8E4M3FNType,
    Float8E5M2FNUZType,
    IndexType,
    IntegerType,
    ModuleOp,
    NoneType,
    Signedness,
    VectorType,
    f16,
    f32,
    f64,
    i1,
    i8,
    i64,
)
from xlir.dialects.quant import UniformQuantizedType
from xlir.lowering.llvm.function import llvm_type

from xlir.element_dtypes import array_dtype, element_dtype
from xlir.element_types import INDEX_BITS, bit_width, byte_width, is_float

I4 = IntegerType(4)
UI4 = IntegerType(4, Signedness.UNSIGNED)


@pytest.mark.parametrize(
    ("element", "bits", "size"),
    [
        (i1, 1, 1),
        (I4, 4, 1),
        (i8, 8, 1),
        (f16, 16, 2),
        (BFloat16Type(), 16, 2),
        (Float8E4M3FNType(), 8, 1),
        (f32, 32, 4),
        (i64, 64, 8),
        (IndexType(), 64, 8),
        (ComplexType(f32), 64, 8),
        (ComplexType(f64), 128, 16),
        (NoneType(), None, None),
    ],
)
def test_sizes(element, bits, size) -> None:
    assert bit_width(element) == bits
    assert byte_width(element) == size


@pytest.mark.parametrize(
    "element",
    [
        f16,
        f32,
        f64,
        BFloat16Type(),
        Float8E4M3FNType(),
        Float8E5M2FNUZType(),
        i1,
        I4,
        UI4,
        IndexType(),
        ComplexType(f32),
        VectorType(f32, [4]),
        NoneType(),
        UniformQuantizedType.get(i8, f32, [0.5], [0]),
    ],
)
def test_is_float_is_isinstance_of_any_float(element) -> None:
    """Asked twice: the second answer is the remembered one."""
    assert is_float(element) == isinstance(element, AnyFloat)
    assert is_float(element) == isinstance(element, AnyFloat)


@pytest.mark.parametrize(
    ("element", "computed", "api"),
    [
        (i1, np.bool_, np.bool_),
        (BFloat16Type(), np.float32, ml_dtypes.bfloat16),
        (UI4, None, ml_dtypes.uint4),
        (IndexType(), np.int64, np.int64),
        (ComplexType(f32), np.complex64, np.complex64),
        (NoneType(), None, None),
    ],
)
def test_dtypes(element, computed, api) -> None:
    assert element_dtype(element) == (None if computed is None else np.dtype(computed))
    assert array_dtype(element) == (None if api is None else np.dtype(api))


def test_index_is_as_wide_everywhere() -> None:
    """The evaluator's int64, the API's dtype and the CPU lowering's integer
    all have `INDEX_BITS`."""
    index = IndexType()
    computed, api = element_dtype(index), array_dtype(index)
    assert computed is not None and api is not None
    assert computed.itemsize * 8 == api.itemsize * 8 == INDEX_BITS
    lowered = llvm_type(index, ModuleOp([]))
    assert isinstance(lowered, IntegerType) and lowered.width.data == INDEX_BITS


@pytest.mark.parametrize(
    ("storage", "dtype"),
    [
        (i8, np.int8),
        (IntegerType(16, Signedness.UNSIGNED), np.uint16),
        (UI4, ml_dtypes.uint4),
    ],
)
def test_a_quantized_type_is_sized_as_its_storage(storage, dtype) -> None:
    """`quant.uniform` derives from `StoredType`, so this module sizes it
    without importing the quant dialect."""
    from xlir.dialects.quant import UniformQuantizedType

    quantized = UniformQuantizedType.get(storage, f32, [0.5], [0])
    assert bit_width(quantized) == storage.width.data
    assert byte_width(quantized) == (storage.width.data + 7) // 8
    assert array_dtype(quantized) == np.dtype(dtype)
