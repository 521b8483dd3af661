"""`loop.call`: a kernel calls a routine the target provides.

`loop.call @xlir.gemm_f32_12x8(%A, %B, %C, %P, %m, ...) : memref<...>, ...,
index` calls the function named with buffers (their first elements'
addresses) and indices (64-bit integers), returning nothing. The routine
is not in the module: a target that has it (the CPU's prebuilt GEMM,
targets/cpu/gemm_routine.py) links it or defines it where it is called.
Its effects are unknown to the loop level, so the op reads and writes
memory: passes leave it, and the buffers it is given, alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, MemRefType, StringAttr, SymbolRefAttr
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect

CALL_OPERAND = MemRefType | IndexType


@irdl_op_definition
class CallOp(IRDLOperation):
    """A call of a target's routine on buffers and indices (module docstring)."""

    name = "loop.call"
    callee = prop_def(SymbolRefAttr)
    arguments = var_operand_def(CALL_OPERAND)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$callee `(` $arguments `)` attr-dict `:` type($arguments)"

    def __init__(self, callee: str, arguments: Sequence[SSAValue]):
        Operation.__init__(
            self,
            operands=list(arguments),
            properties={"callee": SymbolRefAttr(StringAttr(callee))},
        )


CALL_OPS = [CallOp]
