"""Bounds checks: a debug mode of `loop-to-llvm` (`bounds-check=true`).

Before each load and store (and each `memcpy`/`memset` of a plain copy or
fill), the element offset it reaches, row-major from the buffer's start, is
compared with the buffer's size: one unsigned `offset < size - lanes + 1`
(a negative offset is a huge unsigned one). Out of bounds, the code calls
`xlir.bounds_error(message, offset, size)`, which prints the message (the
access, its function and buffer) with the numbers and aborts: an
out-of-bounds write is caught where it happens, not calls later as a
corrupted heap. The handler is one of the CPU JIT's support functions
(targets/cpu/support_functions.py, loaded by thread_runtime.py) or, ahead
of time, defined in the object (the cpu target's `thread_runtime.define_runtime`). Without the option no
check is emitted.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import llvm
from xdsl.dialects.builtin import MemRefType, i64
from xdsl.ir import Operation, SSAValue
from xlir.lowering.llvm.function import PTR, FunctionBuilder

from xlir.source_locations import text_location

BOUNDS_ERROR = "xlir.bounds_error"
"""`void (ptr message, i64 offset, i64 size)`: reports and aborts."""

ULT = 6
"""`llvm.icmp`'s unsigned less-than."""


def check_access(
    b: FunctionBuilder,
    op: Operation,
    buffer: SSAValue,
    indices: Sequence[SSAValue],
    elements: int,
) -> None:
    """Branch to the handler unless `elements` elements from `buffer[indices]`
    (old values) lie inside the buffer; `b.block` is then the block where
    they do."""
    type_ = buffer.type
    assert isinstance(type_, MemRefType)
    shape = type_.get_shape()
    if any(size < 0 for size in shape):
        return  # no static size to check against
    size = prod(shape)
    offset = b.get(indices[0]) if indices else b.const(0)
    for index, extent in zip(indices[1:], shape[1:], strict=True):
        offset = b.add(b.mul(offset, b.const(extent)), b.get(index))
    # more elements than the buffer has: no offset is inside (`ult 0`)
    inside = b.icmp(offset, b.const(max(size - elements + 1, 0)), ULT)
    fail, go_on = b.new_block(), b.new_block()
    b.cond_branch(inside, go_on, [], fail, [])
    b.block = fail
    b.module.declare(BOUNDS_ERROR, [PTR, i64, i64], llvm.LLVMVoidType())
    message = b.module.string(_message(b, op, buffer, elements))
    address = b.emit(llvm.AddressOfOp(message, PTR))
    b.emit(llvm.CallOp(BOUNDS_ERROR, address, offset, b.const(size)))
    b.emit(llvm.UnreachableOp())
    b.block = go_on


def _message(b: FunctionBuilder, op: Operation, buffer: SSAValue, elements: int) -> str:
    """What went out of bounds: the access, its function, the buffer."""
    function = b.region.parent_op()
    where = function.sym_name.data if isinstance(function, llvm.FuncOp) else "?"
    name = f"%{buffer.name_hint}" if buffer.name_hint else _position(buffer)
    what = op.name if elements == 1 else f"{op.name} of {elements} elements"
    loc = text_location(op.location)
    at = ""
    if loc is not None:
        at = f" ({loc.filename.data}:{loc.line.data}:{loc.column.data})"
    return f"{what} in @{where}{at}, buffer {name} : {buffer.type}"


def _position(buffer: SSAValue) -> str:
    """A buffer without a name: its place among its block's arguments, or
    the op that makes it."""
    owner = buffer.owner
    if isinstance(owner, Operation):
        return f"(result of {owner.name})"
    return f"(argument #{buffer.index})"  # pyright: ignore[reportAttributeAccessIssue]
