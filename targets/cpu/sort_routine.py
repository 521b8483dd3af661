"""The sort routines, in LLVM IR: a stable sort of one row of unsigned keys
that says where each sorted key came from.

    void xlir.sort_keys32(i64 n, i64 row, ptr keys, ptr order, ptr work)
    void xlir.sort_keys64(...)                                   (i64 keys)

`keys`, `order` and `work` hold rows of `n` keys, `n` i32 positions and `n`
keys and positions more, row after row; the routine sorts row `row`'s keys
and writes to its `order` the position each sorted key had, equal keys in
the order of their positions (lowering/kernels/sort_routine.py makes the
keys and moves the operands along `order`). A row of up to `SMALL` keys is
sorted by insertion; a longer one by a least-significant-digit radix sort
with 8-bit digits: one pass counts every digit's values, then each digit
whose values are not all the same scatters the keys and positions by it
between the row and its work space (a scatter in order of the keys'
positions keeps equal digits in order, so the sort is stable). A radix
sort touches each key once per digit where a merge sort touches it log2(n)
times, and it has no compare to inline.

The kernel makes a row's keys and moves its operands along the order by
two more routines (sort_rows.py), and a top_k kernel calls the top_k
routines (top_k_routine.py): they are compiled and loaded with these, as
one object.

The JIT compiles the routines once per host (`sort_object`, kept beside the
compilation cache as the thread pool is) and loads them once per process
(`load_sort_routines`: process symbols every executable links against); an
ahead-of-time object defines them where it calls them
(`thread_runtime.define_runtime`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from llvmlite import ir
from xlir.lowering.kernels.sort_routine import ROUTINES, SORT_KEYS
from xlir.lowering.kernels.top_k_routine import TOP_K
from xlir.lowering.llvm.jit_loader import LoadedObject
from xlir.targets.cpu.process_symbols import host_object, load_as_process_symbols
from xlir.targets.cpu.routine_ir import (
    insert_sorted,
    load_at,
    stack_slot,
    store_at,
    while_loop,
)
from xlir.targets.cpu.sort_rows import define_row_routines
from xlir.targets.cpu.top_k_routine import define_top_k_routines

I8, I32, I64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
PTR = ir.PointerType()

NAMES = (*ROUTINES, *TOP_K.values())
"""Every routine of the object: the sort kernels' and the top_k ones'."""

SMALL = 64
"""The longest row sorted by insertion: below about this length a radix
sort's counters (256 per digit, cleared and summed) cost more than
insertion's moves."""

RADIX = 256
"""Values of one digit (8 bits)."""


def needs_sort_routines(objects: Sequence[bytes]) -> bool:
    """Whether any of these objects calls a sort or top_k routine."""
    return any(name.encode() in code for code in objects for name in NAMES)


@cache
def sort_object() -> bytes:
    """The routines' object code for this host, compiled on first use (by
    the host's first process: `cache.host_object`)."""

    return host_object(
        "sort-routines",
        lambda module: define_sort_routines(module, linkage="external"),
    )


@cache
def load_sort_routines() -> LoadedObject:
    """The routines loaded into this process, each a process symbol; kept
    for as long as the process lives."""
    return load_as_process_symbols(sort_object(), NAMES)


def define_sort_routines(module: ir.Module, linkage: str = "internal") -> None:
    """Define in `module` the routines it declares (a translated module's
    calls declare them); with `linkage="external"`, all of them (the JIT's
    object)."""
    for bits, name in SORT_KEYS.items():
        existing = module.globals.get(name)
        if linkage == "external" or isinstance(existing, ir.Function):
            _define(module, name, bits, linkage)
    define_row_routines(module, linkage)
    define_top_k_routines(module, linkage)


def _define(module: ir.Module, name: str, bits: int, linkage: str) -> None:
    key = ir.IntType(bits)
    size = bits // 8
    type_ = ir.FunctionType(ir.VoidType(), [I64, I64, PTR, PTR, PTR])
    function = module.globals.get(name)
    if not isinstance(function, ir.Function):
        function = ir.Function(module, type_, name)
    function.linkage = linkage
    function.attributes.add("nounwind")
    n, row, keys, order, work = function.args
    b = ir.IRBuilder(function.append_basic_block("entry"))
    k = b.gep(keys, [b.mul(row, b.mul(n, I64(size)))], source_etype=I8)
    p = b.gep(order, [b.mul(row, b.mul(n, I64(4)))], source_etype=I8)
    wk = b.gep(work, [b.mul(row, b.mul(n, I64(size + 4)))], source_etype=I8)
    wp = b.gep(wk, [b.mul(n, I64(size))], source_etype=I8)
    _loop(b, I64(0), n, lambda i: store_at(b, b.trunc(i, I32), p, i, I32))
    small = b.icmp_unsigned("<=", n, I64(SMALL))
    with b.if_else(small) as (then, otherwise):
        with then:
            _insertion_sort(b, k, p, n, key)
        with otherwise:
            _radix_sort(b, (k, p), (wk, wp), n, key)
    b.ret_void()


def _insertion_sort(
    b: ir.IRBuilder, k: ir.Value, p: ir.Value, n: ir.Value, key: ir.IntType
) -> None:
    """Stable: a key moves down past greater keys only."""

    def insert(i: ir.Value) -> None:
        x, q = load_at(b, k, i, key), load_at(b, p, i, I32)
        j = stack_slot(b, I64)
        b.store(i, j)
        insert_sorted(
            b,
            (k, p),
            (key, I32),
            j,
            (x, q),
            lambda new, old: b.icmp_unsigned("<", new, old),
        )

    _loop(b, I64(1), n, insert)


def _radix_sort(
    b: ir.IRBuilder,
    row: tuple[ir.Value, ir.Value],
    spare: tuple[ir.Value, ir.Value],
    n: ir.Value,
    key: ir.IntType,
) -> None:
    """Count every digit's values in one pass, then scatter by each digit
    that varies, lowest first, between `row` and `spare` (keys, positions);
    the positions end in `row`'s."""
    digits = key.width // 8
    counts = stack_slot(b, I32, digits * RADIX)
    _loop(b, I64(0), I64(digits * RADIX), lambda i: store_at(b, I32(0), counts, i, I32))

    def counter(digit: int, x: ir.Value) -> ir.Value:
        value = b.trunc(b.and_(b.lshr(x, key(8 * digit)), key(RADIX - 1)), I32)
        slot = b.add(value, I32(digit * RADIX))
        return b.gep(counts, [slot], source_etype=I32)

    def count(i: ir.Value) -> None:
        x = load_at(b, row[0], i, key)
        for digit in range(digits):
            slot = counter(digit, x)
            b.store(b.add(b.load(slot, typ=I32), I32(1)), slot)

    _loop(b, I64(0), n, count)
    slots = [stack_slot(b, PTR) for _ in range(4)]
    for slot, value in zip(slots, (*row, *spare), strict=True):
        b.store(value, slot)
    first = load_at(b, row[0], I64(0), key)
    n32 = b.trunc(n, I32)
    for digit in range(digits):
        varies = b.icmp_unsigned("!=", b.load(counter(digit, first), typ=I32), n32)
        with b.if_then(varies):
            _offsets(b, counts, digit)
            _scatter(b, slots, n, key, lambda x, digit=digit: counter(digit, x))
    ended = b.load(slots[1], typ=PTR)
    with b.if_then(b.icmp_unsigned("!=", ended, row[1])):
        _loop(
            b,
            I64(0),
            n,
            lambda i: store_at(b, load_at(b, ended, i, I32), row[1], i, I32),
        )


def _scatter(
    b: ir.IRBuilder,
    slots: list[ir.Value],
    n: ir.Value,
    key: ir.IntType,
    counter: Callable[[ir.Value], ir.Value],
) -> None:
    """One pass of the radix sort: every key and position of the source
    (`slots`: source keys, source positions, target keys, target
    positions) to the next place of its digit's value (`counter`) in the
    target; then source and target swap."""
    keys_from, from_p, keys_to, to_p = (b.load(slot, typ=PTR) for slot in slots)

    def scatter(i: ir.Value) -> None:
        x, q = load_at(b, keys_from, i, key), load_at(b, from_p, i, I32)
        slot = counter(x)
        at = b.load(slot, typ=I32)
        b.store(b.add(at, I32(1)), slot)
        wide = b.zext(at, I64)
        store_at(b, x, keys_to, wide, key)
        store_at(b, q, to_p, wide, I32)

    _loop(b, I64(0), n, scatter)
    for slot, value in zip(slots, (keys_to, to_p, keys_from, from_p), strict=True):
        b.store(value, slot)


def _offsets(b: ir.IRBuilder, counts: ir.Value, digit: int) -> None:
    """A digit's counts -> where each of its values starts (exclusive sums)."""
    total = stack_slot(b, I32)
    b.store(I32(0), total)

    def step(value: ir.Value) -> None:
        slot = b.gep(counts, [b.add(value, I64(digit * RADIX))], source_etype=I32)
        seen = b.load(total, typ=I32)
        count = b.load(slot, typ=I32)
        b.store(seen, slot)
        b.store(b.add(seen, count), total)

    _loop(b, I64(0), I64(RADIX), step)


def _loop(
    b: ir.IRBuilder, start: ir.Value, end: ir.Value, body: Callable[[ir.Value], None]
) -> None:
    """`for (i = start; i < end; i++) body(i)` (unsigned), its counter in a
    stack slot (`stack_slot`)."""
    counter = stack_slot(b, I64)
    b.store(start, counter)

    def step() -> None:
        body(b.load(counter, typ=I64))
        b.store(b.add(b.load(counter, typ=I64), I64(1)), counter)

    while_loop(b, lambda: b.icmp_unsigned("<", b.load(counter, typ=I64), end), step)
