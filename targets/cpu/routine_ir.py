"""What the prebuilt routines' LLVM IR is built with (gemm_routine.py,
conv_routine.py, batched_routine.py): the types, an entry's declaration,
counted loops and a switch over small constants, on an `ir.IRBuilder`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from llvmlite import ir
from xlir.lowering.llvm.half_conversions import module_function

I64 = ir.IntType(64)
BIT = ir.IntType(1)
F32 = ir.FloatType()
PTR = ir.PointerType()


def value(made: object) -> ir.Value:
    """An instruction `ir.IRBuilder` made, as the value it is (its methods
    are typed as returning nothing)."""
    return cast(ir.Value, made)


def declare_entry(
    module: ir.Module, name: str, pointers: int, sizes: int, linkage: str
) -> tuple[ir.Function, ir.IRBuilder]:
    """The entry `name(pointers..., sizes...)` of `linkage`, declared in
    `module` or its declaration completed, its pointers `noalias` (each a
    buffer of its own), and a builder at its start."""
    function = module_function(
        module,
        name,
        ir.FunctionType(ir.VoidType(), [PTR] * pointers + [I64] * sizes),
    )
    function.linkage = linkage
    for pointer in function.args[:pointers]:
        pointer.add_attribute("noalias")
    return function, ir.IRBuilder(function.append_basic_block("entry"))


def loop(
    b: ir.IRBuilder,
    start: ir.Value,
    stop: ir.Value,
    step: ir.Value,
    body: Callable[[ir.Value], None],
) -> None:
    """`for (iv = start; iv < stop; iv += step) body(iv)`, `b` after it."""
    function = b.function
    before = b.block
    test = function.append_basic_block("loop")
    inside = function.append_basic_block("body")
    after = function.append_basic_block("after")
    b.branch(test)
    b.position_at_end(test)
    iv = b.phi(I64)
    iv.add_incoming(start, before)
    b.cbranch(b.icmp_signed("<", iv, stop), inside, after)
    b.position_at_end(inside)
    body(iv)
    iv.add_incoming(b.add(iv, step), b.block)
    b.branch(test)
    b.position_at_end(after)


def cases(
    b: ir.IRBuilder,
    of: ir.Value,
    counts: Iterable[int],
    body: Callable[[int], None],
) -> None:
    """`body(count)` where `of` is `count`, for each of `counts` (nothing
    for the other values), `b` after them."""
    function = b.function
    switch = b.switch(of, None)
    after = function.append_basic_block("cases")
    switch.default = after
    for count in counts:
        case = function.append_basic_block(f"case{count}")
        switch.add_case(I64(count), case)
        b.position_at_end(case)
        body(count)
        b.branch(after)
    b.position_at_end(after)
