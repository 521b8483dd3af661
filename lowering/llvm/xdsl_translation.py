"""Local fixes for xDSL 0.74's LLVM translation (upstream-worthy).

* It declares the overloaded intrinsics of float math (`llvm.sqrt`,
  `llvm.pow`, ...) by their bare names, so the first type used in a module
  wins and a module computing `sqrt` on both f32 and f64 (an f64 kernel
  beside a bf16 one, which runs in f32) dies in llvmlite with "Type of #1
  arg mismatch". Here they are declared with their type suffix
  (`llvm.sqrt.f32`, `llvm.sqrt.f64`, `llvm.sqrt.v4f32`), as LLVM names
  overloads (by name here: llvmlite's `declare_intrinsic` cannot name a
  vector overload, and a vector `sqrt` died in it with an AttributeError).
* It casts a `getelementptr`'s base to a pointer in address space 0, which
  LLVM rejects for a base in another space (a GPU's global memory: "invalid
  cast opcode"). Here the cast keeps the base's address space.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from xdsl.backend.llvm import convert_op
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.dialects import llvm
from xdsl.ir import Operation, SSAValue
from xlir.lowering.llvm.scalars import suffix


def _declared(
    builder: ir.IRBuilder, name: str, op: Operation, signature: ir.FunctionType
) -> ir.Function:
    """Intrinsic `name` overloaded on `op`'s first operand's type."""
    overload = f"{name}.{suffix(op.operands[0].type)}"
    return builder.module.declare_intrinsic(overload, (), signature)


def _unary(op: Operation, builder: ir.IRBuilder, values: dict[SSAValue, Any]):
    operand = values[op.operands[0]]
    intrinsic = _declared(
        builder,
        convert_op._UNARY_INTRINSIC_MAP[type(op)],  # pyright: ignore[reportPrivateUsage]
        op,
        ir.FunctionType(operand.type, [operand.type]),
    )
    values[op.results[0]] = builder.call(intrinsic, [operand])


def _binary(op: Operation, builder: ir.IRBuilder, values: dict[SSAValue, Any]):
    lhs, rhs = values[op.operands[0]], values[op.operands[1]]
    intrinsic = _declared(
        builder,
        convert_op._BINARY_INTRINSIC_MAP[type(op)],  # pyright: ignore[reportPrivateUsage]
        op,
        ir.FunctionType(lhs.type, [lhs.type, rhs.type]),
    )
    values[op.results[0]] = builder.call(intrinsic, [lhs, rhs])


def _getelementptr(
    op: llvm.GEPOp, builder: ir.IRBuilder, values: dict[SSAValue, Any]
) -> None:
    base = values[op.ptr]
    element = convert_type(op.elem_type)
    typed = builder.bitcast(base, element.as_pointer(base.type.addrspace))
    dynamic = iter(op.ssa_indices)
    indices = [
        values[next(dynamic)]
        if index == llvm.GEP_USE_SSA_VAL
        else ir.Constant(ir.IntType(32), index)
        for index in op.rawConstantIndices.iter_values()
    ]
    values[op.results[0]] = builder.gep(
        typed, indices, inbounds=op.inbounds is not None, source_etype=element
    )


def install() -> None:
    """Replace xDSL's translations of intrinsics and of `getelementptr` by
    the ones above."""
    convert_op._convert_unary_intrinsic = _unary  # pyright: ignore[reportPrivateUsage]
    convert_op._convert_binary_intrinsic = _binary  # pyright: ignore[reportPrivateUsage]
    convert_op._convert_getelementptr = _getelementptr  # pyright: ignore[reportPrivateUsage]
