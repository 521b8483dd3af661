"""Buffers as pointers: loads, stores, views, reshapes and globals.

A buffer is a `!llvm.ptr` to its first element; `loop.load`/`loop.store`
address element `indices` row-major (`FunctionBuilder.element_pointer`), a
vector access its first element, aligned as an element. A boolean is a byte
in memory (as numpy's) and is loaded and stored as an `i8`: LLVM's loop
vectorizer widens `i8` accesses but takes every `i1` store of a vectorized
loop apart into an extract and a store per lane (compare_select's mask
loops: slower code, and half of LLVM's time on them). A
`loop.view` is the arena's pointer plus its byte offset, a `loop.reshape` the
same pointer, and a `loop.global` an internal constant array that
`loop.get_global` takes the address of. With `loop-to-llvm{bounds-check=true}`
each load and store is checked against its buffer first (`bounds_checks`).
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    MemRefType,
    TensorType,
    VectorType,
    i8,
)
from xdsl.ir import Attribute, Operation
from xlir.dialects.loop.globals import GetGlobalOp, GlobalOp
from xlir.dialects.loop.memory import (
    LoadOp,
    ReshapeOp,
    StoreOp,
    ViewOp,
)
from xlir.lowering.llvm.bounds_checks import check_access
from xlir.lowering.llvm.function import FunctionBuilder, llvm_type

from xlir.element_types import byte_width


def _vector_alignment(type_: Attribute, buffer: Attribute) -> int | None:
    """A vector access is aligned as its elements are (LLVM would assume the
    whole vector's size); a scalar one takes LLVM's default."""
    if not isinstance(type_, VectorType):
        return None
    assert isinstance(buffer, MemRefType)
    return byte_width(buffer.element_type) or 1


def _lanes(type_: Attribute) -> int:
    """Elements a load or store of a `type_` value touches."""
    return type_.get_shape()[0] if isinstance(type_, VectorType) else 1


def _in_a_byte(type_: Attribute) -> bool:
    """An integer narrower than a byte (i1, i2, i4), which takes a byte of
    memory: loaded as an `i8` and truncated, stored zero-extended (numpy's
    booleans and `ml_dtypes`' 2- and 4-bit integers read only the low bits)."""
    return isinstance(type_, IntegerType) and type_.width.data < 8


def lower_load(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, LoadOp)
    if b.module.bounds_check:
        check_access(b, op, op.buffer, op.indices, _lanes(op.result.type))
    address = b.element_pointer(op.buffer, op.indices, op)
    type_ = llvm_type(op.result.type, op)
    if _in_a_byte(type_):
        b.bind(op.result, b.convert(llvm.TruncOp, b.load(address, i8), type_))
        return
    loaded = b.load(address, type_, _vector_alignment(type_, op.buffer.type))
    b.bind(op.result, loaded)


def lower_store(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, StoreOp)
    if b.module.bounds_check:
        check_access(b, op, op.buffer, op.indices, _lanes(op.value.type))
    address = b.element_pointer(op.buffer, op.indices, op)
    value = b.get(op.value)
    if _in_a_byte(value.type):
        b.store(b.convert(llvm.ZExtOp, value, i8), address)
        return
    b.store(value, address, _vector_alignment(value.type, op.buffer.type))


def lower_view(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, ViewOp)
    offset = op.offset.value.data
    source = b.get(op.source)
    if offset:
        element = llvm_type(op.source.type.element_type, op)  # pyright: ignore[reportAttributeAccessIssue]
        source = b.gep(source, (offset,), element)
    b.bind(op.result, source)


def lower_reshape(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, ReshapeOp)
    b.bind(op.result, b.get(op.source))


def lower_get_global(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, GetGlobalOp)
    name = op.global_name.root_reference.data
    b.bind(op.result, b.address_of(name))


def lower_global(op: GlobalOp) -> llvm.GlobalOp:
    """The constant data of a `loop.global`, as an internal LLVM constant."""
    value = op.value
    element = llvm_type(value.get_element_type(), op)
    if element != value.get_element_type():  # bf16, float8: their bits
        assert isinstance(element, IntegerType)
        bits = TensorType(element, value.get_shape())
        value = DenseIntOrFPElementsAttr(bits, value.data)
    array = llvm.LLVMArrayType(prod(value.get_shape()), element)
    return llvm.GlobalOp(
        array, op.sym_name.data, "internal", constant=True, value=value, alignment=64
    )


MEMORY = {
    "loop.load": lower_load,
    "loop.store": lower_store,
    "loop.view": lower_view,
    "loop.reshape": lower_reshape,
    "loop.get_global": lower_get_global,
}
"""Op name -> its lowering."""
