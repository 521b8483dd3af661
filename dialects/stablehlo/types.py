"""Element-type classes of StableHLO and the checks ops share.

StableHLO distinguishes booleans (i1), signed and unsigned integers (signless
`iN` counts as signed, as in StableHLO), and floats. Verifiers ask these
questions by name rather than by isinstance chains.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    ComplexType,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.quant import UniformQuantizedType

from xlir.element_types import is_float


def element_type(tensor: Attribute) -> Attribute:
    assert isinstance(tensor, TensorType)
    return tensor.get_element_type()


def shape(tensor: Attribute) -> tuple[int, ...]:
    assert isinstance(tensor, TensorType)
    return tensor.get_shape()


def is_bool(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


def is_integer(t: Attribute) -> bool:
    """Any integer type except i1."""
    return isinstance(t, IntegerType) and t.width.data != 1


def is_unsigned(t: Attribute) -> bool:
    return (
        isinstance(t, IntegerType)
        and t.width.data != 1
        and t.signedness.data == Signedness.UNSIGNED
    )


def is_signed_integer(t: Attribute) -> bool:
    return is_integer(t) and not is_unsigned(t)


def is_complex(t: Attribute) -> bool:
    return isinstance(t, ComplexType)


def is_quantized(t: Attribute) -> bool:
    """By exact class (`quant.uniform` has no subclasses): verifiers ask it
    of every operand, and a failing `isinstance` goes through `ABCMeta`."""
    return type(t) is UniformQuantizedType


def baseline_element(t: Attribute) -> Attribute:
    """The element type with a quantized type's scales and zero points
    dropped (its storage and expressed types kept), as the spec compares
    quantized operands."""
    if type(t) is UniformQuantizedType:
        return UniformQuantizedType.get(t.storage_type, t.expressed_type, [1.0], [0])
    return t


ELEMENT_KINDS = {
    "float": is_float,
    "integer": is_integer,
    "signed": is_signed_integer,
    "bool": is_bool,
    "complex": is_complex,
}


def check_element_kinds(
    op_name: str, what: str, tensor: Attribute, kinds: tuple[str, ...]
) -> None:
    """Raise unless the element type of `tensor` belongs to one of `kinds`."""
    element = element_type(tensor)
    if any(ELEMENT_KINDS[k](element) for k in kinds):
        return
    if is_quantized(element) and "float" in kinds:  # quantized floats
        return
    expected = " or ".join(
        {
            "float": "float",
            "integer": "integer",
            "signed": "signed integer",
            "bool": "boolean (i1)",
            "complex": "complex",
        }[k]
        for k in kinds
    )
    raise VerifyException(
        f"'{op_name}' op {what} must have {expected} elements, but has {element}"
    )
