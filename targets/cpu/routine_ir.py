"""What the prebuilt routines' LLVM IR is built with (gemm_routine.py,
conv_routine.py, batched_routine.py, sort_routine.py, sort_rows.py,
top_k_routine.py): the types, an entry's declaration, counted and while
loops, stack slots, indexed loads and stores and a switch over small
constants, on an `ir.IRBuilder`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from llvmlite import ir
from xlir.lowering.llvm.half_conversions import module_function

I64 = ir.IntType(64)
BIT = ir.IntType(1)
I32 = ir.IntType(32)
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


def stack_slot(b: ir.IRBuilder, type_: ir.Type, count: int = 1) -> ir.Value:
    """A stack slot of `count` values, in the entry block (where mem2reg
    promotes a scalar's)."""
    with b.goto_block(b.function.entry_basic_block):
        return b.alloca(type_, size=ir.IntType(32)(count) if count > 1 else None)


def load_at(b: ir.IRBuilder, base: ir.Value, i: object, type_: ir.Type) -> ir.Value:
    """`base[i]`, elements of `type_` (`i` any value the builder made)."""
    return b.load(b.gep(base, [i], source_etype=type_), typ=type_)


def store_at(
    b: ir.IRBuilder, stored: object, base: ir.Value, i: object, type_: ir.Type
) -> None:
    """`base[i] = stored`, elements of `type_`."""
    b.store(stored, b.gep(base, [i], source_etype=type_))


def while_loop(
    b: ir.IRBuilder, condition: Callable[[], object], body: Callable[[], None]
) -> None:
    """`while (condition()) body()`, `b` after it."""
    test = b.append_basic_block("while.test")
    inside = b.append_basic_block("while.body")
    done = b.append_basic_block("while.done")
    b.branch(test)
    b.position_at_end(test)
    b.cbranch(condition(), inside, done)
    b.position_at_end(inside)
    body()
    b.branch(test)
    b.position_at_end(done)


def insert_sorted(
    b: ir.IRBuilder,
    rows: tuple[ir.Value, ir.Value],
    types: tuple[ir.Type, ir.Type],
    slot: ir.Value,
    pair: tuple[object, object],
    goes_above: Callable[[ir.Value, ir.Value], object],
) -> None:
    """One step of an insertion sort of (key, position) pairs in two rows
    (`rows`, elements of `types`): `pair` goes in at the index in stack slot
    `slot` (the first free one), past every pair above it whose key it
    `goes_above(new, old)`, those moving down one; equal keys are passed
    only if `goes_above` says so (a stable sort's does not). The row above
    index 0 is not read (index 0 is read instead, and ignored)."""
    keys, positions = rows
    key_type, position_type = types

    def moves() -> object:
        at = b.load(slot, typ=I64)
        inside = b.icmp_unsigned(">", at, I64(0))
        above = b.select(inside, b.sub(at, I64(1)), at)
        return b.and_(
            inside, goes_above(value(pair[0]), load_at(b, keys, above, key_type))
        )

    def move() -> None:
        at = b.load(slot, typ=I64)
        above = b.sub(at, I64(1))
        store_at(b, load_at(b, keys, above, key_type), keys, at, key_type)
        store_at(
            b, load_at(b, positions, above, position_type), positions, at, position_type
        )
        b.store(above, slot)

    while_loop(b, moves, move)
    at = b.load(slot, typ=I64)
    store_at(b, pair[0], keys, at, key_type)
    store_at(b, pair[1], positions, at, position_type)
