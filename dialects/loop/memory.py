"""Buffers at the loop level: `loop.load`, `loop.store`, `loop.view`,
`loop.reshape`.

Buffers are builtin `memref`s. The loop dialect has its own load and store
(rather than `memref.load`/`memref.store`) so that every backend pattern-matches
one pair of ops with verifiers that name the rule, and so that the level stays
closed: a kernel body is `loop`, `arith` and `math` ops only. The syntax is
`memref`'s, and lowering to it (for xDSL's `convert-memref-to-ptr`) is a rename.

A load or store of a 1-D `vector<Nx...>` (the form `register-tile` makes)
moves N consecutive elements along the buffer's last dimension, from the
element the indices name: `%v = loop.load %B[%k, %j] : memref<8x64xf32>,
vector<16xf32>` reads B[k, j] to B[k, j + 15].

Views never copy: `loop.view` gives a typed window of a byte buffer (the temp
arena of the buffer plan), `loop.reshape` the same elements under another
static shape. Both keep the row-major identity layout, so an index into a view
is an offset into its source that any backend computes alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    VectorType,
    i8,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from xlir.element_types import bit_width, byte_width


def _require_static_identity(op: Operation, what: str, type: MemRefType) -> None:
    if DYNAMIC_INDEX in type.get_shape() or not isinstance(type.layout, NoneAttr):
        raise VerifyException(
            f"'{op.name}' op {what} {type} must have a static shape and the "
            "row-major identity layout"
        )


def verify_indices(op: Operation, buffer: SSAValue, indices: Sequence[SSAValue]):
    """One index per dimension of the buffer (loads, stores, host reads)."""
    assert isinstance(buffer.type, MemRefType)
    rank = buffer.type.get_num_dims()
    if len(indices) != rank:
        raise VerifyException(
            f"'{op.name}' op takes one index per dimension of {buffer.type} "
            f"({rank}), but has {len(indices)}"
        )


def _verify_element(op: Operation, what: str, value: SSAValue, buffer: SSAValue):
    """The value is an element of the buffer, or a 1-D vector of them."""
    assert isinstance(buffer.type, MemRefType)
    type_ = value.type
    element = buffer.type.element_type
    if isinstance(type_, VectorType):
        shape = type_.get_shape()
        if type_.element_type == element and len(shape) == 1 and shape[0] > 0:
            if not buffer.type.get_shape():
                raise VerifyException(
                    f"'{op.name}' op {what} type {type_} needs a buffer with a "
                    f"dimension to run along, but {buffer.type} has rank 0"
                )
            if (bits := bit_width(element)) is not None and bits % 8:
                raise VerifyException(
                    f"'{op.name}' op {what} type {type_} has {bits}-bit lanes; "
                    "a buffer holds such elements a byte each, a vector packs "
                    "them, so vectors take whole-byte elements only"
                )
            return
    elif type_ == element:
        return
    raise VerifyException(
        f"'{op.name}' op {what} type {type_} must equal the element type "
        f"{element} of {buffer.type} (or be a 1-D vector of it)"
    )


def _parse_vector_type(parser: Parser) -> VectorType | None:
    """The `, vector<Nx...>` after an access's buffer type, if any."""
    if parser.parse_optional_punctuation(",") is None:
        return None
    pos = parser.pos
    type_ = parser.parse_type()
    if not isinstance(type_, VectorType):
        parser.raise_error(f"expected a vector type, got {type_}", pos)
    return type_


def _parse_access(
    parser: Parser,
) -> tuple[SSAValue, Sequence[SSAValue], dict[str, Attribute]]:
    """`%buf[%i, %j] {attrs} : memref<...>`: the buffer, indices, attributes."""
    buffer = parser.parse_unresolved_operand()
    indices = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    pos = parser.pos
    buffer_type = parser.parse_type()
    if not isinstance(buffer_type, MemRefType):
        parser.raise_error(f"expected a memref type, got {buffer_type}", pos)
    return (
        parser.resolve_operand(buffer, buffer_type),
        parser.resolve_operands(indices, [IndexType()] * len(indices), pos),
        attributes,
    )


def _print_access(
    printer: Printer,
    buffer: SSAValue,
    indices: Sequence[SSAValue],
    attributes: dict[str, Attribute],
) -> None:
    printer.print_operand(buffer)
    printer.print_string("[")
    printer.print_list(indices, printer.print_operand)
    printer.print_string("]")
    printer.print_op_attributes(attributes)
    printer.print_string(" : ")
    printer.print_attribute(buffer.type)


@irdl_op_definition
class LoadOp(IRDLOperation):
    """One element of a buffer, at one index per dimension, or a vector of
    consecutive elements along the last dimension from there.

    `%x = loop.load %buf[%i, %j] : memref<64x128xf32>` (a rank-0 buffer takes
    `[]`); `%v = loop.load %buf[%i, %j] : memref<64x128xf32>, vector<16xf32>`.
    """

    name = "loop.load"
    buffer = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def()
    traits = traits_def(MemoryReadEffect())

    def __init__(
        self,
        buffer: SSAValue,
        indices: Sequence[SSAValue],
        vector: VectorType | None = None,
    ):
        assert isinstance(buffer.type, MemRefType)
        Operation.__init__(
            self,
            operands=[buffer, *indices],
            result_types=[vector or buffer.type.element_type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        buffer, indices, attributes = _parse_access(parser)
        op = cls(buffer, indices, _parse_vector_type(parser))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self.buffer, self.indices, self.attributes)
        if isinstance(self.result.type, VectorType):
            printer.print_string(", ")
            printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        verify_indices(self, self.buffer, self.indices)
        _verify_element(self, "result", self.result, self.buffer)


@irdl_op_definition
class StoreOp(IRDLOperation):
    """Write one element of a buffer, or a vector of consecutive elements
    along the last dimension.

    `loop.store %x, %buf[%i, %j] : memref<64x128xf32>`;
    `loop.store %v, %buf[%i, %j] : memref<64x128xf32>, vector<16xf32>`"""

    name = "loop.store"
    value = operand_def()
    buffer = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    traits = traits_def(MemoryWriteEffect())

    def __init__(self, value: SSAValue, buffer: SSAValue, indices: Sequence[SSAValue]):
        Operation.__init__(self, operands=[value, buffer, *indices])

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        buffer, indices, attributes = _parse_access(parser)
        assert isinstance(buffer.type, MemRefType)
        value_type = _parse_vector_type(parser) or buffer.type.element_type
        op = cls(parser.resolve_operand(value, value_type), buffer, indices)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        _print_access(printer, self.buffer, self.indices, self.attributes)
        if isinstance(self.value.type, VectorType):
            printer.print_string(", ")
            printer.print_attribute(self.value.type)

    def verify_(self) -> None:
        verify_indices(self, self.buffer, self.indices)
        _verify_element(self, "value", self.value, self.buffer)


@irdl_op_definition
class ViewOp(IRDLOperation):
    """A typed buffer inside a byte buffer, at a static byte offset: how a
    kernel or the host addresses a temp buffer in the arena of the buffer plan.

    `%t = loop.view %arena[4096] : memref<8192xi8> -> memref<64x4xf32>`

    The offset is a multiple of the element size and the view lies inside the
    source."""

    name = "loop.view"
    source = operand_def(MemRefType)
    offset = prop_def(IntegerAttr[I64])
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())

    def __init__(self, source: SSAValue, offset: int, result_type: MemRefType):
        Operation.__init__(
            self,
            operands=[source],
            result_types=[result_type],
            properties={"offset": IntegerAttr(offset, i64)},
        )

    @property
    def byte_offset(self) -> int:
        return self.offset.value.data

    @classmethod
    def parse(cls, parser: Parser) -> ViewOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation("]")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        pos = parser.pos
        result_type = parser.parse_type()
        if not isinstance(result_type, MemRefType):
            parser.raise_error(f"expected a memref type, got {result_type}", pos)
        op = cls(parser.resolve_operand(source, source_type), offset, result_type)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(f"[{self.byte_offset}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        _require_static_identity(self, "source", source)
        if source.get_num_dims() != 1 or source.element_type != i8:
            raise VerifyException(
                f"'{self.name}' op source {source} must be a 1-D buffer of bytes (i8)"
            )
        _require_static_identity(self, "result", result)
        size = byte_width(result.element_type)
        if size is None:
            raise VerifyException(
                f"'{self.name}' op result element type {result.element_type} has no "
                "fixed byte size"
            )
        offset = self.byte_offset
        if offset < 0 or offset % size:
            raise VerifyException(
                f"'{self.name}' op offset {offset} must be a non-negative multiple of "
                f"the element size ({size} bytes)"
            )
        end = offset + size * prod(result.get_shape())
        if end > source.get_shape()[0]:
            raise VerifyException(
                f"'{self.name}' op view of bytes [{offset}, {end}) overruns the "
                f"{source.get_shape()[0]}-byte source"
            )


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """The same elements, in the same row-major order, under another static
    shape; no copy (a `stablehlo.reshape` or a bitcast-like transpose becomes
    one). The element type may change where the bytes stay as many: four
    bytes of a trailing dim of 4 as one i32 (`dot-quads`).

    `%r = loop.reshape %b : memref<64x1xf32> -> memref<64xf32>`"""

    name = "loop.reshape"
    source = operand_def(MemRefType)
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue, result_type: MemRefType):
        Operation.__init__(self, operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        _require_static_identity(self, "source", source)
        _require_static_identity(self, "result", result)
        if source.element_type == result.element_type:
            if prod(source.get_shape()) != prod(result.get_shape()):
                raise VerifyException(
                    f"'{self.name}' op result {result} must have as many elements "
                    f"as the source {source}"
                )
            return
        source_size = byte_width(source.element_type)
        result_size = byte_width(result.element_type)
        if source_size is None or result_size is None:
            raise VerifyException(
                f"'{self.name}' op result element type {result.element_type} must "
                f"equal the source element type {source.element_type}"
            )
        if source_size * prod(source.get_shape()) != result_size * prod(
            result.get_shape()
        ):
            raise VerifyException(
                f"'{self.name}' op result {result} must hold as many bytes as the "
                f"source {source}"
            )


MEMORY_OPS: list[type[IRDLOperation]] = [LoadOp, StoreOp, ViewOp, ReshapeOp]
