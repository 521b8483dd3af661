"""`loop.call` in the llvm dialect: a declared external function called on
the buffers' pointers and the indices' 64-bit integers. The target links
the routine (the CPU JIT) or defines it in the module (ahead of time)."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.ir import Operation
from xlir.dialects.loop.calls import CallOp
from xlir.lowering.llvm.function import FunctionBuilder


def lower_call(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, CallOp)
    arguments = [b.get(value) for value in op.arguments]
    name = b.module.declare(
        op.callee.string_value(), [a.type for a in arguments], llvm.LLVMVoidType()
    )
    b.call(name, arguments)


CALLS = {"loop.call": lower_call}
