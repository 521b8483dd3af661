"""The `chlo` dialect: the "client HLO" ops JAX leaves in its StableHLO output.

Here are the ops JAX emits (unary special functions and trigonometry, `conj`,
`square`, `next_after`, the `is_inf` family and `top_k`) and those of
StableHLO's conformance suite (`mulhi`; `scan` and `ragged_dot` are in
`chlo_structured.py`). The `decompose` pass rewrites them
into stablehlo. The syntax is MLIR's chlo syntax:

    %10 = chlo.erfc %9 : tensor<4x128xf32> -> tensor<4x128xf32>
    %11 = chlo.is_inf %9 : tensor<4x128xf32> -> tensor<4x128xi1>
    %values, %indices = chlo.top_k(%arg0, k = 8) : tensor<256x1024xf32> -> (tensor<256x8xf32>, tensor<256x8xi32>)
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    ComplexType,
    IntegerAttr,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.chlo_structured import STRUCTURED_ATTRIBUTES, STRUCTURED_OPS
from xlir.dialects.stablehlo.types import element_type, is_float, is_integer, shape
from xlir.dialects.syntax import print_attr_dict, resolve_operands

_KIND_TEXT = {"float": "float", "complex": "complex", "integer": "integer"}


def _check_element_kinds(
    op_name: str, what: str, tensor: Attribute, kinds: tuple[str, ...]
) -> None:
    """Raise unless the element type of `tensor` is float (or complex, or
    integer, where `kinds` allows it)."""
    element = element_type(tensor)
    if is_float(element) and "float" in kinds:
        return
    if isinstance(element, ComplexType) and "complex" in kinds:
        return
    if is_integer(element) and "integer" in kinds:
        return
    expected = " or ".join(_KIND_TEXT[k] for k in kinds)
    raise VerifyException(
        f"'{op_name}' op {what} must have {expected} elements, but has {element}"
    )


class UnaryElementwiseOp(IRDLOperation):
    """`%r = chlo.op %x : T -> T'`: same shape; the result has the operand's
    element type unless the op is a predicate."""

    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float",)
    IS_PREDICATE: ClassVar[bool] = False
    """The result has i1 elements (is_inf and its kin)."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, result_type: Attribute | None = None):
        if result_type is None:
            assert isinstance(operand.type, TensorType)
            result_type = (
                TensorType(i1, operand.type.get_shape())
                if self.IS_PREDICATE
                else operand.type
            )
        super().__init__(operands=[operand], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> UnaryElementwiseOp:
        operand = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        value = parser.resolve_operand(operand, operand_type)
        op = cls.create(operands=[value], result_types=[result_type])
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        in_shape, out_shape = shape(self.operand.type), shape(self.result.type)
        if in_shape != out_shape:
            raise VerifyException(
                f"'{self.name}' op result shape {list(out_shape)} must equal the "
                f"operand shape {list(in_shape)}"
            )
        _check_element_kinds(
            self.name, "operand", self.operand.type, self.ELEMENT_KINDS
        )
        got = element_type(self.result.type)
        if self.IS_PREDICATE:
            if got != i1:
                raise VerifyException(
                    f"'{self.name}' op result must have i1 elements, but has {got}"
                )
        elif got != element_type(self.operand.type):
            raise VerifyException(
                f"'{self.name}' op result element type {got} must equal the "
                f"operand element type {element_type(self.operand.type)}"
            )


_FLOAT = ("float",)
_FLOAT_OR_COMPLEX = ("float", "complex")


@irdl_op_definition
class ErfOp(UnaryElementwiseOp):
    """The Gauss error function."""

    name = "chlo.erf"


@irdl_op_definition
class ErfcOp(UnaryElementwiseOp):
    """The complementary error function, 1 - erf(x)."""

    name = "chlo.erfc"


@irdl_op_definition
class ErfInvOp(UnaryElementwiseOp):
    """The inverse of erf."""

    name = "chlo.erf_inv"


@irdl_op_definition
class LgammaOp(UnaryElementwiseOp):
    """log |Γ(x)|."""

    name = "chlo.lgamma"


@irdl_op_definition
class DigammaOp(UnaryElementwiseOp):
    """ψ(x), the derivative of lgamma."""

    name = "chlo.digamma"


@irdl_op_definition
class BesselI1eOp(UnaryElementwiseOp):
    """The exponentially scaled modified Bessel function of order 1."""

    name = "chlo.bessel_i1e"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class AcosOp(UnaryElementwiseOp):
    """arccos(x)."""

    name = "chlo.acos"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class AcoshOp(UnaryElementwiseOp):
    """arcosh(x); NaN below 1."""

    name = "chlo.acosh"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class AsinOp(UnaryElementwiseOp):
    """arcsin(x)."""

    name = "chlo.asin"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class AsinhOp(UnaryElementwiseOp):
    """arsinh(x)."""

    name = "chlo.asinh"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class AtanOp(UnaryElementwiseOp):
    """arctan(x)."""

    name = "chlo.atan"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class AtanhOp(UnaryElementwiseOp):
    """artanh(x); NaN outside [-1, 1]."""

    name = "chlo.atanh"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class CoshOp(UnaryElementwiseOp):
    """cosh(x)."""

    name = "chlo.cosh"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class SinhOp(UnaryElementwiseOp):
    """sinh(x)."""

    name = "chlo.sinh"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class TanOp(UnaryElementwiseOp):
    """tan(x)."""

    name = "chlo.tan"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class ConjOp(UnaryElementwiseOp):
    """The complex conjugate; the identity on real numbers."""

    name = "chlo.conj"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_OR_COMPLEX


@irdl_op_definition
class IsInfOp(UnaryElementwiseOp):
    """True where x is +inf or -inf."""

    name = "chlo.is_inf"
    IS_PREDICATE: ClassVar[bool] = True


@irdl_op_definition
class IsNegInfOp(UnaryElementwiseOp):
    """True where x is -inf."""

    name = "chlo.is_neg_inf"
    IS_PREDICATE: ClassVar[bool] = True


@irdl_op_definition
class IsPosInfOp(UnaryElementwiseOp):
    """True where x is +inf."""

    name = "chlo.is_pos_inf"
    IS_PREDICATE: ClassVar[bool] = True


UNARY_OPS: list[type[UnaryElementwiseOp]] = [
    ErfOp, ErfcOp, ErfInvOp, LgammaOp, DigammaOp, BesselI1eOp, AcosOp, AcoshOp,
    AsinOp, AsinhOp, AtanOp, AtanhOp, CoshOp, SinhOp, TanOp, ConjOp, IsInfOp,
    IsNegInfOp, IsPosInfOp,
]  # fmt: skip


@irdl_op_definition
class TopKOp(IRDLOperation):
    """The `k` largest elements along the last dimension, in descending order,
    and their indices; among equal elements the lower index comes first.

    `%values, %indices = chlo.top_k(%x, k = 8) : tensor<4x16xf32> -> (tensor<4x8xf32>, tensor<4x8xi32>)`
    """

    name = "chlo.top_k"
    operand = operand_def(TensorType)
    k = prop_def(IntegerAttr[I64])
    values = result_def(TensorType)
    indices = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, k: int, index_type: Attribute = i32):
        assert isinstance(operand.type, TensorType)
        out_shape = (*operand.type.get_shape()[:-1], k)
        super().__init__(
            operands=[operand],
            result_types=[
                TensorType(operand.type.get_element_type(), out_shape),
                TensorType(index_type, out_shape),
            ],
            properties={"k": IntegerAttr(k, i64)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TopKOp:
        parser.parse_punctuation("(")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("k")
        parser.parse_punctuation("=")
        k = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        parser.parse_punctuation("->")
        parser.parse_punctuation("(")
        values_type = parser.parse_type()
        parser.parse_punctuation(",")
        indices_type = parser.parse_type()
        parser.parse_punctuation(")")
        value = parser.resolve_operand(operand, operand_type)
        op = cls.create(
            operands=[value],
            result_types=[values_type, indices_type],
            properties={"k": IntegerAttr(k, i64)},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.operand)
        printer.print_string(f", k = {self.k.value.data})")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> (")
        printer.print_attribute(self.values.type)
        printer.print_string(", ")
        printer.print_attribute(self.indices.type)
        printer.print_string(")")

    def verify_(self) -> None:
        k = self.k.value.data
        in_shape = shape(self.operand.type)
        if not in_shape:
            raise VerifyException(
                f"'{self.name}' op operand must have rank 1 or more, but has rank 0"
            )
        if k < 0:
            raise VerifyException(f"'{self.name}' op k must be non-negative, got {k}")
        if k > in_shape[-1]:
            raise VerifyException(
                f"'{self.name}' op k = {k} is larger than the last dimension "
                f"{in_shape[-1]} of the operand"
            )
        want = [*in_shape[:-1], k]
        for what, result in (("values", self.values), ("indices", self.indices)):
            got = list(shape(result.type))
            if got != want:
                raise VerifyException(
                    f"'{self.name}' op {what} shape {got} must be the operand shape "
                    f"without its last dimension, then k: {want}"
                )
        values_element = element_type(self.values.type)
        if values_element != element_type(self.operand.type):
            raise VerifyException(
                f"'{self.name}' op values element type {values_element} must equal "
                f"the operand element type {element_type(self.operand.type)}"
            )
        index_element = element_type(self.indices.type)
        if not is_integer(index_element):
            raise VerifyException(
                f"'{self.name}' op indices must have integer elements, but have "
                f"{index_element}"
            )


@irdl_op_definition
class SquareOp(UnaryElementwiseOp):
    """x * x."""

    name = "chlo.square"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float", "complex", "integer")


class BinaryElementwiseOp(IRDLOperation):
    """`%r = chlo.op %a, %b : Ta, Tb -> T`: operands and result of one type."""

    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float",)

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])

    @classmethod
    def parse(cls, parser: Parser) -> BinaryElementwiseOp:
        pos = parser.pos
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_type = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        values = resolve_operands(parser, [lhs, rhs], [lhs_type, rhs_type], pos)
        op = cls.create(operands=list(values), result_types=[result_type])
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(", ")
        printer.print_attribute(self.rhs.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not self.lhs.type == self.rhs.type == self.result.type:
            raise VerifyException(
                f"'{self.name}' op operands and result must have one type, but have "
                f"{self.lhs.type}, {self.rhs.type} and {self.result.type}"
            )
        _check_element_kinds(self.name, "operand", self.lhs.type, self.ELEMENT_KINDS)


@irdl_op_definition
class MulhiOp(BinaryElementwiseOp):
    """The high half of the double-width product of two integers."""

    name = "chlo.mulhi"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("integer",)


@irdl_op_definition
class NextAfterOp(BinaryElementwiseOp):
    """The next representable float after x in the direction of y."""

    name = "chlo.next_after"


CHLO_OPS: list[type[IRDLOperation]] = [
    *UNARY_OPS,
    SquareOp,
    MulhiOp,
    NextAfterOp,
    TopKOp,
    *STRUCTURED_OPS,
]

Chlo = Dialect("chlo", [*CHLO_OPS], STRUCTURED_ATTRIBUTES)
"""The chlo dialect."""
