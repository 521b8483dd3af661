"""The `check` dialect: the assertions of StableHLO's interpreter tests, so that
self-checking test files run on every target. The syntax is StableHLO's:

    check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi32>
    check.expect_almost_eq_const %0, dense<5.1> : tensor<f64>
    check.expect_almost_eq_const %0, dense<5.1> : tensor<f64>, tolerance = 1.000000e-01
    check.expect_eq %a, %b : tensor<3xi64>
    check.expect_almost_eq %a, %b : tensor<f64>
    check.expect_almost_eq %a, %b, tolerance = 1.000000e-01 : tensor<f64>
    check.expect_close %a, %b, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
    check.expect_close %a, %b, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<f16>, tensor<f16>
    check.expect_serialized_eq %a, probe_id = "sum", iter = 1 : tensor<i64>

The `_const` forms take the operand's type from the constant. `tolerance` may
also be given in the attribute dictionary (`{tolerance = 0.1 : f64}`), as
upstream tests do; it is an absolute tolerance and defaults to 1e-4.
`expect_close` compares in units in the last place: `min_ulp_difference <=
ulp_distance(actual, expected) <= max_ulp_difference`. `expect_serialized_eq`
compares with a value an `interpreter.probe` recorded (dialects/interpreter.py).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    f64,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.stablehlo.types import element_type, is_float
from xlir.dialects.syntax import print_attr_dict

DEFAULT_TOLERANCE = 1e-4
"""The tolerance of `expect_almost_eq*` when none is given, as upstream."""

ui64 = IntegerType(64, Signedness.UNSIGNED)


def _check_float_or_complex(op: Operation, what: str, value: SSAValue) -> None:
    element = element_type(value.type)
    if not (is_float(element) or isinstance(element, ComplexType)):
        raise VerifyException(
            f"'{op.name}' op {what} must have float or complex elements, but has "
            f"{element}"
        )


def _check_same_type(op: Operation, lhs: SSAValue, rhs: SSAValue) -> None:
    if lhs.type != rhs.type:
        raise VerifyException(
            f"'{op.name}' op operands must have the same type, but got {lhs.type} "
            f"and {rhs.type}"
        )


def _check_constant_type(op: Operation, lhs: SSAValue, value: Attribute) -> None:
    assert isinstance(value, DenseIntOrFPElementsAttr)
    if value.type != lhs.type:
        raise VerifyException(
            f"'{op.name}' op constant type {value.type} must equal the operand "
            f"type {lhs.type}"
        )


def _parse_constant(parser: Parser) -> DenseIntOrFPElementsAttr:
    pos = parser.pos
    value = parser.parse_attribute()
    if not isinstance(value, DenseIntOrFPElementsAttr):
        parser.raise_error(
            "expected a dense elements attribute such as `dense<1.0> : "
            f"tensor<f32>`, found {value}",
            pos,
        )
    return value


def _parse_tolerance(parser: Parser) -> FloatAttr:
    """The number after `tolerance =`."""
    parser.parse_punctuation("=")
    return FloatAttr(float(parser.parse_number()), f64)


def _check_tolerance(op: Operation, tolerance: FloatAttr | None) -> None:
    if tolerance is None:
        return
    value = tolerance.value.data
    if not isinstance(tolerance.type, Float64Type):
        raise VerifyException(
            f"'{op.name}' op tolerance must be an f64 attribute, but has type "
            f"{tolerance.type}"
        )
    if not value >= 0 or value == float("inf"):
        raise VerifyException(
            f"'{op.name}' op tolerance must be finite and non-negative, got {value}"
        )


def _print_tolerance(printer: Printer, tolerance: FloatAttr | None) -> None:
    if tolerance is not None:
        printer.print_string(", tolerance = ")
        printer.print_float(tolerance.value.data, f64)


def _take_properties(
    attributes: dict[str, Attribute], names: tuple[str, ...]
) -> dict[str, Attribute]:
    """Move inherent attributes written in the attribute dictionary (as in
    `{tolerance = 0.1 : f64}`) out of it, as MLIR does."""
    return {name: attributes.pop(name) for name in names if name in attributes}


def _resolve(
    parser: Parser, operands: list[UnresolvedOperand], type: Attribute
) -> list[SSAValue]:
    return [parser.resolve_operand(operand, type) for operand in operands]


@irdl_op_definition
class ExpectEqConstOp(IRDLOperation):
    """Fails unless the operand equals the constant exactly (floats compare
    bitwise).

    `check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi32>`"""

    name = "check.expect_eq_const"
    lhs = operand_def(TensorType)
    value = prop_def(DenseIntOrFPElementsAttr)

    def __init__(self, lhs: SSAValue, value: DenseIntOrFPElementsAttr):
        super().__init__(operands=[lhs], properties={"value": value})

    @classmethod
    def parse(cls, parser: Parser) -> ExpectEqConstOp:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = _parse_constant(parser)
        attributes = parser.parse_optional_attr_dict()
        op = cls(parser.resolve_operand(lhs, value.type), value)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_attribute(self.value)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        _check_constant_type(self, self.lhs, self.value)


@irdl_op_definition
class ExpectAlmostEqConstOp(IRDLOperation):
    """Fails unless every element of the float or complex operand is within
    `tolerance` of the constant's.

    `check.expect_almost_eq_const %0, dense<5.1> : tensor<f64>, tolerance = 1.000000e-01`"""

    name = "check.expect_almost_eq_const"
    lhs = operand_def(TensorType)
    value = prop_def(DenseIntOrFPElementsAttr)
    tolerance = opt_prop_def(FloatAttr)

    def __init__(
        self,
        lhs: SSAValue,
        value: DenseIntOrFPElementsAttr,
        tolerance: float | None = None,
    ):
        super().__init__(
            operands=[lhs],
            properties={
                "value": value,
                "tolerance": FloatAttr(tolerance, f64)
                if tolerance is not None
                else None,
            },
        )

    @property
    def tolerance_value(self) -> float:
        return (
            self.tolerance.value.data
            if self.tolerance is not None
            else DEFAULT_TOLERANCE
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExpectAlmostEqConstOp:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = _parse_constant(parser)
        properties: dict[str, Attribute] = {"value": value}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("tolerance")
            properties["tolerance"] = _parse_tolerance(parser)
        attributes = parser.parse_optional_attr_dict()
        properties |= _take_properties(attributes, ("tolerance",))
        op = cls.create(
            operands=[parser.resolve_operand(lhs, value.type)],
            properties=properties,
            attributes=attributes,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_attribute(self.value)
        _print_tolerance(printer, self.tolerance)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        _check_constant_type(self, self.lhs, self.value)
        _check_float_or_complex(self, "operand", self.lhs)
        _check_tolerance(self, self.tolerance)


@irdl_op_definition
class ExpectEqOp(IRDLOperation):
    """Fails unless the operands are exactly equal.

    `check.expect_eq %a, %b : tensor<3xi64>`"""

    name = "check.expect_eq"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs])

    @classmethod
    def parse(cls, parser: Parser) -> ExpectEqOp:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        op = cls(*_resolve(parser, [lhs, rhs], type))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    def verify_(self) -> None:
        _check_same_type(self, self.lhs, self.rhs)


@irdl_op_definition
class ExpectAlmostEqOp(IRDLOperation):
    """Fails unless every element of the float or complex operands is within
    `tolerance` of each other.

    `check.expect_almost_eq %a, %b, tolerance = 1.000000e-01 : tensor<f64>`"""

    name = "check.expect_almost_eq"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    tolerance = opt_prop_def(FloatAttr)

    def __init__(self, lhs: SSAValue, rhs: SSAValue, tolerance: float | None = None):
        super().__init__(
            operands=[lhs, rhs],
            properties={
                "tolerance": FloatAttr(tolerance, f64)
                if tolerance is not None
                else None
            },
        )

    @property
    def tolerance_value(self) -> float:
        return (
            self.tolerance.value.data
            if self.tolerance is not None
            else DEFAULT_TOLERANCE
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExpectAlmostEqOp:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("tolerance")
            properties["tolerance"] = _parse_tolerance(parser)
        attributes = parser.parse_optional_attr_dict()
        properties |= _take_properties(attributes, ("tolerance",))
        parser.parse_punctuation(":")
        type = parser.parse_type()
        return cls.create(
            operands=_resolve(parser, [lhs, rhs], type),
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_tolerance(printer, self.tolerance)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    def verify_(self) -> None:
        _check_same_type(self, self.lhs, self.rhs)
        _check_float_or_complex(self, "operands", self.lhs)
        _check_tolerance(self, self.tolerance)


@irdl_op_definition
class ExpectCloseOp(IRDLOperation):
    """Fails unless the ULP distance between each pair of elements lies in
    `[min_ulp_difference, max_ulp_difference]`; non-finite elements must be
    bitwise equal, or both NaN.

    `check.expect_close %a, %b, max_ulp_difference = 3 : tensor<f16>, tensor<f16>`

    As upstream, the attribute dictionary (if any) follows the colon."""

    name = "check.expect_close"
    actual = operand_def(TensorType)
    expected = operand_def(TensorType)
    max_ulp_difference = opt_prop_def(IntegerAttr)
    min_ulp_difference = opt_prop_def(IntegerAttr)

    def __init__(
        self,
        actual: SSAValue,
        expected: SSAValue,
        max_ulp_difference: int = 1,
        min_ulp_difference: int | None = None,
    ):
        super().__init__(
            operands=[actual, expected],
            properties={
                "max_ulp_difference": IntegerAttr(max_ulp_difference, ui64),
                "min_ulp_difference": IntegerAttr(min_ulp_difference, ui64)
                if min_ulp_difference is not None
                else None,
            },
        )

    @property
    def max_ulp(self) -> int:
        """Upstream's default is 1."""
        attr = self.max_ulp_difference
        return attr.value.data if attr is not None else 1

    @property
    def min_ulp(self) -> int:
        attr = self.min_ulp_difference
        return attr.value.data if attr is not None else 0

    @classmethod
    def parse(cls, parser: Parser) -> ExpectCloseOp:
        actual = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        expected = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {}
        parser.parse_punctuation(",")
        parser.parse_keyword("max_ulp_difference")
        parser.parse_punctuation("=")
        properties["max_ulp_difference"] = IntegerAttr(
            parser.parse_integer(allow_boolean=False, allow_negative=False), ui64
        )
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("min_ulp_difference")
            parser.parse_punctuation("=")
            properties["min_ulp_difference"] = IntegerAttr(
                parser.parse_integer(allow_boolean=False, allow_negative=False), ui64
            )
        parser.parse_punctuation(":")
        attributes = parser.parse_optional_attr_dict()
        properties |= _take_properties(
            attributes, ("max_ulp_difference", "min_ulp_difference")
        )
        actual_type = parser.parse_type()
        parser.parse_punctuation(",")
        expected_type = parser.parse_type()
        return cls.create(
            operands=[
                parser.resolve_operand(actual, actual_type),
                parser.resolve_operand(expected, expected_type),
            ],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f", max_ulp_difference = {self.max_ulp}")
        if self.min_ulp_difference is not None:
            printer.print_string(f", min_ulp_difference = {self.min_ulp}")
        printer.print_string(" :")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.actual.type)
        printer.print_string(", ")
        printer.print_attribute(self.expected.type)

    def verify_(self) -> None:
        if self.actual.type != self.expected.type:
            raise VerifyException(
                f"'{self.name}' op actual and expected must have the same type, but "
                f"got {self.actual.type} and {self.expected.type}"
            )
        _check_float_or_complex(self, "operands", self.actual)
        for what in ("max_ulp_difference", "min_ulp_difference"):
            attr = self.properties.get(what)
            if attr is not None:
                assert isinstance(attr, IntegerAttr)
                if attr.value.data < 0:
                    raise VerifyException(
                        f"'{self.name}' op {what} must be non-negative, got "
                        f"{attr.value.data}"
                    )
        if self.min_ulp > self.max_ulp:
            raise VerifyException(
                f"'{self.name}' op min_ulp_difference {self.min_ulp} must not exceed "
                f"max_ulp_difference {self.max_ulp}"
            )


@irdl_op_definition
class ExpectSerializedEqOp(IRDLOperation):
    """Fails unless the operand equals exactly the value that the probe
    `probe_id` recorded in its execution number `iter` (0, the first, if
    absent).

    `check.expect_serialized_eq %x, probe_id = "after_add", iter = 1 : tensor<i64>`"""

    name = "check.expect_serialized_eq"
    expected = operand_def(TensorType)
    probe_id = prop_def(StringAttr)
    iter = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> ExpectSerializedEqOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_characters("probe_id")
        parser.parse_punctuation("=")
        properties: dict[str, Attribute] = {
            "probe_id": StringAttr(parser.parse_str_literal())
        }
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_characters("iter")
            parser.parse_punctuation("=")
            iteration = parser.parse_integer(allow_boolean=False, allow_negative=False)
            properties["iter"] = IntegerAttr(iteration, ui64)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        op = cls.create(
            operands=[parser.resolve_operand(operand, type_)], properties=properties
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.expected)
        printer.print_string(", probe_id = ")
        printer.print_string_literal(self.probe_id.data)
        if self.iter is not None:
            printer.print_string(f", iter = {self.iter.value.data}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.expected.type)


CHECK_OPS: list[type[IRDLOperation]] = [
    ExpectEqConstOp,
    ExpectAlmostEqConstOp,
    ExpectEqOp,
    ExpectAlmostEqOp,
    ExpectCloseOp,
    ExpectSerializedEqOp,
]

Check = Dialect("check", [*CHECK_OPS], [])
"""The check dialect."""
