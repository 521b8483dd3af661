"""The `interpreter` dialect: ops of StableHLO's reference interpreter that
its test suite uses. `probe` records the values that flow through it:

    %y = interpreter.probe %x, probe_id = "after_add" : tensor<3xi64>

and `check.expect_serialized_eq` compares a value with what a probe recorded.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.syntax import print_attr_dict


@irdl_op_definition
class ProbeOp(IRDLOperation):
    """Returns its operand, and records its value under `probe_id` (one
    record per execution, so a probe in a loop body records each iteration)."""

    name = "interpreter.probe"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    probe_id = prop_def(StringAttr)

    def __init__(self, operand: SSAValue, probe_id: str):
        super().__init__(
            operands=[operand],
            result_types=[operand.type],
            properties={"probe_id": StringAttr(probe_id)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ProbeOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_characters("probe_id")
        parser.parse_punctuation("=")
        probe_id = parser.parse_str_literal()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        op = cls(parser.resolve_operand(operand, type_), probe_id)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(", probe_id = ")
        printer.print_string_literal(self.probe_id.data)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.operand.type != self.result.type:
            raise VerifyException(
                f"'{self.name}' op result type {self.result.type} must equal the "
                f"operand type {self.operand.type}"
            )


Interpreter = Dialect("interpreter", [ProbeOp], [])
"""The interpreter dialect (its probe op)."""
