"""Elementwise StableHLO ops: unary and binary math, compare, select, clamp,
convert, bitcast_convert, is_finite, real, imag, complex, reduce_precision.

Unary and binary ops print as `stablehlo.add %a, %b : T` when every operand and
the result share one type, and with a function type otherwise.
"""

from __future__ import annotations

import re
from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    ComplexType,
    Float32Type,
    Float64Type,
    IntegerAttr,
    TensorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
)
from xlir.dialects.stablehlo.shape_rules import shape_text
from xlir.dialects.stablehlo.types import (
    baseline_element,
    check_element_kinds,
    element_type,
    is_bool,
    is_float,
    is_signed_integer,
    is_unsigned,
    shape,
)
from xlir.dialects.syntax import (
    parse_function_type_tail,
    parse_operand_list,
    parse_trailing_types,
    print_attr_dict,
    print_function_type,
    print_operands,
    print_trailing_types,
    resolve_operands,
)

from xlir.element_types import bit_width


def _check_same_shape(op: Operation) -> None:
    """Every operand and result has the result's shape."""
    want = shape(op.results[0].type)
    for i, operand in enumerate(op.operands):
        if shape(operand.type) != want:
            raise VerifyException(
                f"'{op.name}' op operand #{i} has shape "
                f"{shape_text(shape(operand.type))} but the result has shape "
                f"{shape_text(want)}; elementwise operands must "
                "match the result's shape"
            )


def _check_same_element_type(op: Operation) -> None:
    """Every operand has the result's element type (quantized types: the same
    storage and expressed types)."""
    want = baseline_element(element_type(op.results[0].type))
    for i, operand in enumerate(op.operands):
        if baseline_element(element_type(operand.type)) != want:
            raise VerifyException(
                f"'{op.name}' op operand #{i} has element type "
                f"{element_type(operand.type)} but the result has {want}"
            )


class _ElementwiseOp(IRDLOperation):
    """Shared syntax and checks: `%r = op %a, %b : T`."""

    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = ("float", "integer", "bool")
    PRINT_FUNCTIONAL: ClassVar[bool] = False
    """Always print a function type, even when all types are equal."""
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> _ElementwiseOp:
        pos = parser.pos
        operands = parse_operand_list(parser)
        attributes = parser.parse_optional_attr_dict()
        operand_types, result_types = parse_trailing_types(parser, len(operands))
        values = resolve_operands(parser, operands, operand_types, pos)
        op = cls.create(operands=values, result_types=result_types)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        print_attr_dict(printer, self.attributes)
        if self.PRINT_FUNCTIONAL:
            printer.print_string(" : ")
            print_function_type(printer, self.operand_types, self.result_types)
        else:
            print_trailing_types(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        _check_same_shape(self)
        _check_same_element_type(self)
        check_element_kinds(
            self.name, "operand", self.operands[0].type, self.ELEMENT_KINDS
        )


class UnaryElementwiseOp(_ElementwiseOp):
    operand = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(self, operand: SSAValue, result_type: Attribute | None = None):
        super().__init__(
            operands=[operand],
            result_types=[result_type if result_type is not None else operand.type],
        )


class BinaryElementwiseOp(_ElementwiseOp):
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(
        self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute | None = None
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type if result_type is not None else lhs.type],
        )


_FLOAT = ("float",)
_FLOAT_COMPLEX = ("float", "complex")
_NUMERIC = ("float", "integer", "complex")
_SIGNED_NUMERIC = ("float", "signed", "complex")
_ANY = ("float", "integer", "bool", "complex")
_INT = ("integer",)
_LOGICAL = ("integer", "bool")


@irdl_op_definition
class AbsOp(UnaryElementwiseOp):
    """|x|; for the most negative integer, itself."""

    name = "stablehlo.abs"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _SIGNED_NUMERIC

    def verify_(self) -> None:
        _check_same_shape(self)
        check_element_kinds(self.name, "operand", self.operand.type, self.ELEMENT_KINDS)
        operand = element_type(self.operand.type)
        want = operand.element_type if isinstance(operand, ComplexType) else operand
        if element_type(self.result.type) != want:
            raise VerifyException(
                f"'{self.name}' op result must have {want} elements for a "
                f"{operand} operand, but has {element_type(self.result.type)}"
            )


@irdl_op_definition
class CbrtOp(UnaryElementwiseOp):
    """Cube root."""

    name = "stablehlo.cbrt"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class CeilOp(UnaryElementwiseOp):
    """Round toward +inf."""

    name = "stablehlo.ceil"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT


@irdl_op_definition
class CosineOp(UnaryElementwiseOp):
    """cos(x)."""

    name = "stablehlo.cosine"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class CountLeadingZerosOp(UnaryElementwiseOp):
    """Leading zero bits."""

    name = "stablehlo.count_leading_zeros"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _INT


@irdl_op_definition
class ExponentialOp(UnaryElementwiseOp):
    """e^x."""

    name = "stablehlo.exponential"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class ExponentialMinusOneOp(UnaryElementwiseOp):
    """e^x - 1."""

    name = "stablehlo.exponential_minus_one"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class FloorOp(UnaryElementwiseOp):
    """Round toward -inf."""

    name = "stablehlo.floor"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT


@irdl_op_definition
class LogOp(UnaryElementwiseOp):
    """Natural logarithm."""

    name = "stablehlo.log"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class LogPlusOneOp(UnaryElementwiseOp):
    """log(1 + x)."""

    name = "stablehlo.log_plus_one"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class LogisticOp(UnaryElementwiseOp):
    """1 / (1 + e^-x)."""

    name = "stablehlo.logistic"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class NegateOp(UnaryElementwiseOp):
    """-x; integers wrap around."""

    name = "stablehlo.negate"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class NotOp(UnaryElementwiseOp):
    """Bitwise or logical not."""

    name = "stablehlo.not"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _LOGICAL


@irdl_op_definition
class PopcntOp(UnaryElementwiseOp):
    """Number of set bits."""

    name = "stablehlo.popcnt"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _INT


@irdl_op_definition
class RoundNearestAfzOp(UnaryElementwiseOp):
    """Round half away from zero."""

    name = "stablehlo.round_nearest_afz"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT


@irdl_op_definition
class RoundNearestEvenOp(UnaryElementwiseOp):
    """Round half to even."""

    name = "stablehlo.round_nearest_even"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT


@irdl_op_definition
class RsqrtOp(UnaryElementwiseOp):
    """1 / sqrt(x)."""

    name = "stablehlo.rsqrt"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class SignOp(UnaryElementwiseOp):
    """-1, 0 or 1 (NaN stays NaN, -0.0 stays -0.0)."""

    name = "stablehlo.sign"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _SIGNED_NUMERIC


@irdl_op_definition
class SineOp(UnaryElementwiseOp):
    """sin(x)."""

    name = "stablehlo.sine"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class SqrtOp(UnaryElementwiseOp):
    """Square root."""

    name = "stablehlo.sqrt"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class TanOp(UnaryElementwiseOp):
    """tan(x)."""

    name = "stablehlo.tan"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class TanhOp(UnaryElementwiseOp):
    """Hyperbolic tangent."""

    name = "stablehlo.tanh"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class AddOp(BinaryElementwiseOp):
    """a + b (logical or for i1)."""

    name = "stablehlo.add"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _ANY


@irdl_op_definition
class Atan2Op(BinaryElementwiseOp):
    """atan2(a, b)."""

    name = "stablehlo.atan2"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX


@irdl_op_definition
class DivideOp(BinaryElementwiseOp):
    """a / b; integer division truncates."""

    name = "stablehlo.divide"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class MaximumOp(BinaryElementwiseOp):
    """max(a, b), NaN wins."""

    name = "stablehlo.maximum"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _ANY


@irdl_op_definition
class MinimumOp(BinaryElementwiseOp):
    """min(a, b), NaN wins."""

    name = "stablehlo.minimum"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _ANY


@irdl_op_definition
class MultiplyOp(BinaryElementwiseOp):
    """a * b (and for i1)."""

    name = "stablehlo.multiply"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _ANY


@irdl_op_definition
class PowerOp(BinaryElementwiseOp):
    """a ** b."""

    name = "stablehlo.power"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class RemainderOp(BinaryElementwiseOp):
    """a - b * trunc(a / b)."""

    name = "stablehlo.remainder"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class ShiftLeftOp(BinaryElementwiseOp):
    """a << b; 0 when b >= bit width."""

    name = "stablehlo.shift_left"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _INT


@irdl_op_definition
class ShiftRightArithmeticOp(BinaryElementwiseOp):
    """Sign-filling a >> b."""

    name = "stablehlo.shift_right_arithmetic"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _INT


@irdl_op_definition
class ShiftRightLogicalOp(BinaryElementwiseOp):
    """Zero-filling a >> b."""

    name = "stablehlo.shift_right_logical"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _INT


@irdl_op_definition
class SubtractOp(BinaryElementwiseOp):
    """a - b."""

    name = "stablehlo.subtract"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _NUMERIC


@irdl_op_definition
class AndOp(BinaryElementwiseOp):
    """Bitwise or logical and."""

    name = "stablehlo.and"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _LOGICAL


@irdl_op_definition
class OrOp(BinaryElementwiseOp):
    """Bitwise or logical or."""

    name = "stablehlo.or"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _LOGICAL


@irdl_op_definition
class XorOp(BinaryElementwiseOp):
    """Bitwise or logical xor."""

    name = "stablehlo.xor"
    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _LOGICAL


UNARY_OPS: list[type[UnaryElementwiseOp]] = [
    AbsOp, CbrtOp, CeilOp, CosineOp, CountLeadingZerosOp, ExponentialOp,
    ExponentialMinusOneOp, FloorOp, LogOp, LogPlusOneOp, LogisticOp, NegateOp,
    NotOp, PopcntOp, RoundNearestAfzOp, RoundNearestEvenOp, RsqrtOp, SignOp,
    SineOp, SqrtOp, TanOp, TanhOp,
]  # fmt: skip

BINARY_OPS: list[type[BinaryElementwiseOp]] = [
    AddOp, Atan2Op, DivideOp, MaximumOp, MinimumOp, MultiplyOp, PowerOp,
    RemainderOp, ShiftLeftOp, ShiftRightArithmeticOp, ShiftRightLogicalOp,
    SubtractOp, AndOp, OrOp, XorOp,
]  # fmt: skip


@irdl_op_definition
class ConvertOp(_ElementwiseOp):
    """Element type conversion: floats round to nearest even, float→int
    truncates toward zero, int→i1 is `!= 0`."""

    name = "stablehlo.convert"
    operand = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    def verify_(self) -> None:
        _check_same_shape(self)


@irdl_op_definition
class IsFiniteOp(_ElementwiseOp):
    """True where x is neither infinite nor NaN."""

    name = "stablehlo.is_finite"
    x = operand_def(TensorType)
    y = result_def(TensorType)
    PRINT_FUNCTIONAL: ClassVar[bool] = True

    def __init__(self, x: SSAValue):
        assert isinstance(x.type, TensorType)
        super().__init__(
            operands=[x], result_types=[TensorType(i1, x.type.get_shape())]
        )

    def verify_(self) -> None:
        _check_same_shape(self)
        check_element_kinds(self.name, "operand", self.x.type, _FLOAT)
        if element_type(self.y.type) != i1:
            raise VerifyException(
                f"'{self.name}' op result must have i1 elements, but has "
                f"{element_type(self.y.type)}"
            )


@irdl_op_definition
class BitcastConvertOp(_ElementwiseOp):
    """Reinterpret the bits of each element as another type of the same width
    (or split/merge into a trailing dimension when widths differ)."""

    name = "stablehlo.bitcast_convert"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    PRINT_FUNCTIONAL: ClassVar[bool] = True

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    def verify_(self) -> None:
        src, dst = element_type(self.operand.type), element_type(self.result.type)
        src_bits, dst_bits = bit_width(src), bit_width(dst)
        in_shape, out_shape = shape(self.operand.type), shape(self.result.type)
        if src_bits is None or dst_bits is None:
            ok = False
        elif src_bits == dst_bits:
            ok = in_shape == out_shape
        elif src_bits > dst_bits:
            ok = out_shape == (*in_shape, src_bits // dst_bits)
        else:
            ok = in_shape == (*out_shape, dst_bits // src_bits)
        if not ok:
            raise VerifyException(
                f"'{self.name}' op cannot bitcast {self.operand.type} to "
                f"{self.result.type}: equal bit widths need equal shapes, and a "
                "width change needs a trailing dimension of the width ratio"
            )


@irdl_op_definition
class CompareOp(IRDLOperation):
    """`stablehlo.compare LT, %a, %b, FLOAT : (T, T) -> T'`."""

    name = "stablehlo.compare"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    comparison_direction = prop_def(ComparisonDirectionAttr)
    compare_type = opt_prop_def(ComparisonTypeAttr)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        direction: ComparisonDirection,
        compare_type: ComparisonType | None = None,
    ):
        assert isinstance(lhs.type, TensorType)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[TensorType(i1, lhs.type.get_shape())],
            properties={
                "comparison_direction": ComparisonDirectionAttr(direction),
                "compare_type": ComparisonTypeAttr(compare_type)
                if compare_type is not None
                else None,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> CompareOp:
        direction = parser.parse_str_enum(ComparisonDirection)
        parser.parse_punctuation(",")
        pos = parser.pos
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        compare_type = None
        if parser.parse_optional_punctuation(",") is not None:
            compare_type = parser.parse_str_enum(ComparisonType)
        attributes = parser.parse_optional_attr_dict()
        operand_types, result_types = parse_trailing_types(parser, 2)
        values = resolve_operands(parser, [lhs, rhs], operand_types, pos)
        op = cls.create(
            operands=values,
            result_types=result_types,
            properties={"comparison_direction": ComparisonDirectionAttr(direction)}
            | (
                {"compare_type": ComparisonTypeAttr(compare_type)}
                if compare_type is not None
                else {}
            ),
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.comparison_direction.data.value}, ")
        print_operands(printer, self.operands)
        if self.compare_type is not None:
            printer.print_string(f", {self.compare_type.data.value}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException(
                f"'{self.name}' op operands must have the same type, but got "
                f"{self.lhs.type} and {self.rhs.type}"
            )
        _check_same_shape(self)
        if element_type(self.result.type) != i1:
            raise VerifyException(
                f"'{self.name}' op result must have i1 elements, but has "
                f"{element_type(self.result.type)}"
            )
        if self.compare_type is not None:
            _check_compare_type(self, self.compare_type.data)


def _compare_types(element: Attribute) -> tuple[ComparisonType, ...] | None:
    """The compare types the spec allows on `element` (compare's C3): SIGNED
    for signed integers, UNSIGNED for unsigned ones and booleans, FLOAT or
    TOTALORDER for floats and complex numbers (TOTALORDER on complex, each
    part by totalOrder, is an xlir extension); None (any) for quantized
    types. Integer compares follow the element type on XLA, so a type
    that disagrees would give another answer here than there."""
    if is_float(element) or isinstance(element, ComplexType):
        return (ComparisonType.FLOAT, ComparisonType.TOTALORDER)
    if is_signed_integer(element):
        return (ComparisonType.SIGNED,)
    if is_unsigned(element) or is_bool(element):
        return (ComparisonType.UNSIGNED,)
    return None


def _check_compare_type(op: CompareOp, kind: ComparisonType) -> None:
    element = element_type(op.lhs.type)
    allowed = _compare_types(element)
    if allowed is not None and kind not in allowed:
        raise VerifyException(
            f"'{op.name}' op compare type {kind.value} does not suit {element} "
            f"elements, which take {' or '.join(k.value for k in allowed)}"
        )


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`pred ? on_true : on_false`, elementwise or with a scalar predicate.

    Prints `: pred_type, value_type`, as StableHLO does."""

    name = "stablehlo.select"
    pred = operand_def(TensorType)
    on_true = operand_def(TensorType)
    on_false = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, pred: SSAValue, on_true: SSAValue, on_false: SSAValue):
        super().__init__(
            operands=[pred, on_true, on_false], result_types=[on_true.type]
        )

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        pos = parser.pos
        operands = parse_operand_list(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
            operand_types, result_types = parse_function_type_tail(parser)
        else:
            pred_type = parser.parse_type()
            parser.parse_punctuation(",")
            value_type = parser.parse_type()
            operand_types = [pred_type, value_type, value_type]
            result_types = [value_type]
        values = resolve_operands(parser, operands, operand_types, pos)
        op = cls.create(operands=values, result_types=result_types)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        print_attr_dict(printer, self.attributes)
        value_types = {self.on_true.type, self.on_false.type, self.result.type}
        if len(value_types) == 1:
            printer.print_string(" : ")
            printer.print_attribute(self.pred.type)
            printer.print_string(", ")
            printer.print_attribute(self.result.type)
        else:
            printer.print_string(" : ")
            print_function_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        if (
            self.on_true.type != self.on_false.type
            or self.on_true.type != self.result.type
        ):
            raise VerifyException(
                f"'{self.name}' op on_true, on_false and result must have the same "
                f"type, but got {self.on_true.type}, {self.on_false.type} and "
                f"{self.result.type}"
            )
        if element_type(self.pred.type) != i1:
            raise VerifyException(
                f"'{self.name}' op predicate must have i1 elements, but has "
                f"{element_type(self.pred.type)}"
            )
        pred_shape = shape(self.pred.type)
        if pred_shape and pred_shape != shape(self.result.type):
            raise VerifyException(
                f"'{self.name}' op predicate shape {list(pred_shape)} must be rank 0 "
                f"or equal the result shape {list(shape(self.result.type))}"
            )


@irdl_op_definition
class ClampOp(_ElementwiseOp):
    """`min(max(operand, min), max)`; bounds may be rank 0."""

    name = "stablehlo.clamp"
    min = operand_def(TensorType)
    operand = operand_def(TensorType)
    max = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(self, min: SSAValue, operand: SSAValue, max: SSAValue):
        super().__init__(operands=[min, operand, max], result_types=[operand.type])

    def verify_(self) -> None:
        _check_same_element_type(self)
        want = shape(self.operand.type)
        if shape(self.result.type) != want:
            raise VerifyException(
                f"'{self.name}' op result shape {list(shape(self.result.type))} must "
                f"equal the operand shape {list(want)}"
            )
        for what, bound in (("min", self.min), ("max", self.max)):
            got = shape(bound.type)
            if got and got != want:
                raise VerifyException(
                    f"'{self.name}' op {what} shape {list(got)} must be rank 0 or "
                    f"equal the operand shape {list(want)}"
                )


def _part_type(element: Attribute) -> Attribute:
    """The float type of a complex type's parts (a float type is its own)."""
    return element.element_type if isinstance(element, ComplexType) else element


class _PartOp(UnaryElementwiseOp):
    """real and imag: a float or complex operand, its part type's result."""

    ELEMENT_KINDS: ClassVar[tuple[str, ...]] = _FLOAT_COMPLEX

    def verify_(self) -> None:
        _check_same_shape(self)
        check_element_kinds(self.name, "operand", self.operand.type, self.ELEMENT_KINDS)
        want = _part_type(element_type(self.operand.type))
        if element_type(self.result.type) != want:
            raise VerifyException(
                f"'{self.name}' op result must have {want} elements, but has "
                f"{element_type(self.result.type)}"
            )


@irdl_op_definition
class RealOp(_PartOp):
    """The real part (a float operand is its own real part)."""

    name = "stablehlo.real"


@irdl_op_definition
class ImagOp(_PartOp):
    """The imaginary part (zero for a float operand)."""

    name = "stablehlo.imag"


@irdl_op_definition
class ComplexOp(BinaryElementwiseOp):
    """`stablehlo.complex %re, %im : tensor<complex<f64>>`: the complex numbers
    with these parts. The short form names the result type only."""

    name = "stablehlo.complex"
    PRINT_FUNCTIONAL: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser) -> ComplexOp:
        pos = parser.pos
        operands = parse_operand_list(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
            operand_types, result_types = parse_function_type_tail(parser)
        else:
            type_pos = parser.pos
            result = parser.parse_type()
            element = element_type(result) if isinstance(result, TensorType) else None
            if not isinstance(element, ComplexType):
                parser.raise_error(
                    f"expected a tensor of complex elements, found {result}", type_pos
                )
            assert isinstance(result, TensorType)
            part = TensorType(element.element_type, result.get_shape())
            operand_types, result_types = [part, part], [result]
        values = resolve_operands(parser, operands, operand_types, pos)
        op = cls.create(operands=list(values), result_types=list(result_types))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        if self.lhs.type == self.rhs.type:
            printer.print_attribute(self.result.type)
        else:
            print_function_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        _check_same_shape(self)
        part = element_type(self.lhs.type)
        if element_type(self.rhs.type) != part or not isinstance(
            part, Float32Type | Float64Type
        ):
            raise VerifyException(
                f"'{self.name}' op operands must both have f32 or both f64 elements, "
                f"but have {part} and {element_type(self.rhs.type)}"
            )
        if element_type(self.result.type) != ComplexType(part):
            raise VerifyException(
                f"'{self.name}' op result must have complex<{part}> elements, but "
                f"has {element_type(self.result.type)}"
            )


@irdl_op_definition
class ReducePrecisionOp(IRDLOperation):
    """`stablehlo.reduce_precision %x, format = e5m10 : T`: rounds each
    element to a float format with that many exponent and mantissa bits,
    kept in the operand's type."""

    name = "stablehlo.reduce_precision"
    operand = operand_def(TensorType)
    output = result_def(TensorType)
    exponent_bits = prop_def(IntegerAttr[I32])
    mantissa_bits = prop_def(IntegerAttr[I32])
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ReducePrecisionOp:
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_characters("format")
        parser.parse_punctuation("=")
        format_pos = parser.pos
        spelling = parser.parse_identifier(" (a format such as e5m10)")
        match = re.fullmatch(r"e(\d+)m(\d+)", spelling)
        if match is None:
            parser.raise_error(
                f"expected a format eXmY (such as e5m10), found '{spelling}'",
                format_pos,
            )
        attributes = parser.parse_optional_attr_dict()
        operand_types, result_types = parse_trailing_types(parser, 1)
        values = resolve_operands(parser, [operand], operand_types, pos)
        op = cls.create(
            operands=list(values),
            result_types=list(result_types),
            properties={
                "exponent_bits": IntegerAttr(int(match.group(1)), i32),
                "mantissa_bits": IntegerAttr(int(match.group(2)), i32),
            },
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        exponent, mantissa = (
            self.exponent_bits.value.data,
            self.mantissa_bits.value.data,
        )
        printer.print_string(f", format = e{exponent}m{mantissa}")
        print_attr_dict(printer, self.attributes)
        print_trailing_types(printer, [self.operand.type], [self.output.type])

    def verify_(self) -> None:
        if self.operand.type != self.output.type:
            raise VerifyException(
                f"'{self.name}' op result type {self.output.type} must equal the "
                f"operand type {self.operand.type}"
            )
        check_element_kinds(self.name, "operand", self.operand.type, _FLOAT)
        if self.exponent_bits.value.data < 1:
            raise VerifyException(
                f"'{self.name}' op needs at least 1 exponent bit, but has "
                f"{self.exponent_bits.value.data}"
            )
        if self.mantissa_bits.value.data < 0:
            raise VerifyException(
                f"'{self.name}' op needs a non-negative number of mantissa bits, "
                f"but has {self.mantissa_bits.value.data}"
            )


ELEMENTWISE_OPS: list[type[IRDLOperation]] = [
    RealOp,
    ImagOp,
    ComplexOp,
    ReducePrecisionOp,
    *UNARY_OPS,
    *BINARY_OPS,
    ConvertOp,
    IsFiniteOp,
    BitcastConvertOp,
    CompareOp,
    SelectOp,
    ClampOp,
]
