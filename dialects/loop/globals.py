"""Constants as read-only global data: `loop.global` and `loop.get_global`.

A constant of the program is emitted once, as data in the compiled image (an
LLVM constant global, a PTX `.global`, a section of the accelerator's binary),
not rebuilt per call. xDSL's `memref.global` would do, but it has only the
generic syntax, its `memref.get_global` is not checked against the global, and
no xDSL lowering consumes it; these two ops are readable and verified:

    loop.global @cst : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    %c = loop.get_global @cst : memref<4xf32>

The value is stored as a `dense<...> : tensor<...>` attribute (so the HLO
level's constants move over as they are); the global's buffer type is the
memref of the same shape and element type. A buffer of a global must not be
written.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.symbols import lookup_symbol


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """Read-only data with a symbol name; see the module docstring.

    `loop.global @cst : memref<2x2xi32> = dense<[[1, 2], [3, 4]]>`"""

    name = "loop.global"
    sym_name = prop_def(SymbolNameConstraint())
    value = prop_def(DenseIntOrFPElementsAttr)
    traits = traits_def(SymbolOpInterface())

    def __init__(self, name: str, value: DenseIntOrFPElementsAttr):
        Operation.__init__(
            self, properties={"sym_name": StringAttr(name), "value": value}
        )

    @property
    def buffer_type(self) -> MemRefType:
        """The type of the global's buffer: a memref shaped like the value."""
        return MemRefType(self.value.get_element_type(), self.value.get_shape())

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        name = parser.parse_symbol_name().data
        parser.parse_punctuation(":")
        pos = parser.pos
        buffer_type = parser.parse_type()
        if (
            not isinstance(buffer_type, MemRefType)
            or not buffer_type.has_static_shape()
        ):
            parser.raise_error(
                f"expected a memref type of static shape, got {buffer_type}", pos
            )
        parser.parse_punctuation("=")
        parser.parse_keyword("dense")
        tensor_type = TensorType(buffer_type.element_type, buffer_type.get_shape())
        value = parser.parse_dense_int_or_fp_elements_attr(tensor_type)  # pyright: ignore[reportArgumentType]
        op = cls(name, value)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.buffer_type)
        printer.print_string(" = ")
        self.value.print_without_type(printer)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if not isinstance(self.value.type, TensorType):
            raise VerifyException(
                f"'{self.name}' op value must have a tensor type, but has "
                f"{self.value.type}"
            )


@irdl_op_definition
class GetGlobalOp(IRDLOperation):
    """The buffer of a `loop.global`, by symbol.

    `%c = loop.get_global @cst : memref<4xf32>`"""

    name = "loop.get_global"
    global_name = prop_def(SymbolRefAttr, prop_name="name")
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$name attr-dict `:` type($result)"

    def __init__(self, name: str, buffer_type: MemRefType):
        Operation.__init__(
            self, result_types=[buffer_type], properties={"name": SymbolRefAttr(name)}
        )

    def verify_(self) -> None:
        found = lookup_symbol(self, self.global_name)
        if not isinstance(found, GlobalOp):
            what = "not defined" if found is None else f"a '{found.name}'"
            raise VerifyException(
                f"'{self.name}' op {self.global_name} is {what}, not a 'loop.global'"
            )
        if self.result.type != found.buffer_type:
            raise VerifyException(
                f"'{self.name}' op result type {self.result.type} must equal the "
                f"type of {self.global_name}, {found.buffer_type}"
            )


GLOBAL_OPS: list[type[IRDLOperation]] = [GlobalOp, GetGlobalOp]
