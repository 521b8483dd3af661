"""The `interpreter` dialect: ops of StableHLO's reference interpreter that
its test suite uses. `probe` records the values that flow through it:

    %y = interpreter.probe %x, probe_id = "after_add" : tensor<3xi64>

and `check.expect_serialized_eq` compares a value with what a probe recorded.
`print` prints a value; `run_parallel` runs functions as a process grid
(the collective tests):

    %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@f], [@f]]}
        : (tensor<4xi64>, tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>)

`programs[replica][partition]` is the function that process runs; the
operands are each process's arguments and the results each process's
results, one process after the other in row-major order. `infeed` names
functions whose results, called in order, make up the infeed.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, StringAttr, SymbolRefAttr, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.symbols import lookup_symbol
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


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`interpreter.print %x : tensor<2xi32>`: prints the value."""

    name = "interpreter.print"
    operand = operand_def(TensorType)
    assembly_format = "$operand attr-dict `:` type($operand)"


def _types(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(str(t) for t in types) + ")"


@irdl_op_definition
class RunParallelOp(IRDLOperation):
    """Runs `programs` as a process grid (module docstring)."""

    name = "interpreter.run_parallel"
    inputs = var_operand_def()
    outputs = var_result_def()
    programs = prop_def(ArrayAttr[ArrayAttr[SymbolRefAttr]])
    infeed = opt_prop_def(ArrayAttr[SymbolRefAttr])

    def grid(self) -> list[list[str]]:
        """The function names, by replica then partition."""
        return [[ref.string_value() for ref in row] for row in self.programs]

    def verify_(self) -> None:
        rows = self.grid()
        if not rows or not rows[0]:
            raise VerifyException(
                f"'{self.name}' op programs must name at least one function"
            )
        widths = sorted({len(row) for row in rows})
        if len(widths) > 1:
            raise VerifyException(
                f"'{self.name}' op every replica needs the same number of "
                f"partitions, but the rows of programs have {widths} functions"
            )
        try:
            functions = [self._function(name) for row in rows for name in row]
        except ValueError:
            return  # not inside a module yet: nothing to look the names up in
        for ref in self.infeed or []:
            self._function(ref.string_value())
        inputs = [t for f in functions for t in f.function_type.inputs.data]
        outputs = [t for f in functions for t in f.function_type.outputs.data]
        if inputs != list(self.operand_types):
            raise VerifyException(
                f"'{self.name}' op operands {_types(self.operand_types)} must be "
                f"the programs' arguments one process after the other, "
                f"{_types(inputs)}"
            )
        if outputs != list(self.result_types):
            raise VerifyException(
                f"'{self.name}' op results {_types(self.result_types)} must be "
                f"the programs' results one process after the other, "
                f"{_types(outputs)}"
            )

    def _function(self, name: str) -> FuncOp:
        found = lookup_symbol(self, name)
        if not isinstance(found, FuncOp):
            raise VerifyException(
                f"'{self.name}' op @{name} does not name a function of the module"
            )
        return found


Interpreter = Dialect("interpreter", [ProbeOp, PrintOp, RunParallelOp], [])
"""The interpreter dialect: probe, print and run_parallel."""
