"""`loop.call` in the llvm dialect: a call of the routine, declared.

Buffers pass as pointers to their first elements, `index` as i64, other
scalars as they are (dialects/loop/calls.py); the routine returns nothing.
The target defines the routine (or links it) where the module calls it."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.ir import Operation
from xlir.dialects.loop.calls import CallOp
from xlir.lowering.llvm.function import FunctionBuilder, llvm_type


def lower_call(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, CallOp)
    callee = op.callee.root_reference.data
    b.module.declare(
        callee, [llvm_type(a.type, op) for a in op.args], llvm.LLVMVoidType()
    )
    b.call(callee, [b.get(a) for a in op.args])


ROUTINE_CALLS = {"loop.call": lower_call}
