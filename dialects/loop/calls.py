"""`loop.call`: a kernel calls a routine of the target's runtime.

    loop.call @xlir.sort_keys32(%n, %row, %keys, %order, %work)
        : (index, index, memref<8x1024xi32>, memref<8x1024xi32>, memref<8x8192xi8>)

Some work is cheaper to compile as a call of code the target builds once
(per host, per process) than as a loop nest each program compiles again: a
sort's keys (targets/cpu/sort_routine.py) and an f32 dot's panels
(targets/cpu/gemm_routine.py) are such. The routine takes the
buffers as pointers to their first elements and the scalars by value, and
returns nothing; what it reads and writes is its contract with the kernel
that calls it (lowering/kernels/sort_routine.py), so to the loop passes the
call reads and writes every buffer it takes, and it stays where it is.
A target that has no such routine never sees the op: only a pipeline that
asks for the routine (`sort-routines`) makes it.

A call may say how many ops the routine runs (`{work = N}`, scalar ops as
`parallelize` counts a nest's: passes/loop/parallelize.py), so that a loop
of calls threads where its work pays for threads (a top_k routine scans a
whole row); without it, a call counts as one op.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_attr_def,
    prop_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

CALL_ARGUMENT_TYPES = (MemRefType, IndexType, IntegerType, AnyFloat)
"""What a routine takes: buffers, and scalars by value (a kernel's kinds)."""


@irdl_op_definition
class CallOp(IRDLOperation):
    """A call of a runtime routine; see the module docstring."""

    name = "loop.call"
    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    work = opt_attr_def(IntegerAttr[I64])
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(self, callee: str, args: Sequence[SSAValue], work: int | None = None):
        Operation.__init__(
            self,
            operands=list(args),
            properties={"callee": SymbolRefAttr(StringAttr(callee))},
            attributes={} if work is None else {"work": IntegerAttr(work, i64)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        callee = parser.parse_symbol_name()
        pos = parser.pos
        args = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_type
        )
        op = cls(callee.data, parser.resolve_operands(args, types, pos))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_list((a.type for a in self.args), printer.print_attribute)
        printer.print_string(")")

    def verify_(self) -> None:
        for index, arg in enumerate(self.args):
            if not isinstance(arg.type, CALL_ARGUMENT_TYPES):
                raise VerifyException(
                    f"'{self.name}' op argument #{index} of "
                    f"{self.callee.root_reference.data} has type {arg.type}; a "
                    "routine takes only memrefs, index, integers and floats"
                )


CALL_OPS = [CallOp]
