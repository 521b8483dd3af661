"""Element types, once for every layer: their widths in bits and bytes.

`bit_width` and `byte_width` give an element's size; `index` is `INDEX_BITS`
wide and `i1` (and `i2`, `i4`) takes a byte of memory. A type whose values
are held as another's (a quantized type's integers) says so by deriving from
`StoredType`, so that this module, below the dialects, sizes it without
importing its dialect. The host dtypes of the types are in
`xlir/element_dtypes.py`: parsing and printing IR, which need the widths
only, do not import numpy.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable
from typing import Any, TypeGuard

from xdsl.dialects.builtin import AnyFloat, ComplexType, IndexType, IntegerType
from xdsl.ir import Attribute


class StoredType(ABC):
    """An element type whose values are held as elements of its
    `storage_type` (`quant.uniform`'s integers): widths and dtypes are its
    storage type's. A base class of such a type's attribute definition."""

    __slots__ = ()
    storage_type: Attribute


INDEX_BITS = 64
"""The width of `index`. MLIR leaves it to the target; every host xlir runs
on is 64-bit, the CPU lowering makes index an `i64` and the evaluator holds it
in int64, so an index takes 8 bytes in memory like an `i64`."""


def bit_width(element: Attribute) -> int | None:
    """Bits of one element of an integer, index, float or complex type (a
    quantized type's: its storage integer's), else None."""
    rule = _width_rules.get(type(element))
    if rule is None:
        rule = _width_rules[type(element)] = _width_rule(type(element))
    return rule(element)


def _width_rule(kind: type) -> Callable[[Any], int | None]:
    """How `bit_width` sizes an element of class `kind`, chosen once per
    class: the widths of a program's few types are asked for thousands of
    times, and each `isinstance` against xDSL's ABCs (`AnyFloat` is a union
    of a dozen) costs a Python call."""
    if issubclass(kind, StoredType):
        return lambda element: bit_width(element.storage_type)
    if issubclass(kind, IntegerType):
        return lambda element: element.width.data
    if issubclass(kind, IndexType):
        return lambda element: INDEX_BITS
    if issubclass(kind, AnyFloat):
        return lambda element: element.bitwidth
    if issubclass(kind, ComplexType):
        return _complex_bits
    return lambda element: None


def _complex_bits(element: ComplexType) -> int | None:
    part = bit_width(element.element_type)
    return None if part is None else 2 * part


_width_rules: dict[type, Callable[[Any], int | None]] = {}


def is_float(element: Attribute) -> TypeGuard[AnyFloat]:
    """`isinstance(element, AnyFloat)`, answered once per class: `AnyFloat`
    is a union of a dozen ABCs, and `isinstance` against it makes a Python
    call through `ABCMeta` for each member it tries (all of them for an
    integer type). Lowerings ask it of a kernel's scalar types over and
    over."""
    kind = type(element)
    known = _float_classes.get(kind)
    if known is None:
        known = _float_classes[kind] = issubclass(kind, AnyFloat)
    return known


_float_classes: dict[type, bool] = {}


def byte_width(element: Attribute) -> int | None:
    """Bytes of one element in memory, or None for a type without a size:
    a type narrower than a byte (i1, i4, f4E2M1FN) takes a whole byte, and a
    complex number two of its part."""
    if isinstance(element, ComplexType):
        part = byte_width(element.element_type)
        return None if part is None else 2 * part
    bits = bit_width(element)
    return None if bits is None else (bits + 7) // 8
